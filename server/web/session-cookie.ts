/** The session cookie: HttpOnly, SameSite=Lax, Secure behind HTTPS (architecture §4). */
import type { Context } from 'hono';
import { generateCookie } from 'hono/cookie';
import { SESSION_TTL_MS } from '../modules/auth';

export const SESSION_COOKIE = 'sid';

const SESSION_TOKEN = /^[A-Za-z0-9_-]{20,128}$/;

/** A session token as the cookie may carry one; anything else is no session. */
export function sessionTokenOf(cookieValue: string | undefined): string | undefined {
  return cookieValue && SESSION_TOKEN.test(cookieValue) ? cookieValue : undefined;
}

/** The Set-Cookie value that sets the session (a token) or clears it (null). */
export function sessionCookieHeader(token: string | null, isSecure: boolean): string {
  if (token === null) return generateCookie(SESSION_COOKIE, '', { path: '/', secure: isSecure, maxAge: 0 });
  return generateCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: isSecure,
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}

export function writeSessionCookie(c: Context, token: string | null): void {
  c.header('Set-Cookie', sessionCookieHeader(token, new URL(c.req.url).protocol === 'https:'), { append: true });
}
