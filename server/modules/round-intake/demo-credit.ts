/** The fun balance demo play stakes from: topped up when it cannot cover a stake, once a day across every game. */
import type { Executor } from '../../db/retry';
import { house, IdempotencyConflictError, move, player, type WalletService } from '../wallet';

/** What a demo player's fun balance is topped up to, once a day, when it cannot cover a stake. */
export const DEMO_CREDIT_MINOR = 100_000n;

/** Tops the fun balance up to DEMO_CREDIT_MINOR for a stake it cannot cover; `now` picks the day (live tables pass their clock). */
export async function grantDemoCredit(
  wallet: WalletService,
  tx: Executor,
  who: { siteId: string; uid: number },
  currency: string,
  stakeMinor: bigint,
  now = new Date(),
): Promise<void> {
  const fun = (await wallet.balances(who.siteId, who.uid, currency, tx)).fun;
  if (fun >= stakeMinor || fun >= DEMO_CREDIT_MINOR) return;
  const day = now.toISOString().slice(0, 10);
  try {
    await wallet.transfer(
      {
        siteId: who.siteId,
        userId: who.uid,
        kind: 'demo_credit',
        currency,
        amountMinor: DEMO_CREDIT_MINOR - fun,
        legs: move(house('fun_issuer', who.uid), player(who.uid, 'fun'), DEMO_CREDIT_MINOR - fun),
        idempotencyKey: `demo-credit:${who.siteId}:${who.uid}:${currency}:${day}`,
        actor: 'system',
        reason: 'demo credit',
      },
      tx,
    );
  } catch (error) {
    // Granted already today (for another amount): the stake then finds the balance short.
    if (!(error instanceof IdempotencyConflictError)) throw error;
  }
}
