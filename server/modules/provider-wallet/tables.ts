/**
 * External game providers' seamless wallet (issue 5 "External providers"; architecture §5, §6):
 * the sessions a game launch hands to a provider, the rounds it plays on them and every
 * transaction it sends, keyed by the provider's own transaction id.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../account/tables';
import { bigWinCondition } from '../../db/big-win';

/**
 * A game launch: the token the provider authenticates with, bound to one player, one game and
 * one currency. Expiry only stops new bets: wins and rollbacks of its rounds are taken later.
 */
export const providerSessions = pgTable(
  'provider_sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    token: text('token').notNull(),
    provider: text('provider').notNull(),
    siteId: text('site_id').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sysname: text('sysname').notNull(),
    currency: text('currency').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('provider_sessions_token').on(table.token), index('provider_sessions_user').on(table.userId, table.id)],
);

/**
 * A provider's round, opened by its first bet: it belongs to one player and currency for good.
 * Its stake and payout are kept with it, in the transaction of each bet, win and rollback, so the
 * site's big wins (games.getWinners) are read from an index instead of summed over transactions.
 */
export const providerRounds = pgTable(
  'provider_rounds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    roundId: text('round_id').notNull(),
    siteId: text('site_id').notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    sessionId: bigint('session_id', { mode: 'number' })
      .notNull()
      .references(() => providerSessions.id),
    currency: text('currency').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by the provider's round end: no more bets in it. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Its applied bets: what rollbacks reversed is taken off again. */
    stakeMinor: bigint('stake_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    /** Its applied wins. */
    payoutMinor: bigint('payout_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
  },
  (table) => [
    uniqueIndex('provider_rounds_round').on(table.provider, table.roundId),
    // The site's big wins, newest first (games.getWinners): only ended rounds that paid big are in it.
    index('provider_rounds_big_wins')
      .on(table.siteId, table.endedAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(
        sql`${table.endedAt} IS NOT NULL AND ${table.stakeMinor} > 0 AND ${bigWinCondition(table.stakeMinor, table.payoutMinor)}`,
      ),
  ],
);

export const PROVIDER_TX_KINDS = ['bet', 'win', 'rollback'] as const;
export type ProviderTxKind = (typeof PROVIDER_TX_KINDS)[number];

/**
 * - `applied`: the money moved (or nothing had to: a zero amount, a rollback of a rolled-back bet);
 * - `rolled_back`: a bet a rollback reversed;
 * - `tombstone`: a bet id a rollback named before the bet arrived: the late bet is refused.
 */
export const PROVIDER_TX_STATUSES = ['applied', 'rolled_back', 'tombstone'] as const;
export type ProviderTxStatus = (typeof PROVIDER_TX_STATUSES)[number];

export const providerTransactions = pgTable(
  'provider_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    /** The provider's transaction id: one request, for good. */
    txId: text('tx_id').notNull(),
    kind: text('kind').$type<ProviderTxKind>().notNull(),
    status: text('status').$type<ProviderTxStatus>().notNull(),
    siteId: text('site_id').notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    sessionId: bigint('session_id', { mode: 'number' }),
    roundId: text('round_id').notNull(),
    currency: text('currency').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    /** A rollback's bet transaction id. */
    refTxId: text('ref_tx_id'),
    /** The ledger transfer that moved the money; null when nothing moved. */
    transferId: bigint('transfer_id', { mode: 'number' }),
    /** What the request was bound to: a replay must match it, or it is a duplicate. */
    requestHash: text('request_hash').notNull(),
    /** The first answer, returned again to an exact replay. */
    answer: jsonb('answer').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('provider_transactions_tx').on(table.provider, table.txId),
    // Round first: a lookup by provider alone (the whole provider's rows) must not be able to take
    // this index; with both leading on provider the planner took either for the (provider, tx_id)
    // lookup of provider_money on a young table, and kept that plan (migration 0029).
    index('provider_transactions_round').on(table.roundId, table.provider),
    check('provider_transactions_amount', sql`${table.amountMinor} >= 0`),
    check('provider_transactions_kind', sql`${table.kind} IN ('bet', 'win', 'rollback')`),
    check('provider_transactions_status', sql`${table.status} IN ('applied', 'rolled_back', 'tombstone')`),
  ],
);
