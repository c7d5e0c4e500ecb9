/**
 * The site layout: runs the address rules that must hold on every navigation (maintenance,
 * locale at the root, the configured redirect table, the anonymous access rule), loads the
 * page's SEO record, picks the page layout, and shows system pages for errors.
 */
import { Outlet, data, isRouteErrorResponse, redirect } from 'react-router';
import type { Route } from './+types/site-layout';
import type { PageLoadContext } from '#common/load-context';
import { anonymousRedirectTarget, isProtectedPath, matchRedirect, safeRedirectTarget, type RedirectRule } from '#common/address';
import { DEFAULT_LOCALE, detectLocale, localeFromPath, localizePath, stripLocalePrefix } from '#common/locale';
import { isAuthenticated } from '#common/api-contract';
import { errorPageType } from '#common/system-pages';
import { pageMeta, type SeoRecord, type SiteLayoutData } from '~/seo';
import { PageLayout } from '~/layouts/page-layout';
import { SystemPage } from '~/components/system-page';
import { useCurrentRoute } from '~/route-info';

/** The system page an error shows; its header is the page title. */
function errorPage(error: unknown) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const errorData = isRouteErrorResponse(error)
    ? (error.data as { type?: string; message?: string } | string | undefined)
    : undefined;
  const type = typeof errorData === 'object' ? errorData?.type : undefined;
  return errorPageType({ status, type });
}

/** Pages set their own meta; an error page (404, maintenance…) is titled by its system page header. */
export const meta: Route.MetaFunction = (args) => (args.error ? pageMeta(args, `system.${errorPage(args.error)}.header`) : []);

async function findSeo(ctx: PageLoadContext, locale: string, bare: string): Promise<SeoRecord | null> {
  const { body } = await ctx.readContent('seos', new URLSearchParams({ locale, 'filters[url][$eq]': bare }));
  const { data } = body as { data?: { attributes: SeoRecord }[] | null };
  return data?.[0]?.attributes ?? null;
}

export async function loader({ request, context }: Route.LoaderArgs): Promise<SiteLayoutData> {
  const ctx = context as unknown as PageLoadContext;
  const url = new URL(request.url);
  const locale = localeFromPath(url.pathname) ?? DEFAULT_LOCALE;
  if (ctx.site.isMaintenance) throw data({ type: 'ApplicationDisabledException' }, { status: 503 });
  if (ctx.isCountryBlocked) throw data({ type: 'AccessDeniedException' }, { status: 403 });
  if (ctx.accountStatus === 'banned') throw data({ type: 'UserBannedException' }, { status: 403 });

  // At the root the visitor's preferred locale decides (cookie, account, browser; spec §2).
  if (url.pathname === '/') {
    const preferred = detectLocale({
      pathname: url.pathname,
      cookieLocale: ctx.cookieLocale,
      accountLocale: isAuthenticated(ctx.account) ? ctx.account.locale : undefined,
      acceptLanguage: request.headers.get('accept-language'),
      available: ctx.site.locales,
    });
    if (preferred !== DEFAULT_LOCALE) throw redirect(`${localizePath('/', preferred)}${url.search}`);
  }

  const config = (await ctx.siteConfig(locale)) as { 'settings-seo'?: { redirects?: RedirectRule[] } };
  const match = matchRedirect(config['settings-seo']?.redirects ?? [], url.pathname);
  if (match) throw redirect(match.isExternal ? match.to : safeRedirectTarget(`${match.to}${url.search}`), match.status);

  if (!isAuthenticated(ctx.account) && isProtectedPath(url.pathname)) {
    throw redirect(anonymousRedirectTarget(`${url.pathname}${url.search}`, locale));
  }
  return { seo: await findSeo(ctx, locale, stripLocalePrefix(url.pathname)) };
}

/** The address rules must run on every navigation, not only on the first page load. */
export function shouldRevalidate() {
  return true;
}

export default function SiteLayout() {
  const { layout, isFramed } = useCurrentRoute();
  return (
    <PageLayout layout={layout} isFramed={isFramed}>
      <Outlet />
    </PageLayout>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const pageType = errorPage(error);
  if (!isRouteErrorResponse(error) && typeof console !== 'undefined') console.error(error);
  return <SystemPage type={pageType} isFatal />;
}
