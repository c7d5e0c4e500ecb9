/**
 * Everything that is not API, configuration, content or an asset is a page: React Router renders
 * it on the server. Address normalisation happens here (before routing); the locale, redirect
 * table and anonymous access rules run in the root loader so that client-side navigations
 * (`.data` requests) get the same answers as full page loads.
 */
import type { Context } from 'hono';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { getCookie } from 'hono/cookie';
import { normalizedPath } from '#common/address';
import { isLocale, LOCALE_COOKIE } from '#common/locale';
import type { PageLoadContext } from '#common/load-context';
import type { AppEnv } from './app-env';
import { isCountryBlocked } from '../modules/sites/service';
import { VISITOR_COOKIE } from './identity';

/** Marks the page renderer's in-process calls (for logging only; it grants nothing). */
export const INTERNAL_REQUEST_HEADER = 'x-internal-request';

export type InternalFetch = (request: Request, env: unknown) => Response | Promise<Response>;

/** The visitor's cookies as this request ends up with them (a just-issued visitor id included). */
function cookieHeaderFor(c: Context<AppEnv>): string {
  const original = c.req.header('cookie') ?? '';
  const visitorId = c.get('identity').visitorId;
  return original.includes(`${VISITOR_COOKIE}=${visitorId}`)
    ? original
    : [original, `${VISITOR_COOKIE}=${visitorId}`].filter(Boolean).join('; ');
}

async function loadContext(c: Context<AppEnv>, internalFetch: InternalFetch): Promise<PageLoadContext> {
  const site = c.get('site');
  const cookieLocale = getCookie(c, LOCALE_COOKIE);
  const origin = new URL(c.req.url).origin;
  const forwarded = {
    cookie: cookieHeaderFor(c),
    host: c.req.header('host') ?? new URL(c.req.url).host,
    'accept-language': c.req.header('accept-language') ?? '',
    'user-agent': c.req.header('user-agent') ?? '',
  };
  return {
    site: {
      id: site.id,
      name: site.name,
      defaultCurrency: site.defaultCurrency,
      locales: site.locales,
      isMaintenance: site.isMaintenance,
    },
    account: await c
      .get('services')
      .accounts.infoFor(c.get('identity').uid, { currency: site.defaultCurrency, locale: site.locales[0] ?? 'en' }),
    accountStatus: c.get('identity').accountStatus,
    cookieLocale: isLocale(cookieLocale) ? cookieLocale : undefined,
    isCountryBlocked: isCountryBlocked(site, c.get('identity').country),
    fetchInternal: async (path, init) => {
      const headers = new Headers(init?.headers);
      for (const [name, value] of Object.entries(forwarded)) if (!headers.has(name)) headers.set(name, value);
      headers.set(INTERNAL_REQUEST_HEADER, '1');
      return internalFetch(new Request(new URL(path, origin), { ...init, headers }), c.env);
    },
  };
}

export function createPageHandler(getBuild: () => Promise<ServerBuild>, mode: string, internalFetch: () => InternalFetch) {
  let handler: ReturnType<typeof createRequestHandler> | undefined;
  return async (c: Context<AppEnv>) => {
    const url = new URL(c.req.url);
    if (!url.pathname.endsWith('.data')) {
      const canonical = normalizedPath(url.pathname);
      if (canonical) return c.redirect(`${canonical}${url.search}`, 301);
    }
    // In development the build changes under us, so a fresh handler is made per request.
    const requestHandler =
      mode === 'production'
        ? (handler ??= createRequestHandler(await getBuild(), mode))
        : createRequestHandler(await getBuild(), mode);
    const response = await requestHandler(c.req.raw, (await loadContext(c, internalFetch())) as never);
    // Keep cookies Hono set on the way in (the visitor id) on the page answer.
    const setCookie = c.res.headers.get('set-cookie');
    if (setCookie && !response.headers.has('set-cookie')) {
      const headers = new Headers(response.headers);
      headers.append('set-cookie', setCookie);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
    return response;
  };
}
