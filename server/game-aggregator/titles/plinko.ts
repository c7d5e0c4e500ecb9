/**
 * Plinko Drop (Red Fox Gaming): a ball falls through 12 rows of pegs, going left or right at
 * each with even odds, into one of 13 slots; the slot's multiplier (by the chosen risk) pays the
 * stake. The multipliers are the shapes below scaled to the catalogue's 97 % and rounded to
 * hundredths; PLINKO_RETURNS holds the exact return of each risk.
 */
import type { PlayerTitle, RoundStep, Rng } from '../title';
import { isRecord, payOf, pick, readStake } from './stake';

export const PLINKO_ROWS = 12;
export const PLINKO_RISKS = ['low', 'medium', 'high'] as const;
export type PlinkoRisk = (typeof PLINKO_RISKS)[number];
const TARGET = 0.97;

const SHAPES: Record<PlinkoRisk, readonly number[]> = {
  low: [10, 3, 1.6, 1.4, 1.1, 1, 0.5, 1, 1.1, 1.4, 1.6, 3, 10],
  medium: [33, 11, 4, 2, 1.1, 0.6, 0.3, 0.6, 1.1, 2, 4, 11, 33],
  high: [170, 24, 8.1, 2, 0.7, 0.2, 0.2, 0.2, 0.7, 2, 8.1, 24, 170],
};

function choose(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/** Probability of each slot: binomial(12, ½). */
export const SLOT_PROBABILITIES = Array.from({ length: PLINKO_ROWS + 1 }, (_, k) => choose(PLINKO_ROWS, k) / 2 ** PLINKO_ROWS);

const returnOf = (multipliers: readonly number[]) =>
  multipliers.reduce((sum, multiplier, slot) => sum + multiplier * SLOT_PROBABILITIES[slot]!, 0);

/** Hundredths of the stake by risk and slot. */
export const PLINKO_MULTIPLIERS: Record<PlinkoRisk, readonly number[]> = Object.fromEntries(
  PLINKO_RISKS.map((risk) => {
    const scale = TARGET / returnOf(SHAPES[risk]);
    return [risk, SHAPES[risk].map((multiplier) => Math.round(multiplier * scale * 100))];
  }),
) as unknown as Record<PlinkoRisk, readonly number[]>;

export const PLINKO_RETURNS: Record<PlinkoRisk, number> = Object.fromEntries(
  PLINKO_RISKS.map((risk) => [risk, returnOf(PLINKO_MULTIPLIERS[risk]) / 100]),
) as Record<PlinkoRisk, number>;

export interface PlinkoView {
  kind: 'plinko';
  stake: string;
  risk: PlinkoRisk;
  /** 0 left, 1 right, row by row. */
  path: number[];
  slot: number;
  /** Hundredths. */
  multiplier: number;
  multipliers: readonly number[];
  win: string;
}

export function dropBall(stakeMinor: bigint, risk: PlinkoRisk, rng: Rng): PlinkoView {
  const path = Array.from({ length: PLINKO_ROWS }, () => pick(rng, 2));
  const slot = path.reduce((sum, step) => sum + step, 0);
  const multiplier = PLINKO_MULTIPLIERS[risk][slot]!;
  const win = payOf(stakeMinor, BigInt(multiplier), 100n);
  return {
    kind: 'plinko',
    stake: stakeMinor.toString(),
    risk,
    path,
    slot,
    multiplier,
    multipliers: PLINKO_MULTIPLIERS[risk],
    win: win.toString(),
  };
}

export const PLINKO_DROP: PlayerTitle = {
  id: 'plinko-drop',
  provider: 'redfox',
  kind: 'plinko',
  start(input: unknown, rng: Rng): RoundStep | undefined {
    const stakeMinor = readStake(input);
    const risk = isRecord(input) ? input.risk : undefined;
    if (stakeMinor === undefined || !PLINKO_RISKS.includes(risk as PlinkoRisk)) return undefined;
    const view = dropBall(stakeMinor, risk as PlinkoRisk, rng);
    return { stakeMinor, winMinor: BigInt(view.win), done: true, view };
  },
};
