/**
 * /api/{service}.{method}: finds the method, checks verb, origin, maintenance and session,
 * validates the parameters and answers with the envelope. Errors become HTTP answers here and
 * nowhere else.
 */
import { Hono, type Context } from 'hono';
import type { Logger } from 'pino';
import { ApiError } from '#common/errors';
import { isLocale, type Locale } from '#common/locale';
import { METHOD_REGISTRY } from './registry';
import { methodKey, type ApiContext, type HttpVerb } from './define';
import { dataBody, toApiError } from './envelope';
import { readParams } from './params';
import { isSameOriginRequest, isStateChanging } from '../web/same-origin';
import type { AppEnv } from '../web/app-env';
import { isCountryBlocked } from '../modules/sites/service';
import { writeSessionCookie } from '../web/session-cookie';

function answerError(c: Context, error: unknown, logger: Logger) {
  const { apiError, isUnexpected } = toApiError(error);
  if (isUnexpected) logger.error({ err: error, path: c.req.path }, 'api method failed');
  c.header('Cache-Control', 'no-store');
  return c.json({ error: apiError.toBody() }, apiError.status as 400);
}

function requestLocale(url: URL, fallback: Locale): Locale {
  const value = url.searchParams.get('locale');
  if (value === null || value === '') return fallback;
  if (!isLocale(value)) throw new ApiError('InvalidParameterException', 'Unknown locale', { field: 'locale' });
  return value;
}

export function createApiRoutes(logger: Logger) {
  const api = new Hono<AppEnv>();
  api.all('/:call', async (c) => {
    try {
      // Split at the first dot only: `storage.get.extra` names no method (split('.', 2) would
      // have dropped `.extra` and answered as storage.get).
      const call = c.req.param('call');
      const dot = call.indexOf('.');
      const service = dot < 0 ? call : call.slice(0, dot);
      const name = dot < 0 ? '' : call.slice(dot + 1);
      const method = METHOD_REGISTRY.get(methodKey(service, name));
      if (!service || !name || !method) {
        throw new ApiError('MethodNotFoundException', `Method ${call} not found`);
      }
      const verb = c.req.method.toUpperCase() === 'HEAD' ? 'GET' : (c.req.method.toUpperCase() as HttpVerb);
      if (!method.verbs.includes(verb)) {
        throw new ApiError('InvalidRequestException', `Use ${method.verbs.join(' or ')} for this method`);
      }
      if (isStateChanging(c.req.method) && !isSameOriginRequest(c.req.raw)) {
        throw new ApiError('AccessDeniedException', 'Cross-site request refused');
      }
      const site = c.get('site');
      if (site.isMaintenance && !method.isAvailableWhenClosed) {
        throw new ApiError('ApplicationDisabledException', 'The site is under maintenance');
      }
      const identity = c.get('identity');
      if (identity.accountStatus === 'banned' || identity.accountStatus === 'deleted') {
        // A banned or deleted player is signed out on the spot (spec §6: user blocked page).
        if (identity.sessionTokenHash) await c.get('services').auth.revokeSession(identity.sessionTokenHash);
        writeSessionCookie(c, null);
        if (!method.isAvailableWhenClosed) {
          throw identity.accountStatus === 'banned'
            ? new ApiError('UserBannedException', 'This account is blocked')
            : new ApiError('UserDeletedException', 'This account has been deleted');
        }
      }
      if (isCountryBlocked(site, identity.country) && !method.isAvailableWhenClosed) {
        throw new ApiError('AccessDeniedException', 'The site is not available in your country');
      }
      if (method.requiresUser && identity.uid <= 0) {
        throw new ApiError('AuthorizationException', 'Sign in to continue');
      }
      const url = new URL(c.req.url);
      let sessionChange: { token: string | null } | undefined;
      const ctx: ApiContext = {
        setSession: (token) => {
          sessionChange = { token };
        },
        ...identity,
        site,
        locale: requestLocale(url, site.locales[0] ?? 'en'),
        services: c.get('services'),
        request: c.req.raw,
      };
      const params = method.params.parse(await readParams(c.req.raw, url));
      const result = await method.handler(ctx, params);
      if (sessionChange) writeSessionCookie(c, sessionChange.token);
      c.header('Cache-Control', 'no-store');
      return c.json(dataBody(result));
    } catch (error) {
      return answerError(c, error, logger);
    }
  });
  // Anything else under /api (e.g. /api/storage.get/extra) is no method either; without this
  // the page handler would answer it with an HTML page.
  api.all('*', (c) => answerError(c, new ApiError('MethodNotFoundException', 'Method not found'), logger));
  return api;
}
