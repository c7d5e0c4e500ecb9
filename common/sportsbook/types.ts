/**
 * The sportsbook's contract types (issue 14): what the front end shows of sports, events, markets
 * and outcomes, and the player's betting settings. Odds travel as decimal strings ("1.85") and are
 * handled as bigint ten-thousandths (odds.ts); amounts follow common/money.ts.
 */
import type { Locale } from '../locale';

export const SPORTS = ['football', 'tennis', 'basketball', 'ice_hockey'] as const;
export type Sport = (typeof SPORTS)[number];

/** An event's life, as the unified odds feed reports it. */
export const EVENT_STATUSES = [
  'not_started',
  'live',
  'suspended',
  'ended',
  'closed',
  'cancelled',
  'postponed',
  'interrupted',
  'abandoned',
] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/**
 * active: bets accepted; suspended: temporarily not (bet stop, dangerous moment, silent producer);
 * deactivated: gone from the offer; settled and cancelled: final for bets on it (a rollback aside).
 */
export const MARKET_STATUSES = ['active', 'suspended', 'deactivated', 'settled', 'cancelled'] as const;
export type MarketStatus = (typeof MARKET_STATUSES)[number];

export const ODDS_FORMATS = ['decimal', 'fractional', 'american'] as const;
export type OddsFormat = (typeof ODDS_FORMATS)[number];

/** The player's setting for a price that moved between the slip and the bet: refuse, take it if higher, take any. */
export const ODDS_CHANGE_ACCEPTANCES = ['none', 'higher', 'any'] as const;
export type OddsChangeAcceptance = (typeof ODDS_CHANGE_ACCEPTANCES)[number];

/** A market's specifiers by name, values as the feed writes them: { total: '2.5' }, { hcp: '-1.25' }. */
export type Specifiers = Readonly<Record<string, string>>;

/** Names per locale: every player-facing text of the catalogue has both. */
export type Localized = Readonly<Record<Locale, string>>;

export interface Competitor {
  id: string;
  name: string;
}

export interface EventScore {
  home: number;
  away: number;
  /** Per period (halves, sets, quarters, periods) as far as played. */
  periods: readonly { home: number; away: number }[];
}

export interface SportEventView {
  id: string;
  sport: Sport;
  /** A country or region: England, Italy, International. */
  category: { id: string; name: string };
  /** A league or competition. */
  tournament: { id: string; name: string };
  competitors: readonly [Competitor, Competitor];
  /** ISO 8601. */
  start_time: string;
  status: EventStatus;
  score: EventScore | null;
  /** Match clock in whole minutes for timed sports, null where the sport has none (tennis). */
  clock_minute: number | null;
}

export interface OutcomeView {
  id: string;
  name: string;
  /** Decimal odds, e.g. "1.85". */
  odds: string;
  active: boolean;
}

export interface MarketView {
  /** The market's key: type and specifiers (catalogue.marketKey). */
  key: string;
  type: string;
  specifiers: Specifiers;
  name: string;
  status: MarketStatus;
  outcomes: readonly OutcomeView[];
}

/** Why a slip cannot be placed as it is (the server's validateSlip); the app translates the code. */
export const SLIP_PROBLEM_CODES = [
  'NO_SELECTIONS',
  'TOO_MANY_SELECTIONS',
  'WRONG_SELECTION_COUNT',
  'DUPLICATE_SELECTION',
  'RELATED_SELECTIONS',
  'STAKE_NOT_POSITIVE',
] as const;
export type SlipProblemCode = (typeof SLIP_PROBLEM_CODES)[number];
