/**
 * Live in-house games (issue 5; docs/live-games.md): shared rounds of a site's crash and live
 * roulette tables, every player's bets in them, and the lease that lets one process run the
 * tables of a database at a time.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../account/tables';

export const LIVE_ROUND_STATUSES = ['open', 'settled'] as const;
export type LiveRoundStatus = (typeof LIVE_ROUND_STATUSES)[number];

/**
 * One shared round of a table (a site's game by sysname). Its phases follow from its times: betting
 * until `betting_closes_at`, then the climb or the spin until `result_at` (for crash the moment of
 * the crash, which follows from the seed and is never shown before), then the result until
 * `next_at`, when the next round opens. The server seed is drawn when the round is created and only
 * its hash is shown until `result_at`.
 */
export const liveRounds = pgTable(
  'live_rounds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    sysname: text('sysname').notNull(),
    engine: text('engine').notNull(),
    /** 1, 2, 3 … per table: the nonce of the round's fair stream. */
    roundNo: integer('round_no').notNull(),
    serverSeed: text('server_seed').notNull(),
    serverSeedHash: text('server_seed_hash').notNull(),
    /** Public: `{siteId}:{sysname}`. */
    clientSeed: text('client_seed').notNull(),
    bettingOpensAt: timestamp('betting_opens_at', { withTimezone: true, precision: 3 }).notNull(),
    bettingClosesAt: timestamp('betting_closes_at', { withTimezone: true, precision: 3 }).notNull(),
    resultAt: timestamp('result_at', { withTimezone: true, precision: 3 }).notNull(),
    nextAt: timestamp('next_at', { withTimezone: true, precision: 3 }).notNull(),
    status: text('status').$type<LiveRoundStatus>().notNull().default('open'),
    /** What the seed drew ({ crash_point } or { pocket, color }), written when settled. */
    result: jsonb('result'),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('live_rounds_table_no').on(table.siteId, table.sysname, table.roundNo),
    index('live_rounds_open').on(table.status, table.resultAt),
    check('live_rounds_status', sql`${table.status} IN ('open', 'settled')`),
    check(
      'live_rounds_times',
      sql`${table.bettingOpensAt} <= ${table.bettingClosesAt} AND ${table.bettingClosesAt} <= ${table.resultAt} AND ${table.resultAt} <= ${table.nextAt}`,
    ),
  ],
);

export const LIVE_BET_STATUSES = ['open', 'won', 'lost'] as const;
export type LiveBetStatus = (typeof LIVE_BET_STATUSES)[number];

/** One player's bet in a shared round (crash: one a round; live roulette: a set of bets a request). */
export const liveBets = pgTable(
  'live_bets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    roundId: bigint('round_id', { mode: 'number' })
      .notNull()
      .references(() => liveRounds.id),
    siteId: text('site_id').notNull(),
    ownerKey: text('owner_key').notNull(),
    /** Null for an anonymous visitor's demo bet (no money moves for it). */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    visitorId: text('visitor_id'),
    mode: text('mode').$type<'real' | 'demo'>().notNull(),
    currency: text('currency').notNull(),
    stakeMinor: bigint('stake_minor', { mode: 'bigint' }).notNull(),
    /** The bet in normal form: crash { stake, auto_cash_out }, live roulette { bets: [...] }. */
    bet: jsonb('bet').notNull(),
    /** Crash: the automatic cash-out target in hundredths, if any. */
    autoCashOut: integer('auto_cash_out'),
    /** Crash: the multiplier the bet was cashed out at, in hundredths. */
    cashOut: integer('cash_out'),
    payoutMinor: bigint('payout_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    status: text('status').$type<LiveBetStatus>().notNull().default('open'),
    requestKey: text('request_key').notNull(),
    requestHash: text('request_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('live_bets_request').on(table.siteId, table.ownerKey, table.requestKey),
    index('live_bets_round').on(table.roundId, table.status),
    index('live_bets_owner').on(table.siteId, table.ownerKey, table.id),
    check('live_bets_amounts', sql`${table.stakeMinor} > 0 AND ${table.payoutMinor} >= 0`),
    check('live_bets_mode', sql`${table.mode} IN ('real', 'demo')`),
    check('live_bets_status', sql`${table.status} IN ('open', 'won', 'lost')`),
    check(
      'live_bets_owner_check',
      sql`(${table.userId} IS NOT NULL) OR (${table.mode} = 'demo' AND ${table.visitorId} IS NOT NULL)`,
    ),
  ],
);

/** Who runs the live tables: one holder at a time, until `expires_at` unless renewed. */
export const liveLeases = pgTable('live_leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
});

export type LiveRoundRow = typeof liveRounds.$inferSelect;
export type LiveBetRow = typeof liveBets.$inferSelect;
