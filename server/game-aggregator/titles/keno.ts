/**
 * Snowball Keno (Northlight Studios): the player picks 1 to 10 of 40 numbers, 10 are drawn, and
 * the number of hits pays by the pick count's table. The tables are the shapes below scaled to
 * the catalogue's 95 % and rounded to hundredths of the stake; KENO_RETURNS holds the exact
 * return of each pick count (hypergeometric odds).
 */
import type { PlayerTitle, RoundStep, Rng } from '../title';
import { isRecord, payOf, pick, readStake } from './stake';

export const KENO_NUMBERS = 40;
export const KENO_DRAWN = 10;
export const KENO_MAX_PICKS = 10;
const TARGET = 0.95;

/** Relative pays by hits (index = hits) for 1 … 10 picks. */
const SHAPES: readonly (readonly number[])[] = [
  [0, 4],
  [0, 1, 9],
  [0, 0, 2.5, 25],
  [0, 0, 1.5, 5, 80],
  [0, 0, 1, 3, 15, 200],
  [0, 0, 0.5, 2, 8, 50, 500],
  [0, 0, 0.5, 1, 4, 20, 100, 1000],
  [0, 0, 0, 1, 3, 10, 50, 300, 2000],
  [0, 0, 0, 1, 2, 6, 25, 100, 800, 4000],
  [0, 0, 0, 1, 2, 4, 12, 50, 300, 1500, 10000],
];

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/** Probability of `hits` hits with `picks` picks. */
export function hitProbability(picks: number, hits: number): number {
  return (choose(picks, hits) * choose(KENO_NUMBERS - picks, KENO_DRAWN - hits)) / choose(KENO_NUMBERS, KENO_DRAWN);
}

const returnOf = (picks: number, pays: readonly number[]) =>
  pays.reduce((sum, pay, hits) => sum + pay * hitProbability(picks, hits), 0);

/** Hundredths of the stake: KENO_PAYS[picks - 1][hits]. */
export const KENO_PAYS: readonly (readonly number[])[] = SHAPES.map((shape, index) => {
  const scale = TARGET / returnOf(index + 1, shape);
  return shape.map((pay) => Math.round(pay * scale * 100));
});

export const KENO_RETURNS: readonly number[] = KENO_PAYS.map((pays, index) => returnOf(index + 1, pays) / 100);

export interface KenoView {
  kind: 'keno';
  stake: string;
  picks: number[];
  drawn: number[];
  hits: number[];
  /** Hundredths of the stake. */
  multiplier: number;
  pays: readonly number[];
  win: string;
}

/** 1 … 10 different numbers of 1 … 40, or undefined. */
function readPicks(input: unknown): number[] | undefined {
  if (!isRecord(input) || !Array.isArray(input.picks)) return undefined;
  const picks = input.picks;
  if (picks.length < 1 || picks.length > KENO_MAX_PICKS) return undefined;
  if (!picks.every((value) => Number.isInteger(value) && value >= 1 && value <= KENO_NUMBERS)) return undefined;
  return new Set(picks).size === picks.length ? [...(picks as number[])].sort((a, b) => a - b) : undefined;
}

/** Ten different numbers, each in draw order (a partial Fisher–Yates shuffle). */
export function drawNumbers(rng: Rng): number[] {
  const pool = Array.from({ length: KENO_NUMBERS }, (_, index) => index + 1);
  for (let index = 0; index < KENO_DRAWN; index++) {
    const other = index + pick(rng, KENO_NUMBERS - index);
    [pool[index], pool[other]] = [pool[other]!, pool[index]!];
  }
  return pool.slice(0, KENO_DRAWN);
}

export function playKeno(stakeMinor: bigint, picks: number[], rng: Rng): KenoView {
  const drawn = drawNumbers(rng);
  const hits = picks.filter((number) => drawn.includes(number));
  const pays = KENO_PAYS[picks.length - 1]!;
  const multiplier = pays[hits.length] ?? 0;
  const win = payOf(stakeMinor, BigInt(multiplier), 100n);
  return { kind: 'keno', stake: stakeMinor.toString(), picks, drawn, hits, multiplier, pays, win: win.toString() };
}

export const SNOWBALL_KENO: PlayerTitle = {
  id: 'snowball-keno',
  provider: 'northlight',
  kind: 'keno',
  start(input: unknown, rng: Rng): RoundStep | undefined {
    const stakeMinor = readStake(input);
    const picks = readPicks(input);
    if (stakeMinor === undefined || !picks) return undefined;
    const view = playKeno(stakeMinor, picks, rng);
    return { stakeMinor, winMinor: BigInt(view.win), done: true, view };
  },
};
