/**
 * What the simulator sends (issue 14): its prices and results as unified-odds-feed messages, and
 * the disorder real feeds show (duplicates, messages out of order) so that the consumer's
 * sequencer is exercised by the default provider itself.
 */
import { uniformInt, nextFloat, type Rng } from '#common/games/fair';
import { oddsToDecimalString } from '#common/sportsbook/odds';
import { ratioToNumber } from '#common/sportsbook/ratio';
import type { Specifiers } from '#common/sportsbook/types';
import type { FeedMessageInput } from '../feed/messages';
import { resolveMarket, type MatchResult } from '../rules/resolve';
import type { PricedMarket } from './pricing';

export interface MessageHeader {
  producer: string;
  eventId: string;
  sequence: number;
  timestamp: number;
}

function header(h: MessageHeader) {
  return { producer: h.producer, event_id: h.eventId, sequence: h.sequence, timestamp: h.timestamp };
}

export function oddsChangeMessage(h: MessageHeader, markets: readonly PricedMarket[]): FeedMessageInput {
  return {
    type: 'odds_change',
    ...header(h),
    markets: markets.map((market) => ({
      type: market.type,
      specifiers: { ...market.specifiers },
      status: market.status,
      outcomes: market.outcomes.flatMap((outcome) =>
        outcome.oddsUnits === undefined ? [] : [{ id: outcome.id, odds: oddsToDecimalString(outcome.oddsUnits), active: true }],
      ),
    })),
  };
}

/** Settles the markets from the result with the resolver settlement itself uses. */
export function settlementMessage(
  h: MessageHeader,
  result: MatchResult,
  markets: readonly { type: string; specifiers: Specifiers }[],
  certainty: 'provisional' | 'confirmed',
): FeedMessageInput {
  return {
    type: 'bet_settlement',
    ...header(h),
    certainty,
    markets: markets.map(({ type, specifiers }) => ({
      type,
      specifiers: { ...specifiers },
      outcomes: Object.entries(resolveMarket(result, type, specifiers)).map(([id, outcome]) => ({
        id,
        result: outcome.won ? (1 as const) : (0 as const),
        // Halves and whole numbers: exact as floats.
        void_factor: ratioToNumber(outcome.voidFactor),
        dead_heat_factor: ratioToNumber(outcome.deadHeatFactor),
      })),
    })),
  };
}

export interface Disorder {
  /** Chance that a message is sent twice. */
  duplicateRate: number;
  /** Chance that a message swaps places with the one before it. */
  swapRate: number;
}

/** The messages as an unreliable feed delivers them: some twice, some out of order. */
export function disorder<T>(rng: Rng, messages: readonly T[], rates: Disorder): T[] {
  const sent: T[] = [];
  for (const message of messages) {
    sent.push(message);
    if (nextFloat(rng) < rates.duplicateRate) sent.splice(uniformInt(rng, sent.length + 1), 0, message);
  }
  for (let i = 1; i < sent.length; i++) if (nextFloat(rng) < rates.swapRate) [sent[i - 1], sent[i]] = [sent[i]!, sent[i - 1]!];
  return sent;
}
