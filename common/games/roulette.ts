/**
 * European roulette: one zero, 37 pockets, every standard bet.
 *
 * Draws: one, pocket = uniformInt(37) (0 … 36).
 * Bets and what they pay (to one, the stake comes back on top):
 *   straight   1 number                                   35
 *   split      2 adjacent numbers (also 0-1, 0-2, 0-3)     17
 *   street     3 numbers of a row (also 0-1-2, 0-2-3)      11
 *   corner     4 numbers meeting at a corner (also 0-1-2-3) 8
 *   line       6 numbers of two adjacent rows              5
 *   dozen      1–12, 13–24, 25–36                          2
 *   column     1, 4 … 34 / 2, 5 … 35 / 3, 6 … 36           2
 *   red, black, odd, even, low (1–18), high (19–36)       1
 * Zero loses every outside bet. A bet covering n numbers returns stake × 36 / n, a whole number
 * of minor units: no rounding.
 * RTP: n / 37 × 36 / n = 36 / 37 = 97.30 % on every bet and any mix of bets.
 */
import { InvalidBetError } from './errors';
import { uniformInt, type Rng } from './fair';
import { requireStake } from './payout';

export const ROULETTE_POCKETS = 37;
export const ROULETTE_RTP = 36 / 37;
/** More bets than this on one spin is a broken client, not a player. */
export const ROULETTE_MAX_BETS = 200;

export type InsideBetKind = 'straight' | 'split' | 'street' | 'corner' | 'line';
export type OutsideBetKind = 'red' | 'black' | 'odd' | 'even' | 'low' | 'high';

export type RouletteBet =
  | { kind: InsideBetKind; numbers: number[]; stakeMinor: bigint }
  | { kind: 'dozen' | 'column'; index: 1 | 2 | 3; stakeMinor: bigint }
  | { kind: OutsideBetKind; stakeMinor: bigint };

export type RouletteBetKind = RouletteBet['kind'];

/** What each kind pays to one. */
export const ROULETTE_PAYS: Record<RouletteBetKind, number> = {
  straight: 35,
  split: 17,
  street: 11,
  corner: 8,
  line: 5,
  dozen: 2,
  column: 2,
  red: 1,
  black: 1,
  odd: 1,
  even: 1,
  low: 1,
  high: 1,
};

export const RED_NUMBERS: ReadonlySet<number> = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);

export type PocketColor = 'green' | 'red' | 'black';

