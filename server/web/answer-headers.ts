/**
 * The headers every answer carries (issue 11): the security headers and the Content-Security-Policy
 * with this answer's nonce.
 *
 * Why one middleware and a "complete answer" (issue 12): setting headers on an answer that a route
 * has already made turns Node's lightweight answer into a web Headers object (validated, sorted,
 * then copied back into Node's headers), and each middleware that looked at the answer's headers
 * did it again. For a small API answer that was a fifth of its server CPU. So the headers are
 * prepared as a plain record before the route runs, and a route that knows its answer needs no more
 * work (no cookie to set, too small to compress) sends them with its own in one go
 * (`answerComplete`); the middlewares leave such an answer alone. Every other answer gets the same
 * headers set after the route, as before.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './app-env';
import { MIN_COMPRESSED_BYTES } from './compression';
import { contentSecurityPolicy, newCspNonce } from './csp';

/**
 * What hono's secureHeaders middleware sends with crossOriginEmbedderPolicy and
 * crossOriginResourcePolicy off, frames from the same origin only and a strict-origin referrer
 * policy (answer-headers.test.ts compares the two).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'strict-transport-security': 'max-age=15552000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});

/** Development only reports violations: Vite's dev client injects scripts of its own that carry no nonce. */
function policyHeaderName(mode: 'development' | 'production' | 'test'): string {
  return mode === 'development' ? 'content-security-policy-report-only' : 'content-security-policy';
}

/**
 * Gives the request its nonce (pages and the server-made pages read it with c.get('cspNonce')) and
 * its answer headers; after the route, puts them on an answer that is not complete: the security
 * headers always (as secureHeaders did), the policy unless the answer set its own.
 */
export function answerHeaders(
  mode: 'development' | 'production' | 'test',
  frameOrigins: () => readonly string[] = () => [],
): MiddlewareHandler<AppEnv> {
  const policyHeader = policyHeaderName(mode);
  return async (c, next) => {
    const nonce = newCspNonce();
    c.set('cspNonce', nonce);
    const policy = contentSecurityPolicy(nonce, mode, frameOrigins());
    c.set('answerHeaders', { ...SECURITY_HEADERS, [policyHeader]: policy });
    noteHeadersSetBeforeTheAnswer(c);
    await next();
    if (c.get('isAnswerComplete')) return;
    const headers = c.res.headers;
    for (const name in SECURITY_HEADERS) headers.set(name, SECURITY_HEADERS[name] as string);
    headers.delete('x-powered-by');
    if (!headers.has(policyHeader)) headers.set(policyHeader, policy);
  };
}

const SECURITY_HEADER_PAIRS: readonly string[] = Object.entries(SECURITY_HEADERS).flat();

/**
 * The security headers and a policy with a fresh nonce as name, value, name, value…, the list Node
 * writes as it is: for an answer made outside the Hono app's middlewares (the API's answers,
 * api/dispatcher.ts), which carries the same. A new list the caller may add to.
 */
export function answerHeaderPairs(mode: 'development' | 'production' | 'test', frameOrigins: readonly string[]): string[] {
  return [...SECURITY_HEADER_PAIRS, policyHeaderName(mode), contentSecurityPolicy(newCspNonce(), mode, frameOrigins)];
}

/**
 * A header set through Hono before the answer is made (the visitor cookie, any route's c.header)
 * waits in Hono's prepared headers, which only Hono's own answer builders carry over: any such
 * header marks the request, so its answer is never sent complete without it.
 */
function noteHeadersSetBeforeTheAnswer(c: Context<AppEnv>): void {
  const setHeader = c.header;
  c.header = ((...args: Parameters<typeof setHeader>) => {
    c.set('hasPreparedHeaders', true);
    return setHeader(...args);
  }) as typeof setHeader;
}

/** Whether this request's answer can be sent complete: its headers are prepared and none waits in Hono's. */
function canAnswerComplete(c: Context<AppEnv>): boolean {
  return c.get('answerHeaders') !== undefined && !c.get('hasPreparedHeaders');
}

/**
 * The answer with the prepared headers and the route's own, in one plain record that Node writes
 * as it is. Only after canAnswerComplete; the route's headers win over the prepared ones.
 */
function answerComplete(c: Context<AppEnv>, body: string, status: number, own: Record<string, string>): Response {
  c.set('isAnswerComplete', true);
  return new Response(body, { status, headers: { ...c.get('answerHeaders'), ...own } });
}

/** Compression leaves such a body as it is (it only marks Vary): a complete answer can skip it. */
export function isTooSmallToCompress(body: string): boolean {
  // Fewer characters than the limit's bytes / 3 cannot reach it in UTF-8; otherwise count the bytes.
  return body.length * 3 < MIN_COMPRESSED_BYTES || Buffer.byteLength(body) < MIN_COMPRESSED_BYTES;
}

/**
 * A JSON answer, as c.json makes it plus `own` headers (lower-case names): complete when it can be
 * (canAnswerComplete) and is too small to compress, so with the Vary compression would have added;
 * otherwise through Hono, for the middlewares to finish. A route that sets a cookie must set it
 * before and answer through Hono itself: the cookie waits in Hono's prepared headers.
 */
export function jsonAnswer(c: Context<AppEnv>, value: unknown, status: number, own: Record<string, string> = {}): Response {
  const body = JSON.stringify(value);
  if (canAnswerComplete(c) && isTooSmallToCompress(body)) {
    return answerComplete(c, body, status, { 'content-type': 'application/json', vary: 'Accept-Encoding', ...own });
  }
  for (const [name, header] of Object.entries(own)) c.header(name, header);
  return c.body(body, status as ContentfulStatusCode, { 'Content-Type': 'application/json' });
}
