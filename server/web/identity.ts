/**
 * Who is asking: the visitor cookie (set on first sight) and the signed-in player, if any. Read
 * through a VisitorRequest, so the Hono app and the API's own lane (api-lane.ts) identify alike.
 */
import type { Context } from 'hono';
import { generateCookie } from 'hono/cookie';
import { parse } from 'hono/utils/cookie';
import type { RequestIdentity } from '../api/define';
import type { Services } from '../services';
import { SESSION_COOKIE, sessionTokenOf } from './session-cookie';
import { clientAddress, clientCountry, NO_PROXY, peerAddress, type ProxyTrust } from './client-address';
import { pooledRandomBytes } from './random-pool';
import { requestHeader } from './request-headers';

export const VISITOR_COOKIE = 'vid';
// Browsers cap cookie lifetime at 400 days.
const VISITOR_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;
const VISITOR_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** What identifying a visitor reads of a request, whichever server it came through. */
export interface VisitorRequest {
  /** A header by its lower-case name. */
  header(name: Lowercase<string>): string | undefined;
  /** The socket's peer address. */
  peer: string;
  /** Whether the public address is https: the visitor cookie is then Secure. */
  isSecure(): boolean;
}

/** The visitor request of a Hono request. */
export function visitorRequestOf(c: Context): VisitorRequest {
  return {
    header: (name) => requestHeader(c, name),
    peer: peerAddress(c.env),
    // Asked only when a cookie is issued; a function, not a literal's getter (invoke.ts says why).
    isSecure: () => new URL(c.req.url).protocol === 'https:',
  };
}

/**
 * The visitor id the cookie holds, or a new one with the Set-Cookie value that issues it (the
 * answer must carry it).
 */
function visitorIdOf(request: VisitorRequest, current: string | undefined): { visitorId: string; issuedCookie?: string } {
  if (current && VISITOR_ID.test(current)) return { visitorId: current };
  const visitorId = pooledRandomBytes(16).toString('base64url');
  const issuedCookie = generateCookie(VISITOR_COOKIE, visitorId, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: request.isSecure(),
    maxAge: VISITOR_COOKIE_MAX_AGE_S,
  });
  return { visitorId, issuedCookie };
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

/**
 * Who is asking, with the visitor cookie to issue when the request brought none: the session
 * named by the session cookie (on this site), the address and country as the trusted proxies tell.
 */
export async function identifyVisitor(
  request: VisitorRequest,
  siteId: string,
  trust: ProxyTrust,
  services: Services,
): Promise<{ identity: RequestIdentity; issuedCookie?: string }> {
  // Both cookies from one reading of the header.
  const cookieHeader = request.header('cookie');
  const cookies = cookieHeader ? parse(cookieHeader) : {};
  const token = sessionTokenOf(cookies[SESSION_COOKIE]);
  const session = token ? await services.auth.resolveSession(token, siteId) : undefined;
  const { visitorId, issuedCookie } = visitorIdOf(request, cookies[VISITOR_COOKIE]);
  const identity: RequestIdentity = {
    visitorId,
    uid: session?.user.id ?? 0,
    sessionTokenHash: session?.tokenHash ?? null,
    accountStatus: session?.user.status ?? null,
    sessionUser: session?.user,
    ip: clientAddress(trust, request.peer, request.header('x-forwarded-for')),
    userAgent: request.header('user-agent') ?? '',
    country: clientCountry(trust, request.peer, request.header),
  };
  return { identity, issuedCookie };
}

export async function resolveIdentity(c: Context, trust: ProxyTrust, services: Services): Promise<RequestIdentity> {
  const { identity, issuedCookie } = await identifyVisitor(visitorRequestOf(c), c.get('site').id, trust, services);
  if (issuedCookie) c.header('Set-Cookie', issuedCookie, { append: true });
  return identity;
}
