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
import type { InProcessAnswer, PageLoadContext } from '#common/load-context';
import type { AccountInfo } from '#common/api-contract';
import type { Logger } from 'pino';
import type { AppEnv } from './app-env';
import { isCountryBlocked, isDemoSite } from '../modules/sites';
import { invokeMethod } from '../api/invoke';
import { bodilessRequest, readParams, webParamsRequest } from '../api/params';
import { siteConfigAnswer } from './config-service';
import { contentListAnswer } from './content-platform';
import {
  anonymousPageKey,
  createAnonymousPageCache,
  signedInPageKey,
  type AnonymousRequestFacts,
  type CachedEncoding,
} from './page-cache';
import { CallRecord, createPlayerPageCache, type PlayerPageCache } from './player-pages';
import type { RequestIdentity } from '../api/define';
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
  const identity = c.get('identity');
  return loadContext(c, logger, cspNonce, { identity, account: await accountOf(c), accountStatus: identity.accountStatus });
}

/** The request's account as the page shows it (a visitor's for an anonymous request). */
function accountOf(c: Context<AppEnv>): Promise<AccountInfo> {
  const site = c.get('site');
  const identity = c.get('identity');
  return c
    .get('services')
    .accounts.infoFor(identity.uid, { currency: site.defaultCurrency, locale: site.locales[0] ?? 'en' }, identity.sessionUser);
}

/** Who a render is for: the request's own player, or a made-up one (player-pages.ts). */
interface Reader {
  identity: RequestIdentity;
  account: AccountInfo;
  accountStatus: PageLoadContext['accountStatus'];
  /** Notes every call the render makes. */
  calls?: CallRecord;
  /** A made-up player's answers to the page's player calls, by address. */
  playerAnswers?: Record<string, InProcessAnswer>;
}

