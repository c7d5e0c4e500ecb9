/**
 * The trusted-device cookie (issue 11): set on a password sign-in, it lets its player past the
 * slowing of their account that someone else's wrong guesses caused. Its value is signed by the
 * auth module; only the API reads it, so its path is /api/, and scripts never see it (HttpOnly).
 */
import { generateCookie } from 'hono/cookie';
import { TRUSTED_DEVICE_TTL_MS } from '../modules/auth';
import { cookieValue } from './request-headers';

export const DEVICE_COOKIE = 'did';

/** The trusted-device token from a request's Cookie header. */
export function readDeviceToken(cookieHeader: string | undefined): string | undefined {
  return cookieValue(cookieHeader, DEVICE_COOKIE);
}

/** The Set-Cookie value that sets a trusted-device token. */
export function deviceCookieHeader(token: string, isSecure: boolean): string {
  return generateCookie(DEVICE_COOKIE, token, {
    path: '/api/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: isSecure,
    maxAge: Math.floor(TRUSTED_DEVICE_TTL_MS / 1000),
  });
}
