/**
 * Loyalty (spec §3 loyalty info): one account per player, the points it holds and has earned,
 * every change of points as an entry with its own key (so earning twice for one wager is
 * impossible), and the running wager totals the points are earned from.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../account/tables';

export const loyaltyAccounts = pgTable(
  'loyalty_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The picked character's id in the site's programme; null until the player picks one. */
    characterId: integer('character_id'),
    /** Spendable points. */
    points: bigint('points', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    /** Every point ever earned: decides the level, never goes down. */
    experience: bigint('experience', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('loyalty_accounts_user').on(table.userId),
    check('loyalty_accounts_counts', sql`${table.points} >= 0 AND ${table.experience} >= 0`),
  ],
);

export const loyaltyPointEntries = pgTable(
  'loyalty_point_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => loyaltyAccounts.id, { onDelete: 'cascade' }),
    /** Change of spendable points (negative for a purchase). */
    pointsDelta: bigint('points_delta', { mode: 'bigint' }).notNull(),
    /** Change of experience (0 for a purchase). */
    experienceDelta: bigint('experience_delta', { mode: 'bigint' }).notNull(),
    /** `wager`, later `product`, `operator` … */
    reason: text('reason').notNull(),
    /** What caused it, once: `wager:{transferId}`. */
    entryKey: text('entry_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('loyalty_point_entries_key').on(table.accountId, table.entryKey),
    index('loyalty_point_entries_account').on(table.accountId, table.id),
  ],
);

/** What a player has wagered per currency, and how many points that has earned so far. */
export const loyaltyWagerTotals = pgTable(
  'loyalty_wager_totals',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => loyaltyAccounts.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    wageredMinor: bigint('wagered_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    pointsEarned: bigint('points_earned', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.currency] })],
);

/** How far through the wallet's transfers the accrual has read (one row, name `wagers`). */
export const loyaltyAccrualCursor = pgTable('loyalty_accrual_cursor', {
  name: text('name').primaryKey(),
  lastTransferId: bigint('last_transfer_id', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
