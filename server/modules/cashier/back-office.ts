/** The operators' side of withdrawals: the review queue, approval (the payout is sent) and decline. */
import { and, eq } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import { inTransaction, type Executor } from '../../db/retry';
import { payments } from './tables';
import { requireProvider, type CashierDeps } from './cashier-deps';
import { setStatus, type PaymentRow, type PaymentStatus } from './payment-rows';
import { releaseWithdrawal } from './withdrawals';

/** Back office: withdrawals by status, oldest first (the review queue). */
export async function listWithdrawals(deps: CashierDeps, status: string, limit = 100) {
  const { db } = deps;
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.direction, 'withdrawal'), eq(payments.status, status as PaymentStatus)))
    .orderBy(payments.createdAt)
    .limit(limit);
}

/** The withdrawal an operator decides on, locked for the decision; only a pending one can be decided. */
async function lockPendingWithdrawal(tx: Executor, id: string): Promise<PaymentRow> {
  const [found] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), eq(payments.direction, 'withdrawal')))
    .for('update');
  if (!found) throw new ApiError('InvalidParameterException', 'No such withdrawal', { field: 'id' });
  if (found.status !== 'pending') throw new ApiError('InvalidRequestException', `The withdrawal is ${found.status}, not pending`);
  return found;
}

/** Back office: approve → the payout is sent to the provider; its notification settles it. */
export async function approveWithdrawal(deps: CashierDeps, operator: string, id: string): Promise<PaymentRow> {
  const { db, wallet } = deps;
  const row = await inTransaction(db, async (tx) => {
    const found = await lockPendingWithdrawal(tx, id);
    await setStatus(tx, id, 'processing');
    await wallet.recordAction(
      {
        stream: 'operators',
        actor: `operator:${operator}`,
        action: 'withdrawal.approve',
        subject: `payment:${id}`,
        reason: 'approved',
        payload: { amountMinor: found.amountMinor, currency: found.currency, userId: found.userId },
      },
      tx,
    );
    return found;
  });
  try {
    const payout = await requireProvider(deps, row.provider).createPayout({
      reference: row.id,
      amountMinor: row.amountMinor,
      currency: row.currency,
      method: row.methodType,
      requisites: row.requisites,
      notificationUrl: `${row.origin}/psp/${row.provider}/webhook`,
      siteId: row.siteId,
    });
    await db.update(payments).set({ providerRef: payout.providerRef, updatedAt: new Date() }).where(eq(payments.id, id));
  } catch {
    await inTransaction(db, async (tx) => {
      const [current] = await tx.select().from(payments).where(eq(payments.id, id)).for('update');
      if (current?.status !== 'processing') return;
      await releaseWithdrawal(deps, tx, current, 'withdrawal-return', 'system', 'payout could not be sent');
      await setStatus(tx, id, 'fail', { reason: 'The payout could not be sent; the amount is back on your balance' });
    });
  }
  const [updated] = await db.select().from(payments).where(eq(payments.id, id));
  return updated as PaymentRow;
}

/** Back office: decline → the reserved amount goes back to the player's main balance. */
export async function declineWithdrawal(deps: CashierDeps, operator: string, id: string, reason: string): Promise<PaymentRow> {
  const { db, wallet } = deps;
  return inTransaction(db, async (tx) => {
    const found = await lockPendingWithdrawal(tx, id);
    await releaseWithdrawal(deps, tx, found, 'withdrawal-decline', `operator:${operator}`, reason);
    await setStatus(tx, id, 'declined', { reason });
    await wallet.recordAction(
      {
        stream: 'operators',
        actor: `operator:${operator}`,
        action: 'withdrawal.decline',
        subject: `payment:${id}`,
        reason,
        payload: { amountMinor: found.amountMinor, currency: found.currency, userId: found.userId },
      },
      tx,
    );
    return { ...found, status: 'declined', reason };
  });
}
