/**
 * Bonuses (issue 13; spec §3 Bonus: id, type betting or casino, status, description): one row per
 * bonus a player holds, from its grant to its end. The template's terms are copied onto the row
 * when it is granted, so an operator's later edit of the template never changes a bonus a player
 * already has. Money lives on the ledger (player `bonus` / `betting_bonus` accounts against the
 * house `bonus_cost` account); `balance_minor` is this bonus's share of that account, kept in the
 * same transaction as every transfer that moves it.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../account/tables';
import type { BonusTemplate } from './rules';

export const BONUS_STATUSES = ['available', 'active', 'converted', 'expired', 'forfeited', 'removed'] as const;
export type BonusStatus = (typeof BONUS_STATUSES)[number];

/** Where a bonus came from: also the first part of its grant key. */
export const BONUS_SOURCES = [
  'deposit_offer',
  'promo_code',
  'promotion',
  'registration',
  'operator',
  'freespins',
  'cashback',
] as const;
export type BonusSource = (typeof BONUS_SOURCES)[number];

export const bonuses = pgTable(
  'bonuses',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').$type<'casino' | 'betting'>().notNull(),
    status: text('status').$type<BonusStatus>().notNull(),
    templateId: text('template_id').notNull(),
    /** The template as it was when granted: the terms the player accepted. */
    terms: jsonb('terms').$type<BonusTemplate>().notNull(),
    source: text('source').$type<BonusSource>().notNull(),
    /** What granted it (`deposit:12`, `code:WELCOME`, `offer:3`, `operator:alice:ticket-9`): unique per player and source. */
    sourceRef: text('source_ref').notNull(),
    currency: text('currency').notNull(),
    /** What the grant pays onto the bonus balance when the bonus becomes active. */
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    /** The qualifying deposit, for a deposit-match bonus (0 otherwise). */
    depositMinor: bigint('deposit_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    /** This bonus's money on the player's bonus account (0 unless active). */
    balanceMinor: bigint('balance_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    wageringRequiredMinor: bigint('wagering_required_minor', { mode: 'bigint' }).notNull(),
    /** Only grows while active (issue 13: progress never decreases). */
    wageredMinor: bigint('wagered_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    /** What became real money on completion (after the cap). */
    convertedMinor: bigint('converted_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    /** How many times it was activated: a deactivated bonus activated again moves its grant again, under a new key. */
    activations: integer('activations').notNull().default(0),
    claimExpiresAt: timestamp('claim_expires_at', { withTimezone: true }).notNull(),
    /** Set on activation: the wagering window's end. */
    wageringExpiresAt: timestamp('wagering_expires_at', { withTimezone: true }),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Who ended it, when a person did: `player:12`, `operator:alice`. */
    endedBy: text('ended_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('bonuses_grant_key').on(table.siteId, table.userId, table.source, table.sourceRef),
    index('bonuses_owner').on(table.siteId, table.userId, table.status, table.id),
    // The expiry job's two questions: available past the claim window, active past the wagering window.
    index('bonuses_claim_expiry').on(table.status, table.claimExpiresAt),
    index('bonuses_wagering_expiry').on(table.status, table.wageringExpiresAt),
    check(
      'bonuses_amounts',
      sql`${table.amountMinor} > 0 AND ${table.depositMinor} >= 0 AND ${table.balanceMinor} >= 0 AND ${table.wageringRequiredMinor} >= 0 AND ${table.wageredMinor} >= 0 AND ${table.convertedMinor} >= 0`,
    ),
    check('bonuses_status', sql`${table.status} IN ('available', 'active', 'converted', 'expired', 'forfeited', 'removed')`),
    check('bonuses_type', sql`${table.type} IN ('casino', 'betting')`),
    check('bonuses_balance_only_when_active', sql`${table.status} = 'active' OR ${table.balanceMinor} = 0`),
  ],
);

export type BonusRow = typeof bonuses.$inferSelect;

/**
 * A real-money stake made while a casino bonus was wagered, in a round that settles in a later
 * transaction (a stateful round, a live bet): what the bonus paid of it, so the payout can give
 * the bonus its share back and count the stake toward wagering (issue 13). Deleted when the
 * round settles; one row per round (stateful rounds add their later stakes to it) or live bet.
 */
export const bonusStakes = pgTable(
  'bonus_stakes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    /** The round's reference, or the bet's on a live table (`round:12`, `live:7:31`). */
    stakeRef: text('stake_ref').notNull(),
    bonusId: bigint('bonus_id', { mode: 'number' })
      .notNull()
      .references(() => bonuses.id, { onDelete: 'cascade' }),
    gameType: text('game_type'),
    stakeMinor: bigint('stake_minor', { mode: 'bigint' }).notNull(),
    fromBonusMinor: bigint('from_bonus_minor', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('bonus_stakes_ref').on(table.siteId, table.stakeRef),
    index('bonus_stakes_bonus').on(table.bonusId),
    check(
      'bonus_stakes_amounts',
      sql`${table.stakeMinor} > 0 AND ${table.fromBonusMinor} >= 0 AND ${table.fromBonusMinor} <= ${table.stakeMinor}`,
    ),
  ],
);

export type BonusStakeRow = typeof bonusStakes.$inferSelect;
