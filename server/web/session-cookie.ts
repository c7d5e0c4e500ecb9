/** The session cookie: HttpOnly, SameSite=Lax, Secure behind HTTPS (architecture §4). */
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { SESSION_TTL_MS } from '../modules/auth';
import { requestCookie } from './request-headers';

export const SESSION_COOKIE = 'sid';

export function readSessionToken(c: Context): string | undefined {
  const token = requestCookie(c, SESSION_COOKIE);
  return token && /^[A-Za-z0-9_-]{20,128}$/.test(token) ? token : undefined;
}

export function writeSessionCookie(c: Context, token: string | null): void {
  const secure = new URL(c.req.url).protocol === 'https:';
  if (token === null) {
    deleteCookie(c, SESSION_COOKIE, { path: '/', secure });
    return;
  }
  setCookie(c, SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure,
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}
