/**
 * What keeps password guessing slow without handing an attacker the owner's account (issue 11).
 *
 * Every attempt is counted on the address it comes from and on the account it names, before the
 * password is checked, so parallel attempts are all counted. Past a few free attempts each one
 * waits longer (rate-limit's progressive slowing), answered TooManyRequestsException with the
 * seconds to wait. The owner still gets in while the account is slowed: from a device they signed in
 * on before (a signed cookie), or with the right password and a valid second factor.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SlowingPolicy } from '../rate-limit';

const MINUTE_MS = 60_000;

type Slowing = Omit<SlowingPolicy, 'key'>;

/** An account: five free attempts, then 1 s, 2 s, 4 s … up to 15 minutes between attempts. */
export const ACCOUNT_SLOWING: Slowing = { free: 5, baseMs: 1000, maxMs: 15 * MINUTE_MS, resetMs: 24 * 60 * MINUTE_MS };
/** An address: more free attempts (players behind one NAT share it), then the same growth. */
export const ADDRESS_SLOWING: Slowing = { free: 30, baseMs: 1000, maxMs: 15 * MINUTE_MS, resetMs: 24 * 60 * MINUTE_MS };

export function signInSlowing(siteId: string, login: string, ip: string): { account: SlowingPolicy; address: SlowingPolicy } {
  return {
    account: { key: `sign-in:account:${siteId}:${login}`, ...ACCOUNT_SLOWING },
    address: { key: `sign-in:ip:${ip}`, ...ADDRESS_SLOWING },
  };
}

/** How long a device stays known after a sign-in on it (the cookie's lifetime too). */
export const TRUSTED_DEVICE_TTL_MS = 180 * 24 * 60 * MINUTE_MS;

function deviceMac(key: string, siteId: string, userId: number, issuedAtS: number): string {
  return createHmac('sha256', key).update(`trusted-device:${siteId}:${userId}:${issuedAtS}`).digest('base64url');
}

/** The device cookie's value: the player, when it was issued, and the server's signature of both. */
export function signDeviceToken(key: string, siteId: string, userId: number, now = Date.now()): string {
  const issuedAtS = Math.floor(now / 1000);
  return `${userId}.${issuedAtS}.${deviceMac(key, siteId, userId, issuedAtS)}`;
}

/** Whether a device cookie was issued by this server to this player of this site, and is not too old. */
export function isDeviceTokenOf(
  key: string,
  token: string | undefined,
  siteId: string,
  userId: number,
  now = Date.now(),
): boolean {
  const match = /^(\d{1,15})\.(\d{1,12})\.([\w-]{43})$/.exec(token ?? '');
  if (!match || Number(match[1]) !== userId) return false;
  const issuedAtS = Number(match[2]);
  if (issuedAtS * 1000 > now || now - issuedAtS * 1000 > TRUSTED_DEVICE_TTL_MS) return false;
  const expected = Buffer.from(deviceMac(key, siteId, userId, issuedAtS));
  const given = Buffer.from(match[3] ?? '');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
