/**
 * The sportsbook's store (issue 14): the offer as the odds feed last described it, and the feed's
 * messages as they were received. Sports are the fixed list of common/sportsbook/types.ts (SPORTS),
 * so they have no table; categories (a country or region) and tournaments come with the fixtures.
 * Markets are keyed by the catalogue's market key (type and specifiers), outcomes by the catalogue's
 * outcome ids, odds in ten-thousandths as every price in the sportsbook.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { EventStatus, MarketStatus, Specifiers, Sport } from '#common/sportsbook/types';

export const sportsbookCategories = pgTable('sportsbook_categories', {
  id: text('id').primaryKey(),
  sport: text('sport').$type<Sport>().notNull(),
  name: text('name').notNull(),
});

export const sportsbookTournaments = pgTable('sportsbook_tournaments', {
  id: text('id').primaryKey(),
  categoryId: text('category_id')
    .notNull()
    .references(() => sportsbookCategories.id),
  sport: text('sport').$type<Sport>().notNull(),
  name: text('name').notNull(),
});

/**
 * One sport event. A feed message may name an event before its fixture arrived (feeds do not
 * promise the order): the row then exists for its sequence and state, without a tournament, and
 * the offer does not list it until the fixture fills it in.
 */
export const sportsbookEvents = pgTable(
  'sportsbook_events',
  {
    id: text('id').primaryKey(),
    sport: text('sport').$type<Sport>(),
    tournamentId: text('tournament_id').references(() => sportsbookTournaments.id),
    homeId: text('home_id'),
    homeName: text('home_name'),
    awayId: text('away_id'),
    awayName: text('away_name'),
    startTime: timestamp('start_time', { withTimezone: true }),
    status: text('status').$type<EventStatus>().notNull().default('not_started'),
    homeScore: integer('home_score'),
    awayScore: integer('away_score'),
    clockMinute: integer('clock_minute'),
    /** The producer of the last message applied: its outage suspends the event's markets. */
    producer: text('producer'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('sportsbook_events_offer').on(table.sport, table.status, table.startTime),
    index('sportsbook_events_producer').on(table.producer),
  ],
);

export type SportsbookEventRow = typeof sportsbookEvents.$inferSelect;

export const sportsbookMarkets = pgTable(
  'sportsbook_markets',
  {
    eventId: text('event_id')
      .notNull()
      .references(() => sportsbookEvents.id, { onDelete: 'cascade' }),
    /** catalogue.marketKey(type, specifiers). */
    key: text('key').notNull(),
    type: text('type').notNull(),
    specifiers: jsonb('specifiers').$type<Specifiers>().notNull(),
    status: text('status').$type<MarketStatus>().notNull(),
    /** Set while settled: provisional or confirmed (the results are on the outcomes). */
    settlementCertainty: text('settlement_certainty').$type<'provisional' | 'confirmed'>(),
    /** Set while cancelled: the window of bets the cancel voids (epoch ms, either end open). */
    cancelWindow: jsonb('cancel_window').$type<{ startTime?: number; endTime?: number }>(),
    /** The open status a rollback returns to (market-state.ts statusBefore). */
    statusBefore: text('status_before').$type<'active' | 'suspended' | 'deactivated'>(),
    /** The status a producer outage suspended; its recovery restores it unless a message changed the market since. */
    statusBeforeOutage: text('status_before_outage').$type<'active' | 'suspended' | 'deactivated'>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.key] })],
);

export const sportsbookOutcomes = pgTable(
  'sportsbook_outcomes',
  {
    eventId: text('event_id').notNull(),
    marketKey: text('market_key').notNull(),
    outcomeId: text('outcome_id').notNull(),
    /** The price in ten-thousandths while on offer; kept after it goes off offer, for the settled view. */
    odds: bigint('odds', { mode: 'bigint' }),
    active: boolean('active').notNull(),
    /** Settled: won or not, and the factors as exact fractions "num/den". */
    won: boolean('won'),
    voidFactor: text('void_factor'),
    deadHeatFactor: text('dead_heat_factor'),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.marketKey, table.outcomeId] })],
);

/**
 * Every event message received, keyed by producer, event and sequence: a message already here is
 * a duplicate. `applied` is false while it waits for the gap before it to fill.
 */
export const sportsbookFeedMessages = pgTable(
  'sportsbook_feed_messages',
  {
    producer: text('producer').notNull(),
    eventId: text('event_id').notNull(),
    sequence: integer('sequence').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    applied: boolean('applied').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.producer, table.eventId, table.sequence] })],
);

/** Per producer and event, the sequence applied next: the row a message's transaction locks. */
export const sportsbookFeedCursors = pgTable(
  'sportsbook_feed_cursors',
  {
    producer: text('producer').notNull(),
    eventId: text('event_id').notNull(),
    nextSequence: integer('next_sequence')
      .notNull()
      .default(sql`1`),
  },
  (table) => [primaryKey({ columns: [table.producer, table.eventId] })],
);
