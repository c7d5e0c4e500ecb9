/**
 * The trusted-device cookie (issue 11): set on a password sign-in, it lets its player past the
 * slowing of their account that someone else's wrong guesses caused. Its value is signed by the
 * auth module; only the API reads it, so its path is /api/, and scripts never see it (HttpOnly).
 */
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { parse } from 'hono/utils/cookie';
import { TRUSTED_DEVICE_TTL_MS } from '../modules/auth';

export const DEVICE_COOKIE = 'did';

export function readDeviceToken(request: Request): string | undefined {
  const header = request.headers.get('cookie');
  return header ? parse(header, DEVICE_COOKIE)[DEVICE_COOKIE] : undefined;
}

export function writeDeviceCookie(c: Context, token: string): void {
  setCookie(c, DEVICE_COOKIE, token, {
    path: '/api/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: Math.floor(TRUSTED_DEVICE_TTL_MS / 1000),
  });
}
