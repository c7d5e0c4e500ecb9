/**
 * Players for the attack suite: created straight in the database with a real password hash and
 * a session opened by the auth service, so no sign-in rate limit stands between the fuzzer (which
 * hammers auth.login itself) and the players it needs.
 */
import { hashPassword } from '../../server/modules/auth';
import { house, move, player } from '../../server/modules/wallet';
import type { TestApp } from '../api-harness';
import { uniqueEmail } from '../player';

export interface AttackPlayer {
  uid: number;
  login: string;
  password: string;
  /** `sid=…`, for a Cookie header. */
  cookie: string;
}

export const PLAYER_PASSWORD = 'secret12';

/** A signed-in player, with `fundMinor` on the main balance as if deposited. */
export async function sessionPlayer(t: TestApp, fundMinor = 0n): Promise<AttackPlayer> {
  const site = await t.services.sites.resolveSite('127.0.0.1');
  const login = uniqueEmail();
  const user = await t.services.accounts.createUser({
    siteId: site.id,
    login,
    passwordHash: await hashPassword(PLAYER_PASSWORD),
    currency: site.defaultCurrency,
    locale: 'en',
    isSubscribed: false,
  });
  if (!user) throw new Error('could not create the player');
  if (fundMinor > 0n) {
    await t.services.wallet.transfer({
      siteId: site.id,
      userId: user.id,
      kind: 'deposit',
      currency: site.defaultCurrency,
      amountMinor: fundMinor,
      legs: move(house('psp_clearing'), player(user.id, 'main'), fundMinor),
      idempotencyKey: `attack-fund-${user.id}`,
      actor: 'system',
      reason: 'attack suite funding',
    });
  }
  const token = await t.services.auth.signInVerified(user, { ip: '127.0.0.1', userAgent: 'attack-suite' });
  return { uid: user.id, login, password: PLAYER_PASSWORD, cookie: `sid=${token}` };
}
