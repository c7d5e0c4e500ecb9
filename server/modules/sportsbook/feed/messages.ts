/**
 * The unified odds feed's messages (issue 14), as zod schemas: whatever provider feeds the
 * sportsbook (the built-in simulator first, a real feed later) hands the adapter's handler these
 * shapes, and nothing is applied that did not parse. Prices are decimal strings ("1.85"), factors
 * decimal numbers as the feed sends them (void_factor 0.5, dead_heat_factor 0.3333…), times epoch
 * milliseconds. Every message about an event carries that event's sequence number, counted by the
 * producer from 1, which the sequencer uses to apply each message once and in order.
 */
import { z } from 'zod';
import { parseOdds } from '#common/sportsbook/odds';
import { ratioFromDecimal, type Ratio } from '#common/sportsbook/ratio';
import { EVENT_STATUSES } from '#common/sportsbook/types';
import type { OutcomeResult } from '../rules/settlement';

const producer = z.string().regex(/^[a-z0-9_-]{1,32}$/);
const epochMs = z.number().int().nonnegative();
const specifiers = z.record(z.string().regex(/^[a-z_]{1,32}$/), z.string().max(32)).default({});

const eventMessage = {
  producer,
  event_id: z.string().min(1).max(64),
  timestamp: epochMs,
  sequence: z.number().int().positive(),
};

const marketRef = { type: z.string().min(1).max(64), specifiers };

const decimalPrice = z.string().refine((text) => {
  try {
    parseOdds(text);
    return true;
  } catch {
    return false;
  }
}, 'a decimal price between 1.01 and 1000');

/** A factor as written by String(number): a plain decimal in [0, 1], never exponent notation. */
const factor = z
  .number()
  .min(0)
  .max(1)
  .refine((value) => /^\d(\.\d+)?$/.test(String(value)), 'a plain decimal factor');

export const oddsChangeSchema = z.object({
  type: z.literal('odds_change'),
  ...eventMessage,
  event_status: z
    .object({
      status: z.enum(EVENT_STATUSES),
      home_score: z.number().int().nonnegative(),
      away_score: z.number().int().nonnegative(),
      clock_minute: z.number().int().nonnegative().optional(),
    })
    .optional(),
  markets: z
    .array(
      z.object({
        ...marketRef,
        status: z.enum(['active', 'suspended', 'deactivated']),
        outcomes: z.array(z.object({ id: z.string().min(1).max(32), odds: decimalPrice, active: z.boolean() })).default([]),
      }),
    )
    .default([]),
});

/** Stops betting on the event's markets (all of them, or those of the given types) until the next odds change. */
export const betStopSchema = z.object({
  type: z.literal('bet_stop'),
  ...eventMessage,
  market_types: z.array(z.string()).optional(),
});

export const betSettlementSchema = z.object({
  type: z.literal('bet_settlement'),
  ...eventMessage,
  /** Provisional results may still change; confirmed ones are final unless rolled back. */
  certainty: z.enum(['provisional', 'confirmed']),
  markets: z
    .array(
      z.object({
        ...marketRef,
        outcomes: z
          .array(
            z.object({
              id: z.string().min(1).max(32),
              result: z.union([z.literal(0), z.literal(1)]),
              void_factor: factor.default(0),
              dead_heat_factor: factor.refine((value) => value > 0, 'a dead-heat factor above zero').default(1),
            }),
          )
          .min(1),
      }),
    )
    .min(1),
});

/** Voids bets on the markets placed within [start_time, end_time) (either bound open when absent). */
export const betCancelSchema = z.object({
  type: z.literal('bet_cancel'),
  ...eventMessage,
  start_time: epochMs.optional(),
  end_time: epochMs.optional(),
  markets: z.array(z.object({ ...marketRef, void_reason: z.string().max(64).optional() })).min(1),
});

export const rollbackBetSettlementSchema = z.object({
  type: z.literal('rollback_bet_settlement'),
  ...eventMessage,
  markets: z.array(z.object(marketRef)).min(1),
});

export const rollbackBetCancelSchema = z.object({
  type: z.literal('rollback_bet_cancel'),
  ...eventMessage,
  markets: z.array(z.object(marketRef)).min(1),
});

export const fixtureChangeSchema = z.object({
  type: z.literal('fixture_change'),
  ...eventMessage,
  change_type: z.enum(['new', 'start_time', 'cancelled', 'format', 'coverage']),
  start_time: epochMs.optional(),
});

/** A producer's heartbeat; subscribed=false says it lost its own feed and its prices cannot be trusted. */
export const aliveSchema = z.object({
  type: z.literal('alive'),
  producer,
  timestamp: epochMs,
  subscribed: z.boolean(),
});

export const feedMessageSchema = z.discriminatedUnion('type', [
  oddsChangeSchema,
  betStopSchema,
  betSettlementSchema,
  betCancelSchema,
  rollbackBetSettlementSchema,
  rollbackBetCancelSchema,
  fixtureChangeSchema,
  aliveSchema,
]);

export type FeedMessage = z.infer<typeof feedMessageSchema>;
/** What a producer writes (defaults may be left out). */
export type FeedMessageInput = z.input<typeof feedMessageSchema>;
export type EventFeedMessage = Exclude<FeedMessage, { type: 'alive' }>;
export type BetSettlementMessage = z.infer<typeof betSettlementSchema>;
export type BetCancelMessage = z.infer<typeof betCancelSchema>;

export function parseFeedMessage(raw: unknown): FeedMessage {
  return feedMessageSchema.parse(raw);
}

function factorRatio(value: number): Ratio {
  return ratioFromDecimal(String(value));
}

/** A settled outcome as the settlement rules read it, with the feed's factors exact. */
export function outcomeResultFromFeed(outcome: BetSettlementMessage['markets'][number]['outcomes'][number]): OutcomeResult {
  return {
    won: outcome.result === 1,
    voidFactor: factorRatio(outcome.void_factor),
    deadHeatFactor: factorRatio(outcome.dead_heat_factor),
  };
}

/** Whether a bet placed at `placedAt` falls in a cancel's window and is void. */
export function cancelCovers(cancel: Pick<BetCancelMessage, 'start_time' | 'end_time'>, placedAt: number): boolean {
  return (
    (cancel.start_time === undefined || placedAt >= cancel.start_time) &&
    (cancel.end_time === undefined || placedAt < cancel.end_time)
  );
}
