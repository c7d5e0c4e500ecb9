import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  data,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import type { Route } from './+types/root';
import type { PageLoadContext } from '#common/load-context';
import { useState } from 'react';
import { DEFAULT_LOCALE, LOCALE_INFO, localeFromPath, type Locale } from '#common/locale';
import { isAuthenticated } from '#common/api-contract';
import { loaderApi } from './api/loader-api';
import { loadOrFail } from './api/errors';
import { I18nProvider } from './i18n';
import { loadTranslations, rememberTranslations, translationsFor } from './translations';
import { translationsUrl } from '#common/translations';
import { useRootData, type ConfigSections, type RootData } from './site-data';
import { DialogProvider } from './dialogs/dialog-provider';
import { ToastProvider } from './toasts/toast-provider';
import { SiteBehaviours } from './components/site-behaviours';
import { LanguageChoiceScript } from './components/language-switch';
import { DeferredArtScript } from './components/deferred-image';
import { BalanceProvider } from './balance';
import { useCspNonce } from './csp-nonce';
import appStylesHref from './styles/app.css?url';

export const links: Route.LinksFunction = () => [
  { rel: 'manifest', href: '/manifest.webmanifest' },
  // The favicon set (server/web/favicon.ts): the ICO for browsers without SVG icons, listed first
  // with its size so SVG-capable browsers prefer the SVG; iOS takes only a PNG touch icon.
  { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
];

export async function loader({ request, context }: Route.LoaderArgs): Promise<RootData> {
  const ctx = context as unknown as PageLoadContext;
  const url = new URL(request.url);
  const locale = localeFromPath(url.pathname) ?? DEFAULT_LOCALE;
  if (!ctx.site.locales.includes(locale)) throw data({ type: 'notFound' }, { status: 404 });
  const api = loaderApi(request, context);
  const [generalInfo, config, translations, loyalty] = await Promise.all([
    loadOrFail(api.call('metadata.getgeneralinfo')),
    ctx.siteConfig(locale) as Promise<ConfigSections>,
    ctx.translations(locale),
    // Spec §6: only a signed-in player loads loyalty info; a failure leaves the page without it (§8 swallowed).
    isAuthenticated(ctx.account) ? api.call('loyalty.getinfo').catch(() => null) : null,
  ]);
  // The render reads the table from here; the page carries only its version (issue 12).
  rememberTranslations(translations);
  return {
    locale,
    site: ctx.site,
    account: ctx.account,
    loyalty,
    generalInfo,
    config,
    translationsVersion: translations.version,
    origin: url.origin,
  };
}

/** A navigation to another locale (or after an edit) renders only once its table is here. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs): Promise<RootData> {
  const data = await serverLoader();
  await loadTranslations(data.locale, data.translationsVersion);
  return data;
}

/** The heavy site data changes with the locale or after an action, not on every navigation. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== 'GET') return defaultShouldRevalidate;
  // An explicit revalidation (after an account change) reloads the account too.
  if (currentUrl.href === nextUrl.href) return true;
  return localeFromPath(currentUrl.pathname) !== localeFromPath(nextUrl.pathname);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const locale = root?.locale ?? DEFAULT_LOCALE;
  const nonce = useCspNonce();
  return (
    <html lang={locale} dir={LOCALE_INFO[locale].dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#0f1020" />
        <Meta />
        {/* With a precedence React writes the stylesheet before the scripts' modulepreload hints, so
            the first paint waits for the CSS alone (issue 12: LCP on a phone). */}
        <link rel="stylesheet" href={appStylesHref} precedence="default" />
        <TranslationsPreload locale={locale} version={root?.translationsVersion} />
        <Links />
        <LanguageChoiceScript nonce={nonce} />
      </head>
      <body>
        {children}
        <DeferredArtScript nonce={nonce} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * The page's table, fetched while the scripts load; the client entry waits for it before it
 * hydrates. Kept as first rendered: a later locale's table is the root client loader's to load,
 * and a changed link would only make the browser fetch it a second time.
 */
function TranslationsPreload({ locale, version }: { locale: Locale; version: string | undefined }) {
  const [first] = useState(() => (version ? { version, href: translationsUrl(locale, version) } : undefined));
  if (!first) return null;
  // Low priority: the first paint waits for the stylesheet and the page, not for the texts' table.
  return (
    <link
      rel="preload"
      as="fetch"
      crossOrigin="anonymous"
      fetchPriority="low"
      href={first.href}
      data-translations={first.version}
    />
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  return (
    <I18nProvider locale={loaderData.locale} table={translationsFor(loaderData.translationsVersion)}>
      <ToastProvider>
        <DialogProvider>
          <BalanceProvider>
            <SiteBehaviours />
            <Outlet />
          </BalanceProvider>
        </DialogProvider>
      </ToastProvider>
    </I18nProvider>
  );
}

/** Only reached when the site data itself cannot load; the site layout shows every other error. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main className="system-page system-page--bare">
      <h1>{status === 404 ? 'Page not found' : 'Something went wrong'}</h1>
      <p>
        <a href="/">Home</a>
      </p>
    </main>
  );
}
