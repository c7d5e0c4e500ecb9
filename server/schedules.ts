/**
 * Periodic work, queued as jobs so that with several processes each period's job is created
 * once (the dedupe key names the period) and run by whichever worker claims it.
 */
import type { Services } from './services';

/** How often open payments are reconciled with their provider. */
export const RECONCILE_EVERY_MS = 5 * 60_000;
/** How often mines and blackjack rounds left open too long are settled (stateful.ts). */
export const SETTLE_ABANDONED_EVERY_MS = 5 * 60_000;
/** How often wagers are turned into loyalty points (loyalty/service.ts). */
export const LOYALTY_ACCRUE_EVERY_MS = 60_000;
/** How often completed cashback periods are queued and unpaid cashbacks expired (cashbacks/service.ts). */
export const CASHBACKS_EVERY_MS = 15 * 60_000;

/** How often bonuses past their claim or wagering window are expired (bonuses/service.ts). */
export const BONUS_EXPIRE_EVERY_MS = 60_000;

/** How often the feed's message log is pruned of what its retention window lets go (sportsbook/store/prune.ts). */
export const FEED_PRUNE_EVERY_MS = 60 * 60_000;

/** The periodic jobs: kind, period, and what the warning says when one cannot be queued. */
const SCHEDULES = [
  { kind: 'cashier.reconcile', everyMs: RECONCILE_EVERY_MS, what: 'reconciliation' },
  { kind: 'games.settleAbandoned', everyMs: SETTLE_ABANDONED_EVERY_MS, what: 'the settlement of abandoned rounds' },
  { kind: 'loyalty.accrue', everyMs: LOYALTY_ACCRUE_EVERY_MS, what: 'the loyalty accrual' },
  { kind: 'bonuses.expire', everyMs: BONUS_EXPIRE_EVERY_MS, what: 'the expiry of bonuses' },
  { kind: 'cashbacks.computeDue', everyMs: CASHBACKS_EVERY_MS, what: 'the cashback periods' },
  { kind: 'sportsbook.pruneFeedMessages', everyMs: FEED_PRUNE_EVERY_MS, what: 'the pruning of the odds feed log' },
] as const;

export function startSchedules(services: Services, logger: { warn(object: object, message: string): void }): () => void {
  const timers = SCHEDULES.map(({ kind, everyMs, what }) => {
    const enqueue = () => {
      const period = Math.floor(Date.now() / everyMs);
      services.jobs
        .enqueue(kind, {}, { key: `${kind}:${period}`, maxAttempts: 3 })
        .catch((error: unknown) => logger.warn({ err: error }, `could not schedule ${what}`));
    };
    enqueue();
    const timer = setInterval(enqueue, everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach((timer) => clearInterval(timer));
}
