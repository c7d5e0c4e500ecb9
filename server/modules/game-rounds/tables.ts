/**
 * In-house game play (issue 5; architecture §6): the provably fair seed pairs of each player or
 * demo visitor, and every round played on them. A round of a single-request game (dice,
 * roulette, slots) is written settled in the transaction that moves its money; the stateful
 * games (crash, mines, blackjack, live roulette) will keep an open round's `state` between
 * requests and settle it later.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../account/tables';
import { bigWinCondition } from '../../db/big-win';

/**
 * A seed pair: the server seed is secret while active (only its hash is shown) and revealed when
 * the player rotates; the nonce only grows, so no stream is ever read twice on one server seed
 * (a client seed set again does not replay an old round).
 */
export const fairSeeds = pgTable(
  'fair_seeds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    /** `user:{uid}` for a signed-in player, `visitor:{visitorId}` for an anonymous demo visitor. */
    ownerKey: text('owner_key').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    serverSeed: text('server_seed').notNull(),
    serverSeedHash: text('server_seed_hash').notNull(),
    clientSeed: text('client_seed').notNull(),
    /** The nonce of the next round played on this pair. */
    nextNonce: integer('next_nonce').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when rotated: from then on the server seed is shown and the pair takes no more rounds. */
    revealedAt: timestamp('revealed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('fair_seeds_one_active')
      .on(table.siteId, table.ownerKey)
      .where(sql`${table.revealedAt} IS NULL`),
    index('fair_seeds_owner').on(table.siteId, table.ownerKey, table.id),
    check('fair_seeds_nonce', sql`${table.nextNonce} >= 0`),
  ],
);

export const GAME_ROUND_MODES = ['real', 'demo'] as const;
export type GameRoundMode = (typeof GAME_ROUND_MODES)[number];
export const GAME_ROUND_STATUSES = ['open', 'settled'] as const;
export type GameRoundStatus = (typeof GAME_ROUND_STATUSES)[number];

export const gameRounds = pgTable(
  'game_rounds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    ownerKey: text('owner_key').notNull(),
    /** The player; null for an anonymous visitor's demo round (no money moves for it). */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    visitorId: text('visitor_id'),
    sysname: text('sysname').notNull(),
    engine: text('engine').notNull(),
    mode: text('mode').$type<GameRoundMode>().notNull(),
    currency: text('currency').notNull(),
    stakeMinor: bigint('stake_minor', { mode: 'bigint' }).notNull(),
    payoutMinor: bigint('payout_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    seedId: bigint('seed_id', { mode: 'number' })
      .notNull()
      .references(() => fairSeeds.id),
    serverSeedHash: text('server_seed_hash').notNull(),
    clientSeed: text('client_seed').notNull(),
    nonce: integer('nonce').notNull(),
    /** The bet as the player placed it (amounts as minor-unit strings). */
    bet: jsonb('bet').notNull(),
    /** What the engine drew and paid, as shown for recall; null while a stateful round is open. */
    outcome: jsonb('outcome'),
    /** A stateful game's state between requests (mines, blackjack, crash); null when settled. */
    state: jsonb('state'),
    status: text('status').$type<GameRoundStatus>().notNull(),
    /** The client's request id: a replay of it returns this round and moves nothing. */
    requestKey: text('request_key').notNull(),
    requestHash: text('request_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('game_rounds_request').on(table.siteId, table.ownerKey, table.requestKey),
    index('game_rounds_recall').on(table.siteId, table.ownerKey, table.sysname, table.id),
    index('game_rounds_seed').on(table.seedId),
    // The site's big wins, newest first (games.getWinners): only big real-money wins are in it.
    index('game_rounds_big_wins')
      .on(table.siteId, table.settledAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(
        sql`${table.mode} = 'real' AND ${table.status} = 'settled' AND ${table.userId} IS NOT NULL AND ${bigWinCondition(table.stakeMinor, table.payoutMinor)}`,
      ),
    check('game_rounds_amounts', sql`${table.stakeMinor} > 0 AND ${table.payoutMinor} >= 0`),
    check('game_rounds_mode', sql`${table.mode} IN ('real', 'demo')`),
    check('game_rounds_status', sql`${table.status} IN ('open', 'settled')`),
    check('game_rounds_owner', sql`(${table.userId} IS NOT NULL) OR (${table.mode} = 'demo' AND ${table.visitorId} IS NOT NULL)`),
  ],
);
