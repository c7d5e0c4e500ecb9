/**
 * /api/{service}.{method}: hands the call to invokeMethod and turns its answer into the HTTP
 * answer (status, envelope, session cookie). Errors become HTTP answers here and nowhere else.
 */
import { Hono, type Context } from 'hono';
import type { Logger } from 'pino';
import { ApiError } from '#common/errors';
import { toApiError } from './envelope';
import { invokeMethod } from './invoke';
import { readParams, webParamsRequest } from './params';
import type { AppEnv } from '../web/app-env';
import { writeSessionCookie } from '../web/session-cookie';
import { writeDeviceCookie } from '../web/device-cookie';
import { jsonAnswer } from '../web/answer-headers';
import { requestHeader } from '../web/request-headers';

const NO_STORE: Readonly<Record<string, string>> = Object.freeze({ 'cache-control': 'no-store' });

function answerError(c: Context, error: unknown, logger: Logger) {
  const { apiError, isUnexpected } = toApiError(error);
  if (isUnexpected) logger.error({ err: error, path: c.req.path }, 'api method failed');
  c.header('Cache-Control', 'no-store');
  return c.json({ error: apiError.toBody() }, apiError.status as 400);
}

export function createApiRoutes(logger: Logger) {
  const api = new Hono<AppEnv>();
  api.all('/:call', async (c) => {
    const url = new URL(c.req.url);
    const answer = await invokeMethod(
      { site: c.get('site'), identity: c.get('identity'), services: c.get('services') },
      {
        call: c.req.param('call'),
        verb: c.req.method,
        request: c.req.raw,
        header: (name) => requestHeader(c, name),
        locale: url.searchParams.get('locale'),
        readParams: () => readParams(c.get('paramsRequest') ?? webParamsRequest(c.req.raw), url),
        isCrossSiteChecked: true,
      },
      logger,
    );
    if (answer.sessionWrites.length === 0 && !answer.deviceToken) {
      // Most calls (every read, every bet) set no cookie: their answer can go out complete.
      return jsonAnswer(c, answer.body, answer.status, NO_STORE);
    }
    for (const token of answer.sessionWrites) writeSessionCookie(c, token);
    if (answer.deviceToken) writeDeviceCookie(c, answer.deviceToken);
    c.header('Cache-Control', 'no-store');
    return c.json(answer.body, answer.status as 200);
  });
  // Anything else under /api (e.g. /api/storage.get/extra) is no method either; without this
  // the page handler would answer it with an HTML page.
  api.all('*', (c) => answerError(c, new ApiError('MethodNotFoundException', 'Method not found'), logger));
  return api;
}