/** A product-API call in process, as `identity` would make it: the request the browser would have sent, read by the same parameter reader as /api. */
function callApiAs(c: Context<AppEnv>, logger: Logger, identity: RequestIdentity): PageLoadContext['callApi'] {
  const site = c.get('site');
  const services = c.get('services');
  const origin = new URL(c.req.url).origin;
  return async (path, init) => {
    const url = new URL(path, origin);
    // A web Request only for a body to read (a POST): a GET has no body and no header to read.
    const request = init.method === 'GET' ? undefined : new Request(url, { method: init.method, body: init.body });
    const answer = await invokeMethod(
      { site, identity, services },
      {
        call: url.pathname.replace(/^\/api\//, ''),
        verb: init.method,
        url: url.href,
        header: (name) => request?.headers.get(name) ?? undefined,
        locale: url.searchParams.get('locale'),
        readParams: () => readParams(request ? webParamsRequest(request) : bodilessRequest(init.method), url),
        isCrossSiteChecked: false,
      },
      logger,
    );
    // answer.sessionWrites are not applied: a loader's call never set the visitor's cookies (the
    // internal HTTP answers it replaces were not passed on either).
    return { status: answer.status, body: asJson(answer.body) };
  };
}

function loadContext(c: Context<AppEnv>, logger: Logger, cspNonce: string, reader: Reader): PageLoadContext {
  const site = c.get('site');
  const services = c.get('services');
  const cookieLocale = getCookie(c, LOCALE_COOKIE);
  const configs = new Map<string, Promise<Record<string, unknown>>>();
  const callApi = callApiAs(c, logger, reader.identity);
  return {
    site: {
      id: site.id,
      name: site.name,
      defaultCurrency: site.defaultCurrency,
      locales: site.locales,
      isMaintenance: site.isMaintenance,
      isDemo: isDemoSite(site),
    },
    account: reader.account,
    accountStatus: reader.accountStatus,
    cookieLocale: isLocale(cookieLocale) ? cookieLocale : undefined,
    cspNonce,
    isCountryBlocked: isCountryBlocked(site, reader.identity.country),
    callApi: async (path, init) => {
      const kind = reader.calls?.note(path, init.method);
      const made = kind === 'player' ? reader.playerAnswers?.[path] : undefined;
      return made ? (asJson(made) as InProcessAnswer) : callApi(path, init);
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

/**
 * What a made-up player's render reads of the request: its address and what the page key holds
 * (the locale cookie, the browser's languages, whether it is a crawler). No session, no other cookie.
 */
function madeUpRequest(c: Context<AppEnv>): Request {
  const headers = new Headers();
  for (const name of ['accept-language', 'user-agent']) {
    const value = c.req.header(name);
    if (value !== undefined) headers.set(name, value);
  }
  const cookieLocale = getCookie(c, LOCALE_COOKIE);
  if (cookieLocale !== undefined) headers.set('cookie', `${LOCALE_COOKIE}=${encodeURIComponent(cookieLocale)}`);
  return new Request(c.req.url, { headers });
}

/** A visitor's identity of the same browser details: what a made-up render's calls run as. */
function visitorOf(identity: RequestIdentity): RequestIdentity {
  return { ...identity, visitorId: 'shared-render', uid: 0, sessionTokenHash: null, accountStatus: null, sessionUser: undefined };
}

/** What the page caches need to know of this request (page-cache.ts). */
function requestFactsOf(c: Context<AppEnv>, url: URL): AnonymousRequestFacts {
  const identity = c.get('identity');
  const site = c.get('site');
  const services = c.get('services');
  return {
    method: c.req.method,
    url,
    isAnonymous: identity.uid === 0 && identity.sessionTokenHash === null && identity.accountStatus === null,
    isCountryBlocked: isCountryBlocked(site, identity.country),
    cookieLocale: getCookie(c, LOCALE_COOKIE),
    acceptLanguage: c.req.header('accept-language'),
    userAgent: c.req.header('user-agent'),
    siteId: site.id,
    dataVersion: `${services.sites.version()}.${services.content.version()}`,
  };
}

/** A signed-in player's page through the shared render (player-pages.ts). */
async function answerPlayerPage(
  c: Context<AppEnv>,
  logger: Logger,
  cache: PlayerPageCache,
  pageKey: string,
  handle: (request: Request, context: PageLoadContext) => Promise<Response>,
  encoding: CachedEncoding,
): Promise<Response> {
  const identity = c.get('identity');
  const account = await accountOf(c);
  const ownReader = { identity, account, accountStatus: identity.accountStatus };
  const readPlayerCall = callApiAs(c, logger, identity);
  return cache.answer({
    pageKey,
    nonce: c.get('cspNonce'),
    encoding,
    account,
    renderOwn: async (nonce) => {
      const calls = new CallRecord();
      const response = await handle(c.req.raw, loadContext(c, logger, nonce, { ...ownReader, calls }));
      return { response, calls };
    },
    readPlayerCall: (path) => readPlayerCall(path, { method: 'GET' }),
    renderFor: async (view, nonce) => {
      const calls = new CallRecord();
      const reader: Reader = {
        identity: visitorOf(identity),
        account: view.account,
        accountStatus: 'active',
        calls,
        playerAnswers: view.calls,
      };
      const response = await handle(madeUpRequest(c), loadContext(c, logger, nonce, reader));
      return { response, calls };
    },
  });
}

export function createPageHandler(getBuild: () => Promise<ServerBuild>, mode: string, logger: Logger) {
  let handler: ReturnType<typeof createRequestHandler> | undefined;
  // Production only: development and tests render every request, so what they check is a fresh render.
  const anonymousPages = mode === 'production' ? createAnonymousPageCache() : undefined;
  const playerPages =
    mode === 'production'
      ? createPlayerPageCache({
          onRefused: (pageKey, reason) => logger.info({ pageKey, reason }, 'a signed-in page is rendered per player'),
        })
      : undefined;
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
    // The caches' keys (production only): what the render reads of the request.
    const facts = anonymousPages && requestFactsOf(c, url);
    const key = facts && anonymousPageKey(facts);
    // A banned or deleted player's session gets the blocked page: its own render, never a shared one.
    const playerKey = facts && c.get('identity').accountStatus === 'active' ? signedInPageKey(facts) : undefined;
    // A cached page goes out as gzip put together from its parts compressed once, when the client
    // takes gzip (every browser): compressing it per answer cost six times the rest of the answer.
    const encoding = negotiateEncoding(c.req.header('accept-encoding'), ['gzip']) === 'gzip' ? 'gzip' : 'identity';
    const response =
      key && anonymousPages
        ? await anonymousPages.answer(key, c.get('cspNonce'), render, encoding)
        : playerKey && playerPages
          ? await answerPlayerPage(
              c,
              logger,
              playerPages,
              playerKey,
              (request, context) => requestHandler(request, context as never),
              encoding,
            )
          : await render(c.get('cspNonce'));
    // Keep cookies Hono set on the way in (the visitor id) on the page answer. Only when one was set:
    // reading c.res makes Hono's context hold an answer, and Hono then rebuilds the page's answer as
    // an undici Response when it is returned (a copy of the page, a stream to read it back; 14 % of a
    // shared answer's CPU).
    if (!c.get('hasPreparedHeaders')) return response;
    const setCookie = c.res.headers.get('set-cookie');
    if (setCookie && !response.headers.has('set-cookie')) {
      const headers = new Headers(response.headers);
      headers.append('set-cookie', setCookie);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
    return response;
  };
}
