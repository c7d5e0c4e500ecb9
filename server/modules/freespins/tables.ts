/**
 * Freespin packs (issue 5; spec §3 games state freespins, §7 freespins.get): spins on one slot at
 * a fixed stake that the operator gives a player. Each spin played is one round of that slot that
 * takes no stake from the player; `remaining_count` only goes down, one per round, never below
 * zero (a CHECK, not only code), and each round consumes at most one spin (a unique round id).
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../account/tables';
import { gameRounds } from '../game-rounds/tables';

export const freespinPacks = pgTable(
  'freespin_packs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The slot the spins are played on. */
    sysname: text('sysname').notNull(),
    currency: text('currency').notNull(),
    /** The stake of every spin of the pack, paid by the house. */
    stakeMinor: bigint('stake_minor', { mode: 'bigint' }).notNull(),
    totalCount: integer('total_count').notNull(),
    remainingCount: integer('remaining_count').notNull(),
    /**
     * 0: the wins are paid to the main balance (wager-free spins). Above 0: the wins are bonus
     * money, paid to the bonus balance, to be wagered this many times before they can be withdrawn.
     */
    wageringMultiplier: integer('wagering_multiplier').notNull().default(0),
    /** What the spins have won so far, and the wagering that creates. */
    winMinor: bigint('win_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    wagerRequiredMinor: bigint('wager_required_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** The operator's (or a campaign's) key for this award: awarding it again returns this pack. */
    awardKey: text('award_key').notNull(),
    awardedBy: text('awarded_by').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('freespin_packs_award_key').on(table.siteId, table.awardKey),
    index('freespin_packs_owner').on(table.siteId, table.userId, table.id),
    check(
      'freespin_packs_counts',
      sql`${table.totalCount} > 0 AND ${table.remainingCount} >= 0 AND ${table.remainingCount} <= ${table.totalCount}`,
    ),
    check(
      'freespin_packs_amounts',
      sql`${table.stakeMinor} > 0 AND ${table.winMinor} >= 0 AND ${table.wagerRequiredMinor} >= 0 AND ${table.wageringMultiplier} >= 0`,
    ),
  ],
);

/** Which round consumed which spin of a pack: one spin per round, each spin number once. */
export const freespinSpins = pgTable(
  'freespin_spins',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    packId: bigint('pack_id', { mode: 'number' })
      .notNull()
      .references(() => freespinPacks.id, { onDelete: 'cascade' }),
    roundId: bigint('round_id', { mode: 'number' })
      .notNull()
      .references(() => gameRounds.id, { onDelete: 'cascade' }),
    /** 1 for the pack's first spin, total_count for its last. */
    spinNumber: integer('spin_number').notNull(),
    payoutMinor: bigint('payout_minor', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('freespin_spins_round').on(table.roundId),
    uniqueIndex('freespin_spins_number').on(table.packId, table.spinNumber),
    check('freespin_spins_number_positive', sql`${table.spinNumber} > 0`),
  ],
);

export type FreespinPackRow = typeof freespinPacks.$inferSelect;
