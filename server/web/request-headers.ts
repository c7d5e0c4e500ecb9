/**
 * Request headers read from Node's request where there is one (issue 12). The first
 * `c.req.header()` of a request makes the node-server adapter build the web Headers from all of
 * Node's raw headers (each validated and appended), which for a small API answer cost more than
 * the few headers it reads. Node has them parsed already, names in lower case.
 *
 * Node joins a repeated header as the web Headers do (", "), except Cookie (joined with "; ", as
 * cookies are) and the headers that may appear once (Host, User-Agent…: the first is kept), which
 * is how Node itself read the address the request was routed by. Without Node (app.request in
 * tests), or when withForwardedOrigin rewrote the request's headers, the web request is read.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { parse } from 'hono/utils/cookie';
import { isRewrittenByForwarding } from './forwarded';

function nodeRequestOf(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.headers && !isRewrittenByForwarding(c.req.raw) ? incoming : undefined;
}

/** The header's value; the name in lower case. */
export function requestHeader(c: Context, name: Lowercase<string>): string | undefined {
  const incoming = nodeRequestOf(c);
  return incoming ? nodeHeader(incoming, name) : c.req.header(name);
}

/** A header of Node's request, a repeated one joined as the web Headers join it; the name in lower case. */
export function nodeHeader(incoming: IncomingMessage, name: Lowercase<string>): string | undefined {
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A cookie's value, as hono's getCookie reads it. */
export function requestCookie(c: Context, name: string): string | undefined {
  return cookieValue(requestHeader(c, 'cookie'), name);
}

/** A cookie's value from a Cookie header, as hono's getCookie reads it. */
export function cookieValue(cookieHeader: string | undefined, name: string): string | undefined {
  return cookieHeader ? parse(cookieHeader, name)[name] : undefined;
}
