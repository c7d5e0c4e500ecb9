/**
 * LiveWave "Lightning Wheel", a money wheel of 54 segments: 24 × "1", 15 × "2", 8 × "5", 4 × "10",
 * 2 × "20", 1 × "40". A bet on a number wins when the wheel stops on it and pays that number to 1.
 * Before the spin, lightning strikes each number on its own with a fixed chance and gives it a
 * multiplier (×2, ×3, ×5 or ×10 with weights 50, 30, 15, 5: 3.15 on average); a struck winning
 * number pays number × multiplier to 1. The strike chances are set so that every spot returns
 * about 96.1 % (`spotRtp` gives the exact figure; docs/games-rtp.md lists them).
 */
import type { Rng, SharedTable } from '../title';
import { uniformInt } from './cards';
import { LIVE_BETTING_MS, LIVE_RESULT_MS, parseLiveBet } from './live-bet';
import { isRecord, limitsOf } from './stakes';

export const LIGHTNING_WHEEL_LIMITS = limitsOf('0.10', '500.00');

export const WHEEL_VALUES = [1, 2, 5, 10, 20, 40] as const;
export const WHEEL_SPOTS = WHEEL_VALUES.map(String);

/** The segments in wheel order, clockwise from the top (spread so that equal values rarely touch). */
export const WHEEL_SEGMENTS: readonly number[] = [
  1, 2, 1, 5, 2, 1, 10, 1, 2, 1, 5, 1, 2, 20, 1, 2, 1, 5, 1, 2, 10, 1, 2, 1, 5, 1, 2, 1, 40, 1, 5, 2, 1, 10, 2, 1, 1, 5, 2, 1, 2,
  20, 1, 1, 5, 2, 1, 10, 1, 2, 1, 5, 2, 1,
];

/** Chance in 10 000 that lightning strikes each number in a round. */
export const STRIKE_CHANCE: Readonly<Record<string, number>> = {
  '1': 755,
  '2': 1069,
  '5': 453,
  '10': 918,
  '20': 1150,
  '40': 1267,
};

/** Lightning multipliers and their weights (of 100). */
export const MULTIPLIERS: readonly (readonly [number, number])[] = [
  [2, 50],
  [3, 30],
  [5, 15],
  [10, 5],
];

export interface WheelOutcome {
  kind: 'wheel';
  segment: number;
  value: number;
  /** Multiplier per struck number ("5": 3 means a 5 that wins pays 15 to 1). */
  strikes: Record<string, number>;
}

function drawMultiplier(rng: Rng): number {
  let pick = uniformInt(rng, 100);
  for (const [multiplier, weight] of MULTIPLIERS) {
    if (pick < weight) return multiplier;
    pick -= weight;
  }
  throw new RangeError('the multiplier weights must add up to 100');
}

/** Exact return of a bet on one number: P(win) × (1 + number × E[multiplier of that number]). */
export function spotRtp(spot: string): number {
  const value = Number(spot);
  const count = WHEEL_SEGMENTS.filter((segment) => segment === value).length;
  const meanMultiplier = MULTIPLIERS.reduce((sum, [multiplier, weight]) => sum + (multiplier * weight) / 100, 0);
  const strike = STRIKE_CHANCE[spot]! / 10_000;
  return (count / WHEEL_SEGMENTS.length) * (1 + value * (1 - strike + strike * meanMultiplier));
}

export const lightningWheel: SharedTable = {
  id: 'lightning-wheel',
  provider: 'livewave',
  kind: 'live-table',
  bettingMs: LIVE_BETTING_MS,
  resultMs: LIVE_RESULT_MS,
  spots: WHEEL_SPOTS,
  parseBet: (input) => parseLiveBet(input, WHEEL_SPOTS, LIGHTNING_WHEEL_LIMITS),
  draw(rng): WheelOutcome {
    const strikes: Record<string, number> = {};
    for (const spot of WHEEL_SPOTS) if (uniformInt(rng, 10_000) < STRIKE_CHANCE[spot]!) strikes[spot] = drawMultiplier(rng);
    const segment = uniformInt(rng, WHEEL_SEGMENTS.length);
    return { kind: 'wheel', segment, value: WHEEL_SEGMENTS[segment]!, strikes };
  },
  settle(bet, outcome) {
    if (!isRecord(outcome) || !Number.isInteger(outcome.segment) || !isRecord(outcome.strikes))
      throw new TypeError('lightning-wheel: not an outcome of this table');
    const value = WHEEL_SEGMENTS[outcome.segment as number];
    if (value === undefined || !WHEEL_SPOTS.includes(bet.spot))
      throw new TypeError('lightning-wheel: not a bet or outcome of this table');
    if (Number(bet.spot) !== value) return 0n;
    const strike = outcome.strikes[bet.spot];
    const multiplier = typeof strike === 'number' && MULTIPLIERS.some(([m]) => m === strike) ? strike : 1;
    return bet.stakeMinor * BigInt(1 + value * multiplier);
  },
};
