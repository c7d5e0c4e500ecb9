/**
 * LiveWave "Auto Roulette": a European single-zero wheel spun once per round for the table.
 * Spots: `straight-N` (N = 0 … 36, 35 to 1), red, black, odd, even, low (1–18), high (19–36)
 * (1 to 1), dozen-1/2/3 and column-1/2/3 (2 to 1). Zero loses every outside bet. A bet covering
 * n numbers returns stake × 36 / n, so every spot returns 36/37 = 97.297 %.
 */
import type { SharedTable } from '../title';
import { uniformInt } from './cards';
import { LIVE_BETTING_MS, LIVE_RESULT_MS, parseLiveBet } from './live-bet';
import { isRecord, limitsOf } from './stakes';

export const AUTO_ROULETTE_LIMITS = limitsOf('0.20', '1000.00');

export const RED_NUMBERS: ReadonlySet<number> = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);

/** The pockets in wheel order from zero, clockwise (the client draws the wheel from it). */
export const WHEEL_ORDER = [
  0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12,
  35, 3, 26,
] as const;

const OUTSIDE: Record<string, (n: number) => boolean> = {
  red: (n) => RED_NUMBERS.has(n),
  black: (n) => n > 0 && !RED_NUMBERS.has(n),
  odd: (n) => n > 0 && n % 2 === 1,
  even: (n) => n > 0 && n % 2 === 0,
  low: (n) => n >= 1 && n <= 18,
  high: (n) => n >= 19,
  'dozen-1': (n) => n >= 1 && n <= 12,
  'dozen-2': (n) => n >= 13 && n <= 24,
  'dozen-3': (n) => n >= 25,
  'column-1': (n) => n > 0 && n % 3 === 1,
  'column-2': (n) => n > 0 && n % 3 === 2,
  'column-3': (n) => n > 0 && n % 3 === 0,
};

export const ROULETTE_SPOTS: readonly string[] = [
  ...Array.from({ length: 37 }, (_, n) => `straight-${n}`),
  ...Object.keys(OUTSIDE),
];

/** The numbers a spot covers. */
export function coveredBy(spot: string): number[] {
  if (spot.startsWith('straight-')) return [Number(spot.slice('straight-'.length))];
  const covers = OUTSIDE[spot];
  if (!covers) throw new TypeError(`auto-roulette: unknown spot ${spot}`);
  return Array.from({ length: 37 }, (_, n) => n).filter(covers);
}

export interface RouletteOutcome {
  kind: 'roulette';
  pocket: number;
  color: 'green' | 'red' | 'black';
}

export const autoRoulette: SharedTable = {
  id: 'auto-roulette',
  provider: 'livewave',
  kind: 'live-table',
  bettingMs: LIVE_BETTING_MS,
  resultMs: LIVE_RESULT_MS,
  spots: ROULETTE_SPOTS,
  parseBet: (input) => parseLiveBet(input, ROULETTE_SPOTS, AUTO_ROULETTE_LIMITS),
  draw(rng): RouletteOutcome {
    const pocket = uniformInt(rng, 37);
    return { kind: 'roulette', pocket, color: pocket === 0 ? 'green' : RED_NUMBERS.has(pocket) ? 'red' : 'black' };
  },
  settle(bet, outcome) {
    if (
      !isRecord(outcome) ||
      !Number.isInteger(outcome.pocket) ||
      (outcome.pocket as number) < 0 ||
      (outcome.pocket as number) > 36
    )
      throw new TypeError('auto-roulette: not an outcome of this table');
    const numbers = coveredBy(bet.spot);
    return numbers.includes(outcome.pocket as number) ? (bet.stakeMinor * 36n) / BigInt(numbers.length) : 0n;
  },
};
