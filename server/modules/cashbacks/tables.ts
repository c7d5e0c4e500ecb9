/**
 * Cashbacks (issue 13; spec §3 Cashback: id, status active or paid_out, description,
 * receiving_expired_at, paid_out_at, end_date): one row per player, currency and period in which
 * the player lost real money, created by the period's job. No money moves when it is created;
 * its payout is one ledger transfer (or one bonus grant) keyed by the cashback's id.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../account/tables';

/**
 * active: can be paid until receiving_expired_at; paid_out: paid; expired: its window closed
 * unpaid; removed: the player dismissed it (cashbacks.remove). Only active and paid_out are the
 * spec's; the other two are where an unpaid cashback ends.
 */
export const CASHBACK_STATUSES = ['active', 'paid_out', 'expired', 'removed'] as const;
export type CashbackStatus = (typeof CASHBACK_STATUSES)[number];

/** How a cashback is paid, copied from the site's settings when it is created. */
export type CashbackPayout = { kind: 'main' } | { kind: 'bonus'; templateId: string };

export const cashbacks = pgTable(
  'cashbacks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    status: text('status').$type<CashbackStatus>().notNull(),
    period: text('period').$type<'daily' | 'weekly'>().notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    /** The period's end (exclusive): the spec's end_date. */
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    /** Real-money stakes minus real-money returns over the period. */
    netLossMinor: bigint('net_loss_minor', { mode: 'bigint' }).notNull(),
    /** Percent of the loss paid back, as configured when it was created. */
    percentHundredths: integer('percent_hundredths').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    payout: jsonb('payout').$type<CashbackPayout>().notNull(),
    receivingExpiresAt: timestamp('receiving_expires_at', { withTimezone: true }).notNull(),
    paidOutAt: timestamp('paid_out_at', { withTimezone: true }),
    /** The ledger transfer (main) or the bonus (bonus) that paid it. */
    paidWith: text('paid_with'),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // One per player, currency and period: the job run twice, or on two processes, creates it once.
    uniqueIndex('cashbacks_period_key').on(table.siteId, table.userId, table.currency, table.periodStart),
    index('cashbacks_owner').on(table.siteId, table.userId, table.status, table.periodEnd),
    index('cashbacks_open_by_expiry').on(table.status, table.receivingExpiresAt),
    check('cashbacks_amounts', sql`${table.amountMinor} > 0 AND ${table.netLossMinor} > 0 AND ${table.percentHundredths} > 0`),
    check('cashbacks_status', sql`${table.status} IN ('active', 'paid_out', 'expired', 'removed')`),
    check('cashbacks_period', sql`${table.period} IN ('daily', 'weekly') AND ${table.periodEnd} > ${table.periodStart}`),
    check('cashbacks_paid_when_paid_out', sql`(${table.status} = 'paid_out') = (${table.paidOutAt} IS NOT NULL)`),
  ],
);

export type CashbackRow = typeof cashbacks.$inferSelect;
