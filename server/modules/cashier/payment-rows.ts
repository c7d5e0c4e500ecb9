/** The payments table as the cashier's use cases read and write it: statuses, sums, views, locks. */
import { randomBytes } from 'node:crypto';
import { and, eq, gte, inArray, sql, sum } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import { money } from '#common/money';
import type { DepositDetail, WithdrawalView } from '#common/cashier-contract';
import type { Executor } from '../../db/retry';
import type { UserRow } from '../account';
import type { Site } from '../sites';
import { payments } from './tables';

export type PaymentRow = typeof payments.$inferSelect;
export type PaymentStatus = PaymentRow['status'];

export const FINAL_DEPOSIT = new Set(['success', 'fail', 'cancel']);
export const OPEN_WITHDRAWAL = ['pending', 'processing'] as const;
/** Statuses that count against limits: money that left or is on its way. */
export const COUNTED_DEPOSIT = ['new', 'pending', 'success'] as const;
export const COUNTED_WITHDRAWAL = ['pending', 'processing', 'success'] as const;

export const newPaymentId = (prefix: 'dep' | 'wd') => `${prefix}_${randomBytes(12).toString('hex')}`;

export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Serialises one player's limit checks with their writes, on either database. */
export async function lockPlayer(tx: Executor, purpose: string, userId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`${purpose}:${userId}`}))`);
}

export async function sumPayments(
  tx: Executor,
  userId: number,
  direction: 'deposit' | 'withdrawal',
  statuses: readonly string[],
  since: Date,
): Promise<bigint> {
  const [row] = await tx
    .select({ total: sum(payments.amountMinor) })
    .from(payments)
    .where(
      and(
        eq(payments.userId, userId),
        eq(payments.direction, direction),
        inArray(payments.status, statuses as PaymentStatus[]),
        gte(payments.createdAt, since),
      ),
    );
  return BigInt(row?.total ?? 0);
}

export function depositDetail(row: PaymentRow): DepositDetail {
  return {
    id: row.id,
    requisites: row.requisites,
    method: row.method,
    type: row.direction,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    amount: money(row.amountMinor, row.currency),
    status: row.status as DepositDetail['status'],
    domain: row.origin,
    campaign_offer_id: row.campaignOfferId,
  };
}

export function withdrawalView(row: PaymentRow): WithdrawalView {
  return {
    id: row.id,
    method: row.method,
    amount: money(row.amountMinor, row.currency),
    status: row.status as WithdrawalView['status'],
    requisites: row.requisites,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    reason: row.reason,
  };
}

/** A player's own payment, or AccessDeniedException: another player's id and an unknown one look the same. */
export async function ownPayment(
  tx: Executor,
  request: { site: Site; user: UserRow },
  id: string,
  forUpdate = false,
): Promise<PaymentRow> {
  const query = tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), eq(payments.userId, request.user.id), eq(payments.siteId, request.site.id)));
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw new ApiError('AccessDeniedException', 'Access denied');
  return row;
}

export async function setStatus(
  tx: Executor,
  id: string,
  status: PaymentRow['status'],
  extra: Partial<PaymentRow> = {},
): Promise<void> {
  await tx
    .update(payments)
    .set({ status, updatedAt: new Date(), ...extra })
    .where(eq(payments.id, id));
}
