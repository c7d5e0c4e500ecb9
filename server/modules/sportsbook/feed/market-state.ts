/**
 * What the feed's messages do to an event's markets (issue 14), as a pure reducer: the consumer
 * applies each message the sequencer releases and acts on the effects (settle or void tickets,
 * undo either). Applying a message twice changes nothing the second time, which keeps the
 * consumer idempotent even if a message slips past the sequencer (after a recovery, say).
 *
 * - odds_change: market status and prices, unless the market is settled or cancelled;
 * - bet_stop: suspends the open markets (all, or those of the listed types);
 * - bet_settlement: results per outcome, provisional then confirmed; a confirmed result that
 *   differs from the provisional one is a correction;
 * - bet_cancel / rollback_bet_cancel and rollback_bet_settlement: void, or undo, restoring the
 *   status the market had before; a cancel for a time window leaves the bets outside it to a
 *   later settlement, which still applies;
 * - fixture_change: the start time, or the whole event cancelled;
 * - a producer going down suspends every open market (producerDown).
 */
import { parseMarketKey, marketKey } from '#common/sportsbook/catalogue';
import { parseOdds } from '#common/sportsbook/odds';
import { compare } from '#common/sportsbook/ratio';
import type { EventStatus, MarketStatus } from '#common/sportsbook/types';
import type { OutcomeResult } from '../rules/settlement';
import { outcomeResultFromFeed, type EventFeedMessage } from './messages';

type OpenStatus = Extract<MarketStatus, 'active' | 'suspended' | 'deactivated'>;

export interface MarketState {
  status: MarketStatus;
  /** Prices of the outcomes on offer, in ten-thousandths. */
  odds: Readonly<Record<string, bigint>>;
  settlement?: { certainty: 'provisional' | 'confirmed'; results: Readonly<Record<string, OutcomeResult>> };
  cancel?: { startTime?: number; endTime?: number };
  /** The status a rollback returns to. */
  statusBefore?: OpenStatus;
}

export interface EventState {
  status: EventStatus;
  startTime?: number;
  score?: { home: number; away: number };
  clockMinute?: number;
  markets: Readonly<Record<string, MarketState>>;
}

export type MarketEffect =
  | {
      kind: 'settle';
      key: string;
      certainty: 'provisional' | 'confirmed';
      results: Record<string, OutcomeResult>;
      correction: boolean;
    }
  | { kind: 'rollback_settlement'; key: string }
  | { kind: 'cancel'; key: string; startTime?: number; endTime?: number }
  | { kind: 'rollback_cancel'; key: string };

export const NEW_EVENT: EventState = { status: 'not_started', markets: {} };

const isOpen = (market: MarketState | undefined): market is MarketState & { status: OpenStatus } =>
  market !== undefined && market.status !== 'settled' && market.status !== 'cancelled';

/**
 * A market cancelled for a time window only (issue 14 "Cancels void bets placed in their window"):
 * the bets placed outside it still stand, so a later settlement of the market applies to them.
 * A cancel without a window voids every bet: nothing is left to settle.
 */
const isCancelledWhole = (market: MarketState): boolean =>
  market.status === 'cancelled' && market.cancel?.startTime === undefined && market.cancel?.endTime === undefined;

function sameResults(a: Readonly<Record<string, OutcomeResult>>, b: Readonly<Record<string, OutcomeResult>>): boolean {
  const ids = Object.keys(a);
  return (
    ids.length === Object.keys(b).length &&
    ids.every((id) => {
      const [x, y] = [a[id]!, b[id]];
      return (
        y !== undefined &&
        x.won === y.won &&
        compare(x.voidFactor, y.voidFactor) === 0 &&
        compare(x.deadHeatFactor, y.deadHeatFactor) === 0
      );
    })
  );
}

type Step = { state: EventState; effects: MarketEffect[] };

function withMarket(state: EventState, key: string, market: MarketState): EventState {
  return { ...state, markets: { ...state.markets, [key]: market } };
}

function oddsChange(state: EventState, message: Extract<EventFeedMessage, { type: 'odds_change' }>): Step {
  let next: EventState = message.event_status
    ? {
        ...state,
        status: message.event_status.status,
        score: { home: message.event_status.home_score, away: message.event_status.away_score },
        clockMinute: message.event_status.clock_minute ?? state.clockMinute,
      }
    : state;
  for (const market of message.markets) {
    const key = marketKey(market.type, market.specifiers);
    const before = next.markets[key];
    if (before && !isOpen(before)) continue;
    const odds = Object.fromEntries(market.outcomes.filter((o) => o.active).map((o) => [o.id, parseOdds(o.odds)]));
    next = withMarket(next, key, { status: market.status, odds });
  }
  return { state: next, effects: [] };
}

