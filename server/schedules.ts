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

export function startSchedules(services: Services, logger: { warn(object: object, message: string): void }): () => void {
  const enqueueReconcile = () => {
    const period = Math.floor(Date.now() / RECONCILE_EVERY_MS);
    services.jobs.enqueue('cashier.reconcile', {}, { key: `cashier.reconcile:${period}`, maxAttempts: 3 }).catch((error: unknown) => logger.warn({ err: error }, 'could not schedule reconciliation'));
  };
  enqueueReconcile();
  const timer = setInterval(enqueueReconcile, RECONCILE_EVERY_MS);
  timer.unref();
  const enqueueSettleAbandoned = () => {
    const period = Math.floor(Date.now() / SETTLE_ABANDONED_EVERY_MS);
    services.jobs.enqueue('games.settleAbandoned', {}, { key: `games.settleAbandoned:${period}`, maxAttempts: 3 }).catch((error: unknown) => logger.warn({ err: error }, 'could not schedule the settlement of abandoned rounds'));
  };
  enqueueSettleAbandoned();
  const settleTimer = setInterval(enqueueSettleAbandoned, SETTLE_ABANDONED_EVERY_MS);
  settleTimer.unref();
  const enqueueLoyaltyAccrual = () => {
    const period = Math.floor(Date.now() / LOYALTY_ACCRUE_EVERY_MS);
    services.jobs.enqueue('loyalty.accrue', {}, { key: `loyalty.accrue:${period}`, maxAttempts: 3 }).catch((error: unknown) => logger.warn({ err: error }, 'could not schedule the loyalty accrual'));
  };
  enqueueLoyaltyAccrual();
  const loyaltyTimer = setInterval(enqueueLoyaltyAccrual, LOYALTY_ACCRUE_EVERY_MS);
  loyaltyTimer.unref();
  return () => {
    clearInterval(timer);
    clearInterval(settleTimer);
    clearInterval(loyaltyTimer);
  };
}
