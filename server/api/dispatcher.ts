/**
 * /api/{service}.{method}: everything an API call goes through on its way in and out, in one
 * function that knows no HTTP framework. It refuses a hostile address or an oversized body, finds
 * the site and the visitor, hands the call to invokeMethod, and makes the whole answer: status,
 * security headers, cookies and the JSON body, compressed when it is worth it. Errors become HTTP
 * answers here and nowhere else. A player's own reads may be answered from kept-answers.ts, which
 * makes them here the first time; the headers are made per answer either way.
 *
 * Why outside the Hono app (issue 12): the API is the site's hottest traffic (every bet, every
 * balance), and the app's middleware chain, web Request and Response cost an API call about half
 * of its server CPU. Node's server hands /api/ requests straight to this function (web/api-lane.ts);
 * the Hono app routes /api/* here too (http.ts), before its middlewares, for app.request and any
 * request the lane leaves to it, so both give the same answers.
 */
import type { Logger } from 'pino';
import { ApiError } from '#common/errors';
import { invalidParameter } from '#common/parameter-errors';
import type { Services } from '../services';
import { answerHeaderPairs, isTooSmallToCompress } from '../web/answer-headers';
import type { ProxyTrust } from '../web/client-address';
import { compressWhole, negotiateEncoding } from '../web/compression';
import { deviceCookieHeader } from '../web/device-cookie';
import { hostileAddressPart } from '../web/hostile-address';
import { identifyVisitor } from '../web/identity';
import { declaresBodyOver, RequestBodyTooLarge } from '../web/request-body';
import { sessionCookieHeader } from '../web/session-cookie';
import { toApiError } from './envelope';
import { invokeMethod } from './invoke';
import { keptOrMadeAnswer, type MadeAnswer } from './kept-answers';
import { bodilessRequest, readParams, type ParamsRequest } from './params';

export interface ApiOptions {
  services: Services;
  logger: Logger;
  mode: 'development' | 'production' | 'test';
  /** How far X-Forwarded-For and the country header are believed. */
  proxy: ProxyTrust;
  maxBodyBytes: number;
  /** The game aggregator's origin, when one is connected: the policy's frame-src names it. */
  frameOrigins: () => readonly string[];
}

/** An API request as any server received it. */
export interface ApiRequest {
  method: string;
  /** The public address: behind a trusted proxy, with the scheme and host it forwarded. */
  url: URL;
  /** A header by its lower-case name; `host` is the public host. */
  header: (name: Lowercase<string>) => string | undefined;
  /** The socket's peer address. */
  peer: string;
  /** The body's reader, limited to maxBodyBytes; asked for only once the call's checks passed. */
  body: () => ParamsRequest;
}

export interface ApiReply {
  status: number;
  /** Name, value, name, value… with lower-case names and each Set-Cookie in order, as Node writes them. */
  headers: string[];
  /** JSON, or its compressed bytes (content-encoding says which). */
  body: string | Buffer;
}

/** The answer to an API call; never throws: an unexpected failure is the catalogue's UnknownErrorException. */
export async function answerApiCall(request: ApiRequest, options: ApiOptions): Promise<ApiReply> {
  const made = await keptOrMadeAnswer(request, options.services, options.proxy, () => makeAnswer(request, options));
  return reply(request, options, made.status, made.json, made.cookies);
}

/** The call made its whole way: status, the envelope's JSON and the cookies to set. */
async function makeAnswer(request: ApiRequest, options: ApiOptions): Promise<MadeAnswer> {
  const cookies: string[] = [];
  let status: number;
  let envelope: unknown;
  try {
    const answer = await runCall(request, options, cookies);
    ({ status } = answer);
    envelope = answer.body;
  } catch (error) {
    const { apiError, isUnexpected } = toApiError(error);
    if (isUnexpected) options.logger.error({ err: error, path: request.url.pathname }, 'api call failed');
    status = apiError.status;
    envelope = { error: apiError.toBody() };
  }
  return { status, json: JSON.stringify(envelope), cookies };
}

async function runCall(request: ApiRequest, options: ApiOptions, cookies: string[]) {
  const { services, proxy, logger } = options;
  const { url, header } = request;
  // A serialised address writes NUL as %00 and a lone surrogate as an escape: without "%" it holds neither.
  const hostilePart = url.href.includes('%') ? hostileAddressPart(url) : undefined;
  if (hostilePart !== undefined) throw invalidParameter(hostilePart);
  const site = await services.sites.resolveSite(header('host'));
  const isSecure = url.protocol === 'https:';
  const { identity, issuedCookie } = await identifyVisitor(
    { header, peer: request.peer, isSecure: () => isSecure },
    site.id,
    proxy,
    services,
  );
  if (issuedCookie) cookies.push(issuedCookie);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  if (hasBody && declaresBodyOver(header, options.maxBodyBytes)) throw new RequestBodyTooLarge();
  const answer = await invokeMethod(
    { site, identity, services },
    {
      call: methodOf(url.pathname),
      verb: request.method,
      url: url.href,
      header,
      locale: url.searchParams.get('locale'),
      readParams: () => readParams(hasBody ? request.body() : bodilessRequest(request.method), url),
      isCrossSiteChecked: true,
    },
    logger,
  );
  for (const token of answer.sessionWrites) cookies.push(sessionCookieHeader(token, isSecure));
  if (answer.deviceToken) cookies.push(deviceCookieHeader(answer.deviceToken, isSecure));
  return answer;
}

/** The call named by /api/{call}; a deeper path (/api/storage.get/extra) names no method. */
function methodOf(pathname: string): string {
  const segment = pathname.slice('/api/'.length);
  if (segment.includes('/')) throw new ApiError('MethodNotFoundException', 'Method not found');
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

async function reply(
  request: ApiRequest,
  options: ApiOptions,
  status: number,
  json: string,
  cookies: readonly string[],
): Promise<ApiReply> {
  const headers = answerHeaderPairs(options.mode, options.frameOrigins());
  // Whether or not this one is compressed, a shared cache must keep encodings apart (Vary).
  headers.push('cache-control', 'no-store', 'content-type', 'application/json', 'vary', 'Accept-Encoding');
  for (const cookie of cookies) headers.push('set-cookie', cookie);
  if (request.method === 'HEAD' || isTooSmallToCompress(json)) return { status, headers, body: json };
  const encoding = negotiateEncoding(request.header('accept-encoding'));
  if (!encoding) return { status, headers, body: json };
  headers.push('content-encoding', encoding);
  return { status, headers, body: await compressWhole(Buffer.from(json), encoding) };
}
