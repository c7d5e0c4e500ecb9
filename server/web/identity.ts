/**
 * Who is asking: the visitor cookie (set on first sight) and the signed-in player, if any.
 */
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import type { RequestIdentity } from '../api/define';
import type { Services } from '../services';
import { readSessionToken } from './session-cookie';
import { clientAddress, clientCountry, NO_PROXY, peerAddress, type ProxyTrust } from './client-address';
import { pooledRandomBytes } from './random-pool';
import { requestCookie, requestHeader } from './request-headers';

export const VISITOR_COOKIE = 'vid';
// Browsers cap cookie lifetime at 400 days.
const VISITOR_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;

function isSecureRequest(c: Context): boolean {
  return new URL(c.req.url).protocol === 'https:';
}

/** The visitor id from the cookie; a new one is issued (and set on the answer) when missing. */
export function ensureVisitorId(c: Context): string {
  const current = requestCookie(c, VISITOR_COOKIE);
  if (current && /^[A-Za-z0-9_-]{16,64}$/.test(current)) return current;
  const issued = pooledRandomBytes(16).toString('base64url');
  setCookie(c, VISITOR_COOKIE, issued, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: isSecureRequest(c),
    maxAge: VISITOR_COOKIE_MAX_AGE_S,
  });
  return issued;
}

/**
 * Removes a visitor cookie issued on this answer when the answer is publicly cacheable: a shared
 * cache would otherwise hand the same visitor id, and so the same storage, to every browser.
 * The cookie is issued again on the visitor's next private answer.
 */
export function dropVisitorCookieIfPublic(response: Response): void {
  if (!/\bpublic\b/i.test(response.headers.get('cache-control') ?? '')) return;
  const cookies = response.headers.getSetCookie();
  if (!cookies.some((cookie) => cookie.startsWith(`${VISITOR_COOKIE}=`))) return;
  response.headers.delete('set-cookie');
  for (const cookie of cookies) if (!cookie.startsWith(`${VISITOR_COOKIE}=`)) response.headers.append('set-cookie', cookie);
}

/** The client's address: the socket's peer, or what trusted proxies say (client-address.ts). */
export function clientIp(c: Context, trust: ProxyTrust = NO_PROXY): string {
  return clientAddress(trust, peerAddress(c.env), requestHeader(c, 'x-forwarded-for'));
}

/**
 * Routes that a game provider's, a payment provider's or the KYC provider's server calls, never a
 * browser: the provider API and the PSP and KYC webhooks (the sandboxes' pages, such as
 * /psp/sandbox/pay/… and /kyc/sandbox, are pages).
 */
export function isMachineRoute(path: string): boolean {
  return path.startsWith('/provider-api/') || /^\/psp\/[^/]+\/webhook$/.test(path) || path === '/kyc/webhook';
}

/**
 * Who is asking on a machine route: its address and nothing of a visitor. No visitor cookie is
 * issued (a provider's server would only be handed a new one on every call) and no session is
 * looked up: these routes authenticate by their own signatures.
 */
export function machineIdentity(c: Context, trust: ProxyTrust): RequestIdentity {
  return {
    visitorId: '',
    uid: 0,
    sessionTokenHash: null,
    accountStatus: null,
    ip: clientIp(c, trust),
    userAgent: requestHeader(c, 'user-agent') ?? '',
    country: null,
  };
}

export async function resolveIdentity(c: Context, trust: ProxyTrust, services: Services): Promise<RequestIdentity> {
  const token = readSessionToken(c);
  const session = token ? await services.auth.resolveSession(token, c.get('site').id) : undefined;
  return {
    visitorId: ensureVisitorId(c),
    uid: session?.user.id ?? 0,
    sessionTokenHash: session?.tokenHash ?? null,
    accountStatus: session?.user.status ?? null,
    sessionUser: session?.user,
    ip: clientIp(c, trust),
    userAgent: requestHeader(c, 'user-agent') ?? '',
    country: clientCountry(trust, peerAddress(c.env), (name) => requestHeader(c, name)),
  };
}
