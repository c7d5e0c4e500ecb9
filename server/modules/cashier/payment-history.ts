/** What the cashier shows of past payments: the history tabs, one payment. */
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { money } from '#common/money';
import type { HistoryPage, HistoryTab } from '#common/cashier-contract';
import type { UserRow } from '../account';
import type { Site } from '../sites';
import { payments } from './tables';
import type { CashierDeps } from './cashier-deps';
import type { PaymentStatus } from './payment-rows';

/** The player's history tab: deposits or withdrawals, or bonus and cashback transfers from the ledger. */
export async function paymentHistory(
  deps: CashierDeps,
  request: { site: Site; user: UserRow },
  tab: HistoryTab,
  offset: number,
  countPerPage: number,
  statuses: string[],
): Promise<HistoryPage> {
  const { db, wallet } = deps;
  if (tab === 'bonuses' || tab === 'cashbacks') {
    const { rows, total } = await wallet.history(
      request.site.id,
      request.user.id,
      tab === 'bonuses' ? 'bonus' : 'cashback',
      offset,
      countPerPage,
    );
    return {
      total,
      items: rows.map((row) => ({
        id: `t${row.id}`,
        type: tab,
        method: null,
        amount: money(row.amountMinor, row.currency),
        status: 'success',
        created_at: row.createdAt.toISOString(),
        description: row.reason,
        kind: row.kind,
      })),
    };
  }
  const direction = tab === 'deposit' ? 'deposit' : 'withdrawal';
  const where = and(
    eq(payments.userId, request.user.id),
    eq(payments.siteId, request.site.id),
    eq(payments.direction, direction),
    statuses.length ? inArray(payments.status, statuses as PaymentStatus[]) : undefined,
  );
  const rows = await db
    .select()
    .from(payments)
    .where(where)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .offset(offset)
    .limit(countPerPage);
  const [total] = await db.select({ n: count() }).from(payments).where(where);
  return {
    total: total?.n ?? 0,
    items: rows.map((row) => ({
      id: row.id,
      type: tab,
      method: row.method,
      amount: money(row.amountMinor, row.currency),
      status: row.status,
      created_at: row.createdAt.toISOString(),
      description: row.reason ?? '',
      kind: null,
    })),
  };
}

/** A payment by id, whoever it belongs to (back office, tests). */
export function findPayment(deps: CashierDeps, id: string) {
  const { db } = deps;
  return db
    .select()
    .from(payments)
    .where(eq(payments.id, id))
    .then((rows) => rows[0]);
}
