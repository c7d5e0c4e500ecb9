/**
 * Sports bet tickets (issue 14 "Placing a ticket is one idempotent call", "Every bet keeps the
 * wager record a regulator asks for"): one ticket per placed slip, its legs as accepted (event,
 * market, outcome, price), and every status change with its reason. Money is on the ledger
 * (`sport:{ticket}:stake`, `:payout`, `:refund`); the ticket says what it was and how it ended.
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
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { BetType } from '#common/sportsbook/bet-types';
import { users } from '../../account/tables';

/** `cashed_out`: the player sold the whole bet back (issue 14 cash-out); a partial cash-out leaves it open on less stake. */
export const TICKET_STATUSES = ['open', 'won', 'lost', 'void', 'partial', 'cashed_out'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
/** What a settlement leaves (a rollback of it reopens the ticket); a cash-out is the player's own and stands. */
export const SETTLED_STATUSES = ['won', 'lost', 'void', 'partial'] as const satisfies readonly TicketStatus[];

export const sportTickets = pgTable(
  'sport_tickets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    betType: jsonb('bet_type').$type<BetType>().notNull(),
    stakePerLineMinor: bigint('stake_per_line_minor', { mode: 'bigint' }).notNull(),
    totalStakeMinor: bigint('total_stake_minor', { mode: 'bigint' }).notNull(),
    /** What the slip returns if every selection wins, at the accepted prices. */
    potentialReturnMinor: bigint('potential_return_minor', { mode: 'bigint' }).notNull(),
    /** Main balance, or the betting bonus named (a free bet or bonus money; bonuses/betting.ts). */
    bonusId: bigint('bonus_id', { mode: 'number' }),
    status: text('status').$type<TicketStatus>().notNull(),
    payoutMinor: bigint('payout_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    /** What cash-outs paid so far (full or partial); the stake columns hold what is still on the bet. */
    cashedOutMinor: bigint('cashed_out_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    cashOuts: integer('cash_outs').notNull().default(0),
    /**
     * How many times the ticket was settled: a rollback reopens it and the corrected result
     * settles it again, so each settlement's payout (and its reversal) has its own ledger key.
     */
    settlements: integer('settlements').notNull().default(0),
    /** How the player placed it (web, mobile web): part of the wager record. */
    channel: text('channel').notNull(),
    requestKey: text('request_key').notNull(),
    requestHash: text('request_hash').notNull(),
    placedAt: timestamp('placed_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('sport_tickets_request').on(table.siteId, table.userId, table.requestKey),
    index('sport_tickets_owner').on(table.siteId, table.userId, table.id),
    index('sport_tickets_open').on(table.status),
    check(
      'sport_tickets_amounts',
      sql`${table.stakePerLineMinor} > 0 AND ${table.totalStakeMinor} >= ${table.stakePerLineMinor} AND ${table.payoutMinor} >= 0`,
    ),
    check('sport_tickets_status', sql`${table.status} IN ('open', 'won', 'lost', 'void', 'partial', 'cashed_out')`),
  ],
);

/** A leg as accepted: the selection and its price; its result once its market settles (or is cancelled). */
export const sportTicketLegs = pgTable(
  'sport_ticket_legs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ticketId: bigint('ticket_id', { mode: 'number' })
      .notNull()
      .references(() => sportTickets.id, { onDelete: 'cascade' }),
    /** The leg's place on the slip: lines name legs by it. */
    position: integer('position').notNull(),
    eventId: text('event_id').notNull(),
    marketKey: text('market_key').notNull(),
    outcomeId: text('outcome_id').notNull(),
    oddsUnits: bigint('odds_units', { mode: 'bigint' }).notNull(),
    /** The settled result as exact fractions ({won, void: [num, den], deadHeat: [num, den]}), null while open. */
    result: jsonb('result').$type<StoredResult>(),
  },
  (table) => [
    uniqueIndex('sport_ticket_legs_position').on(table.ticketId, table.position),
    // Settlement finds the open legs of a settled market.
    index('sport_ticket_legs_market').on(table.eventId, table.marketKey),
    check('sport_ticket_legs_odds', sql`${table.oddsUnits} >= 10100`),
  ],
);

export interface StoredResult {
  won: boolean;
  void: [string, string];
  deadHeat: [string, string];
  /** Why it ended this way: a settlement, or a cancel of the market. */
  by: 'settlement' | 'cancel';
}

/** The wager record's history: every status change of a ticket, with its reason. */
export const sportTicketChanges = pgTable(
  'sport_ticket_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ticketId: bigint('ticket_id', { mode: 'number' })
      .notNull()
      .references(() => sportTickets.id, { onDelete: 'cascade' }),
    status: text('status').$type<TicketStatus>().notNull(),
    reason: text('reason').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sport_ticket_changes_ticket').on(table.ticketId, table.id)],
);

/**
 * The operator's limits below the site's (issue 14: "the most restrictive of player, market,
 * league and site limits applies"): per player (target: the user id), per market type (target:
 * `1x2`, `total` …) and per league (target: the tournament id), in one currency. An amount left
 * null sets no limit of that kind at that scope.
 */
export const LIMIT_SCOPES = ['player', 'market', 'league'] as const;
export type OperatorLimitScope = (typeof LIMIT_SCOPES)[number];

export const sportBetLimits = pgTable(
  'sport_bet_limits',
  {
    siteId: text('site_id').notNull(),
    scope: text('scope').$type<OperatorLimitScope>().notNull(),
    target: text('target').notNull(),
    currency: text('currency').notNull(),
    minStakeMinor: bigint('min_stake_minor', { mode: 'bigint' }),
    maxStakeMinor: bigint('max_stake_minor', { mode: 'bigint' }),
    maxPayoutMinor: bigint('max_payout_minor', { mode: 'bigint' }),
    maxExposureMinor: bigint('max_exposure_minor', { mode: 'bigint' }),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.siteId, table.scope, table.target, table.currency] }),
    check('sport_bet_limits_scope', sql`${table.scope} IN ('player', 'market', 'league')`),
    check(
      'sport_bet_limits_amounts',
      sql`coalesce(${table.minStakeMinor}, 1) > 0 AND coalesce(${table.maxStakeMinor}, 1) > 0 AND coalesce(${table.maxPayoutMinor}, 1) > 0 AND coalesce(${table.maxExposureMinor}, 1) > 0`,
    ),
  ],
);

/**
 * What the house stands to pay on a market (issue 14 "exposure per market"): the potential
 * returns of the open tickets with a leg on it. Kept as a running total, one row per market and
 * currency, so a placement checks it under the row's lock instead of summing every open ticket:
 * a placement adds its ticket's potential return, a settlement or cash-out takes it off, a
 * rollback that reopens a ticket puts it back.
 */
export const sportMarketExposure = pgTable(
  'sport_market_exposure',
  {
    siteId: text('site_id').notNull(),
    eventId: text('event_id').notNull(),
    marketKey: text('market_key').notNull(),
    currency: text('currency').notNull(),
    exposureMinor: bigint('exposure_minor', { mode: 'bigint' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.siteId, table.eventId, table.marketKey, table.currency] })],
);

export type TicketRow = typeof sportTickets.$inferSelect;
export type TicketLegRow = typeof sportTicketLegs.$inferSelect;