export function pocketColor(pocket: number): PocketColor {
  return pocket === 0 ? 'green' : RED_NUMBERS.has(pocket) ? 'red' : 'black';
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const setKey = (numbers: readonly number[]) => [...numbers].sort((a, b) => a - b).join('-');

/**
 * Every legal inside bet on the layout (three numbers a row: 1-2-3, 4-5-6, …; n and n + 3 are
 * neighbours in a column; zero touches 1, 2 and 3).
 */
function insideBets(): Record<InsideBetKind, Set<string>> {
  const rowStarts = range(0, 11).map((row) => 3 * row + 1);
  const straight = range(0, 36).map((n) => [n]);
  const split = [
    ...range(1, 36)
      .filter((n) => n % 3 !== 0)
      .map((n) => [n, n + 1]),
    ...range(1, 33).map((n) => [n, n + 3]),
    [0, 1],
    [0, 2],
    [0, 3],
  ];
  const street = [...rowStarts.map((n) => [n, n + 1, n + 2]), [0, 1, 2], [0, 2, 3]];
  const corner = [
    ...range(1, 32)
      .filter((n) => n % 3 !== 0)
      .map((n) => [n, n + 1, n + 3, n + 4]),
    [0, 1, 2, 3],
  ];
  const line = rowStarts.slice(0, 11).map((n) => range(n, n + 5));
  const keys = (sets: number[][]) => new Set(sets.map(setKey));
  return { straight: keys(straight), split: keys(split), street: keys(street), corner: keys(corner), line: keys(line) };
}

const INSIDE_BETS = insideBets();

const DOZENS = [1, 2, 3].map((index) => range(1, 12).map((n) => n + 12 * (index - 1)));
const COLUMNS = [1, 2, 3].map((index) => range(0, 11).map((row) => 3 * row + index));

const OUTSIDE_NUMBERS: Record<OutsideBetKind, number[]> = {
  red: [...RED_NUMBERS],
  black: range(1, 36).filter((n) => !RED_NUMBERS.has(n)),
  odd: range(1, 36).filter((n) => n % 2 === 1),
  even: range(1, 36).filter((n) => n % 2 === 0),
  low: range(1, 18),
  high: range(19, 36),
};

/** The numbers a bet covers; throws InvalidBetError for a bet the layout does not have. */
export function coveredNumbers(bet: RouletteBet): number[] {
  requireStake(bet.stakeMinor);
  switch (bet.kind) {
    case 'straight':
    case 'split':
    case 'street':
    case 'corner':
    case 'line': {
      const numbers = Array.isArray(bet.numbers) ? [...bet.numbers].sort((a, b) => a - b) : [];
      if (!INSIDE_BETS[bet.kind].has(setKey(numbers)))
        throw new InvalidBetError(`${String(numbers)} is not a ${bet.kind} on the layout`);
      return numbers;
    }
    case 'dozen':
      return DOZENS[requireIndex(bet.index) - 1]!;
    case 'column':
      return COLUMNS[requireIndex(bet.index) - 1]!;
    case 'red':
    case 'black':
    case 'odd':
    case 'even':
    case 'low':
    case 'high':
      return OUTSIDE_NUMBERS[bet.kind];
    default:
      throw new InvalidBetError(`unknown bet ${String((bet as { kind: unknown }).kind)}`);
  }
}

function requireIndex(index: number): number {
  if (index !== 1 && index !== 2 && index !== 3) throw new InvalidBetError('a dozen or column is 1, 2 or 3');
  return index;
}

export interface RouletteBetResult {
  bet: RouletteBet;
  isWin: boolean;
  payoutMinor: bigint;
}

export interface RouletteOutcome {
  pocket: number;
  color: PocketColor;
  results: RouletteBetResult[];
  stakeMinor: bigint;
  payoutMinor: bigint;
}

/**
 * The numbers each bet covers; throws InvalidBetError unless there is at least one bet and
 * every bet is on the layout.
 */
export function validateRouletteBets(bets: readonly RouletteBet[]): number[][] {
  if (!Array.isArray(bets) || bets.length === 0) throw new InvalidBetError('place at least one bet');
  if (bets.length > ROULETTE_MAX_BETS) throw new InvalidBetError(`at most ${ROULETTE_MAX_BETS} bets a spin`);
  return bets.map(coveredNumbers);
}

/** Every bet against the pocket the ball fell in (the live wheel settles with this too). */
export function settleRoulette(bets: readonly RouletteBet[], pocket: number): RouletteOutcome {
  return settleCovered(bets, validateRouletteBets(bets), pocket);
}

function settleCovered(bets: readonly RouletteBet[], covered: number[][], pocket: number): RouletteOutcome {
  if (!Number.isInteger(pocket) || pocket < 0 || pocket >= ROULETTE_POCKETS) throw new RangeError(`no pocket ${pocket}`);
  let stakeMinor = 0n;
  let payoutMinor = 0n;
  const results = bets.map((bet, index) => {
    const numbers = covered[index]!;
    const isWin = numbers.includes(pocket);
    const payout = isWin ? (bet.stakeMinor * 36n) / BigInt(numbers.length) : 0n;
    stakeMinor += bet.stakeMinor;
    payoutMinor += payout;
    return { bet, isWin, payoutMinor: payout };
  });
  return { pocket, color: pocketColor(pocket), results, stakeMinor, payoutMinor };
}

export function spinRoulettePocket(rng: Rng): number {
  return uniformInt(rng, ROULETTE_POCKETS);
}

/** Checks the bets before the draw, then spins and settles. */
export function playRoulette(bets: readonly RouletteBet[], rng: Rng): RouletteOutcome {
  const covered = validateRouletteBets(bets);
  return settleCovered(bets, covered, spinRoulettePocket(rng));
}