function betStop(state: EventState, types: readonly string[] | undefined): Step {
  let next = state;
  for (const [key, market] of Object.entries(state.markets))
    if (market.status === 'active' && (!types || types.includes(parseMarketKey(key).type)))
      next = withMarket(next, key, { ...market, status: 'suspended' });
  return { state: next, effects: [] };
}

function settlement(state: EventState, message: Extract<EventFeedMessage, { type: 'bet_settlement' }>): Step {
  let next = state;
  const effects: MarketEffect[] = [];
  for (const market of message.markets) {
    const key = marketKey(market.type, market.specifiers);
    const before = next.markets[key] ?? { status: 'suspended' as const, odds: {} };
    if (isCancelledWhole(before)) continue;
    const results = Object.fromEntries(market.outcomes.map((o) => [o.id, outcomeResultFromFeed(o)]));
    const previous = before.settlement;
    const unchanged = previous !== undefined && sameResults(previous.results, results);
    // A provisional result after a confirmed one of the same content is old news.
    if (unchanged && (previous.certainty === message.certainty || previous.certainty === 'confirmed')) continue;
    next = withMarket(next, key, {
      ...before,
      status: 'settled',
      settlement: { certainty: message.certainty, results },
      statusBefore: isOpen(before) ? before.status : before.statusBefore,
    });
    effects.push({
      kind: 'settle',
      key,
      certainty: message.certainty,
      results,
      correction: previous !== undefined && !unchanged,
    });
  }
  return { state: next, effects };
}

function rollbackSettlement(state: EventState, keys: readonly string[]): Step {
  let next = state;
  const effects: MarketEffect[] = [];
  for (const key of keys) {
    const market = next.markets[key];
    if (market?.status !== 'settled') continue;
    // A window's cancel still stands: the market is cancelled for it, waiting for the corrected result.
    const { settlement: _settlement, ...rest } = market;
    next = withMarket(
      next,
      key,
      market.cancel ? { ...rest, status: 'cancelled' } : { status: market.statusBefore ?? 'suspended', odds: market.odds },
    );
    effects.push({ kind: 'rollback_settlement', key });
  }
  return { state: next, effects };
}

function betCancel(state: EventState, message: Extract<EventFeedMessage, { type: 'bet_cancel' }>): Step {
  let next = state;
  const effects: MarketEffect[] = [];
  for (const market of message.markets) {
    const key = marketKey(market.type, market.specifiers);
    const before = next.markets[key] ?? { status: 'suspended' as const, odds: {} };
    if (before.status === 'cancelled') continue;
    const cancel = { startTime: message.start_time, endTime: message.end_time };
    next = withMarket(next, key, {
      ...before,
      status: 'cancelled',
      cancel,
      statusBefore: isOpen(before) ? before.status : before.statusBefore,
    });
    effects.push({ kind: 'cancel', key, ...cancel });
  }
  return { state: next, effects };
}

function rollbackCancel(state: EventState, keys: readonly string[]): Step {
  let next = state;
  const effects: MarketEffect[] = [];
  for (const key of keys) {
    const market = next.markets[key];
    // A cancel is undone while the market keeps it: cancelled, or settled after a window's cancel.
    if (!market?.cancel) continue;
    const { cancel: _cancel, ...rest } = market;
    next = withMarket(next, key, { ...rest, status: rest.settlement ? 'settled' : (market.statusBefore ?? 'suspended') });
    effects.push({ kind: 'rollback_cancel', key });
    // The bets of the window, open again, take the market's result like the others.
    if (market.status === 'settled' && rest.settlement)
      effects.push({
        kind: 'settle',
        key,
        certainty: rest.settlement.certainty,
        results: { ...rest.settlement.results },
        correction: false,
      });
  }
  return { state: next, effects };
}

const keysOf = (markets: readonly { type: string; specifiers: Record<string, string> }[]) =>
  markets.map((market) => marketKey(market.type, market.specifiers));

export function applyToEvent(state: EventState, message: EventFeedMessage): Step {
  switch (message.type) {
    case 'odds_change':
      return oddsChange(state, message);
    case 'bet_stop':
      return betStop(state, message.market_types);
    case 'bet_settlement':
      return settlement(state, message);
    case 'rollback_bet_settlement':
      return rollbackSettlement(state, keysOf(message.markets));
    case 'bet_cancel':
      return betCancel(state, message);
    case 'rollback_bet_cancel':
      return rollbackCancel(state, keysOf(message.markets));
    case 'fixture_change':
      return {
        state: {
          ...state,
          startTime: message.start_time ?? state.startTime,
          status: message.change_type === 'cancelled' ? 'cancelled' : state.status,
        },
        effects: [],
      };
  }
}

/** A silent producer: every market still open is suspended until its next odds change. */
export function producerDown(state: EventState): EventState {
  return betStop(state, undefined).state;
}
