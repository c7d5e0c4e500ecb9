/**
 * Everything that is not API, configuration, content or an asset is a page: React Router renders
 * it on the server. Address normalisation happens here (before routing); the locale, redirect
 * table and anonymous access rules run in the root loader so that client-side navigations
 * (`.data` requests) get the same answers as full page loads.
 */
import type { Context } from 'hono';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { getCookie } from 'hono/cookie';
import { normalizedPath, safeRedirectTarget } from '#common/address';
import { isLocale, LOCALE_COOKIE } from '#common/locale';
import type { PageLoadContext } from '#common/load-context';
import type { Logger } from 'pino';
import type { AppEnv } from './app-env';
import { isCountryBlocked, isDemoSite } from '../modules/sites';
import { invokeMethod } from '../api/invoke';
import { readParams, webParamsRequest } from '../api/params';
import { siteConfigAnswer } from './config-service';
import { contentListAnswer } from './content-platform';
import { anonymousPageKey, createAnonymousPageCache } from './page-cache';
import { negotiateEncoding } from './compression';

/** The JSON an HTTP answer would carry: what a loader reads in process is exactly what it read over HTTP. */
function asJson(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * asJson of a cached body (configuration, content lists): the caches hand out the same object until
 * its rows change, so its JSON copy is made once and shared by every render, frozen so that no
 * render can change what the next one reads (issue 12: copying 40 KB of translations per page).
 */
const sharedJsonCopies = new WeakMap<object, unknown>();
function asSharedJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return asJson(value);
  let copy = sharedJsonCopies.get(value);
  if (copy === undefined) {
    copy = deepFreeze(asJson(value));
    sharedJsonCopies.set(value, copy);
  }
  return copy;
}

/** The loaders' view of this request: its site and account, and in-process reads of the API, configuration and content. */
export async function pageLoadContext(
  c: Context<AppEnv>,
  logger: Logger,
  cspNonce: string = c.get('cspNonce'),
): Promise<PageLoadContext> {
  const site = c.get('site');
  const services = c.get('services');
  const identity = c.get('identity');
  const cookieLocale = getCookie(c, LOCALE_COOKIE);
  const origin = new URL(c.req.url).origin;
  const configs = new Map<string, Promise<Record<string, unknown>>>();
  return {
    site: {
      id: site.id,
      name: site.name,
      defaultCurrency: site.defaultCurrency,
      locales: site.locales,
      isMaintenance: site.isMaintenance,
      isDemo: isDemoSite(site),
    },
    account: await services.accounts.infoFor(
      identity.uid,
      { currency: site.defaultCurrency, locale: site.locales[0] ?? 'en' },
      identity.sessionUser,
    ),
    accountStatus: identity.accountStatus,
    cookieLocale: isLocale(cookieLocale) ? cookieLocale : undefined,
    cspNonce,
    isCountryBlocked: isCountryBlocked(site, identity.country),
    callApi: async (path, init) => {
      // The request the browser would have sent, read by the same parameter reader as /api.
      const request = new Request(new URL(path, origin), { method: init.method, body: init.body });
      const url = new URL(request.url);
      const answer = await invokeMethod(
        { site, identity, services },
        {
          call: url.pathname.replace(/^\/api\//, ''),
          verb: init.method,
          url: request.url,
          header: (name) => request.headers.get(name) ?? undefined,
          locale: url.searchParams.get('locale'),
          readParams: () => readParams(webParamsRequest(request), url),
          isCrossSiteChecked: false,
        },
        logger,
      );
      // answer.sessionWrites are not applied: a loader's call never set the visitor's cookies (the
      // internal HTTP answers it replaces were not passed on either).
      return { status: answer.status, body: asJson(answer.body) };
    },
    siteConfig: (locale) => {
      let config = configs.get(locale);
      if (!config) {
        config = siteConfigAnswer(services, site, locale).then((answer) => asSharedJson(answer.body) as Record<string, unknown>);
        configs.set(locale, config);
      }
      return config;
    },
    translations: (locale) => services.content.getVersionedTranslations(site.id, locale),
    readContent: async (collection, query) => {
      const answer = await contentListAnswer(services, site, collection, query);
      return { status: answer.status, body: asSharedJson(answer.body) };
    },
  };
}

/** What the anonymous page cache needs to know of this request (page-cache.ts). */
function anonymousKeyOf(c: Context<AppEnv>, url: URL): string | undefined {
  const identity = c.get('identity');
  const site = c.get('site');
  const services = c.get('services');
  return anonymousPageKey({
    method: c.req.method,
    url,
    isAnonymous: identity.uid === 0 && identity.sessionTokenHash === null && identity.accountStatus === null,
    isCountryBlocked: isCountryBlocked(site, identity.country),
    cookieLocale: getCookie(c, LOCALE_COOKIE),
    acceptLanguage: c.req.header('accept-language'),
    userAgent: c.req.header('user-agent'),
    siteId: site.id,
    dataVersion: `${services.sites.version()}.${services.content.version()}`,
  });
}

export function createPageHandler(getBuild: () => Promise<ServerBuild>, mode: string, logger: Logger) {
  let handler: ReturnType<typeof createRequestHandler> | undefined;
  // Production only: development and tests render every request, so what they check is a fresh render.
  const anonymousPages = mode === 'production' ? createAnonymousPageCache() : undefined;
  return async (c: Context<AppEnv>) => {
    const url = new URL(c.req.url);
    if (!url.pathname.endsWith('.data')) {
      const canonical = normalizedPath(url.pathname);
      // Built from the address, so it goes through the one redirect-target decision too.
      if (canonical) return c.redirect(safeRedirectTarget(`${canonical}${url.search}`), 301);
    }
    // In development the build changes under us, so a fresh handler is made per request.
    const requestHandler =
      mode === 'production'
        ? (handler ??= createRequestHandler(await getBuild(), mode))
        : createRequestHandler(await getBuild(), mode);
    const render = async (nonce: string) => requestHandler(c.req.raw, (await pageLoadContext(c, logger, nonce)) as never);
    const key = anonymousPages && anonymousKeyOf(c, url);
    // A cached page goes out as gzip put together from its parts compressed once, when the client
    // takes gzip (every browser): compressing it per answer cost six times the rest of the answer.
    const encoding = negotiateEncoding(c.req.header('accept-encoding'), ['gzip']) === 'gzip' ? 'gzip' : 'identity';
    const response = key
      ? await anonymousPages.answer(key, c.get('cspNonce'), render, encoding)
      : await render(c.get('cspNonce'));
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
