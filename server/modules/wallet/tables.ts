/**
 * The double-entry ledger (architecture §5). Accounts hold cached balances; a transfer is one
 * movement made of postings that sum to zero per currency; the audit log is hash-chained per
 * stream so an edited or removed entry is detectable.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** A player's balance types (spec §3), plus where a withdrawal waits for the operator's decision. */
export const PLAYER_ACCOUNT_TYPES = ['main', 'bonus', 'betting_bonus', 'fun', 'withdrawal_pending'] as const;
export type PlayerAccountType = (typeof PLAYER_ACCOUNT_TYPES)[number];

/**
 * The operator's side of every movement. House accounts may go negative: psp_clearing, for one,
 * is what payment providers owe us (deposits) less what we paid out through them.
 */
export const HOUSE_ACCOUNT_TYPES = [
  'psp_clearing',
  'game',
  'bonus_cost',
  'jackpot_pool',
  'fun_issuer',
  'adjustment',
  // What players owe the house (debts.ts): a payout taken back after it was spent. Negative while owed.
  'player_debt',
] as const;
export type HouseAccountType = (typeof HOUSE_ACCOUNT_TYPES)[number];

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    ownerKind: text('owner_kind').$type<'player' | 'house'>().notNull(),
    /** The player for player accounts; 0 for house accounts (so one unique index covers both). */
    userId: bigint('user_id', { mode: 'number' }).notNull().default(0),
    type: text('type').$type<PlayerAccountType | HouseAccountType>().notNull(),
    currency: text('currency').notNull(),
    /** House accounts are split into sub-accounts so one hot row does not serialise the casino. */
    shard: smallint('shard').notNull().default(0),
    balanceMinor: bigint('balance_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('ledger_accounts_identity').on(
      table.siteId,
      table.ownerKind,
      table.userId,
      table.type,
      table.currency,
      table.shard,
    ),
    check('ledger_accounts_player_not_negative', sql`${table.ownerKind} <> 'player' OR ${table.balanceMinor} >= 0`),
    check('ledger_accounts_owner', sql`(${table.ownerKind} = 'player') = (${table.userId} > 0)`),
  ],
);

export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    /** The player the movement concerns, for their history; null for house-only movements. */
    userId: bigint('user_id', { mode: 'number' }),
    kind: text('kind').notNull(),
    currency: text('currency').notNull(),
    /** The headline amount (what the player sees), positive. */
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    idempotencyKey: text('idempotency_key'),
    /** Hash of the request the key first came with: the same key with another request is refused. */
    requestHash: text('request_hash'),
    reference: text('reference'),
    actor: text('actor').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('ledger_transfers_idempotency_key').on(table.idempotencyKey),
    index('ledger_transfers_user_kind').on(table.userId, table.kind, table.id),
    index('ledger_transfers_reference').on(table.reference),
  ],
);

export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transferId: bigint('transfer_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransfers.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerAccounts.id),
    currency: text('currency').notNull(),
    /** Signed: positive credits the account, negative debits it. */
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
  },
  (table) => [
    index('ledger_postings_transfer').on(table.transferId),
    index('ledger_postings_account').on(table.accountId),
    check('ledger_postings_not_zero', sql`${table.amountMinor} <> 0`),
  ],
);

/**
 * Append-only audit trail: who did what, why, with what reference. Entries are chained per
 * stream (a player, a site's house, the operators) so appends for different players never wait
 * on each other; each entry's hash covers its content and the previous entry's hash.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    stream: text('stream').notNull(),
    seq: integer('seq').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    subject: text('subject').notNull(),
    reason: text('reason').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    /**
     * How `hash` was made (audit.ts): 1, all fields in one hash, made in the application; 2, the
     * content hashed by the application and chained to its stream by the database in the same
     * statement that writes the transfer (ledger_write_batch, issue 12).
     */
    hashVersion: smallint('hash_version').notNull().default(1),
  },
  (table) => [uniqueIndex('audit_log_stream_seq').on(table.stream, table.seq)],
);

export const DEBT_STATUSES = ['open', 'cleared', 'written_off'] as const;
export type DebtStatus = (typeof DEBT_STATUSES)[number];

/**
 * A player's debt (issue 14 "Settlement": a rollback reverses a payout the player may have
 * spent; the balance may not go negative, so the difference is a debt the next deposit clears,
 * or the operator's policy per site). The ledger carries it on the house's `player_debt`
 * account; this row says whose it is, why, and what has been repaid or written off.
 */
export const playerDebts = pgTable(
  'player_debts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    clearedMinor: bigint('cleared_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    writtenOffMinor: bigint('written_off_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    status: text('status').$type<DebtStatus>().notNull(),
    /** The reversal that left it (its ledger idempotency key): one debt per reversal. */
    reference: text('reference').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('player_debts_reference').on(table.reference),
    index('player_debts_owner').on(table.siteId, table.userId, table.status, table.id),
    check(
      'player_debts_amounts',
      sql`${table.amountMinor} > 0 AND ${table.clearedMinor} >= 0 AND ${table.writtenOffMinor} >= 0 AND ${table.clearedMinor} + ${table.writtenOffMinor} <= ${table.amountMinor}`,
    ),
    check('player_debts_status', sql`${table.status} IN ('open', 'cleared', 'written_off')`),
  ],
);

export type PlayerDebtRow = typeof playerDebts.$inferSelect;
