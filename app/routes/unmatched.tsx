/**
 * An address no route claims: the locale prefix is rewritten to the current locale (spec §2),
 * otherwise 404 'Page not found'.
 */
import { data, redirect } from 'react-router';
import type { Route } from './+types/unmatched';
import type { PageLoadContext } from '#common/load-context';
import { rewriteUnmatchedLocale, safeRedirectTarget } from '#common/address';
import { DEFAULT_LOCALE, localeFromPath, localizePath } from '#common/locale';

export function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context as unknown as PageLoadContext;
  const url = new URL(request.url);
  const current = ctx.cookieLocale ?? localeFromPath(url.pathname) ?? DEFAULT_LOCALE;
  const rewritten = rewriteUnmatchedLocale(url.pathname, current);
  // The rewritten path comes from the address: it goes through the one redirect-target decision.
  if (rewritten) throw redirect(safeRedirectTarget(`${rewritten}${url.search}`, localizePath('/', current)));
  throw data({ message: 'Page not found' }, { status: 404 });
}

export default function Unmatched() {
  return null;
}
