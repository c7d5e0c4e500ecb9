import { describe, expect, it } from 'vitest';
import { GameRuleError, InvalidBetError } from './errors';
import { createFairRng, pickDistinct } from './fair';
import {
  cashOutMines,
  minesMultiplier,
  minesMultiplierText,
  minesPayout,
  openCell,
  publicMinesView,
  startMines,
  type MinesState,
} from './mines';
import { amountToMinor } from '../money';
import { SIMULATION_TIMEOUT_MS, simulateRounds } from './statistics';

const SEEDS = {
  serverSeed: 'a3c1f0e6d2b4978563412f0e9d8c7b6a5f4e3d2c1b0a99887766554433221100',
  clientSeed: 'player-seed',
  nonce: 1,
};

const field = (mines: number[], stakeMinor = 1_000n): MinesState => ({
  stakeMinor,
  mineCount: mines.length,
  mines,
  opened: [],
  status: 'playing',
  payoutMinor: 0n,
});
const safeCells = (state: MinesState) =>
  Array.from({ length: 25 }, (_, cell) => cell).filter((cell) => !state.mines.includes(cell));

describe('mines field (5×5, the mines are the first cells of the fair shuffle)', () => {
  it('places the chosen number of mines where pickDistinct(25, m) says, the same for the same seeds', () => {
    const state = startMines({ stakeMinor: 1_000n, mineCount: 3 }, createFairRng(SEEDS));
    expect(state.mines).toEqual(pickDistinct(createFairRng(SEEDS), 25, 3));
    expect(new Set(state.mines).size).toBe(3);
    expect(startMines({ stakeMinor: 1_000n, mineCount: 3 }, createFairRng(SEEDS))).toEqual(state);
  });

  it('refuses fewer than 1 or more than 24 mines, and a stake that is not a positive integer', () => {
    for (const mineCount of [0, 25, 2.5])
      expect(() => startMines({ stakeMinor: 1_000n, mineCount }, createFairRng(SEEDS))).toThrow(InvalidBetError);
    expect(() => startMines({ stakeMinor: -5n, mineCount: 3 }, createFairRng(SEEDS))).toThrow(InvalidBetError);
  });
});

describe('mines state machine (open, cash out, lose)', () => {
  it('opening a mine loses the round and shows the field', () => {
    const lost = openCell(openCell(field([0, 7, 24]), 3), 7);
    expect(lost.status).toBe('lost');
    expect(lost.payoutMinor).toBe(0n);
    expect(publicMinesView(lost).mines).toEqual([0, 7, 24]);
  });

  it('cashing out after k safe cells pays stake × 0.99 × C(25, k) / C(25 − m, k) rounded down to the hundredth', () => {
    let state = field([0, 7, 24]);
    for (const cell of [1, 2]) state = openCell(state, cell);
    const done = cashOutMines(state);
    // 0.99 × C(25,2) / C(22,2) = 0.99 × 300 / 231 = 1.285714…, paid as 1.28×: 1 000 → 1 280.
    expect(done).toMatchObject({ status: 'cashed-out', payoutMinor: 1_280n });
    expect(minesMultiplier(3, 2)).toEqual({ numerator: 99n * 300n, denominator: 100n * 231n });
  });

  it('cashes out by itself when the last safe cell is opened', () => {
    let state = field([5]);
    for (const cell of safeCells(state)) state = openCell(state, cell);
    expect(state.status).toBe('cashed-out');
    // 24 safe cells of 24 with one mine: 0.99 × C(25,24) / C(24,24) = 24.75×.
    expect(state.payoutMinor).toBe(24_750n);
  });

  it('refuses actions out of turn: cashing out before a cell, a cell twice or off the field, anything after the end', () => {
    const fresh = field([0, 7, 24]);
    expect(() => cashOutMines(fresh)).toThrow(new GameRuleError('action not allowed: open a cell first'));
    const opened = openCell(fresh, 3);
    expect(() => openCell(opened, 3)).toThrow(GameRuleError);
    for (const cell of [-1, 25, 1.5]) expect(() => openCell(opened, cell)).toThrow(GameRuleError);
    const over = cashOutMines(opened);
    expect(() => openCell(over, 4)).toThrow(GameRuleError);
    expect(() => cashOutMines(over)).toThrow(GameRuleError);
    expect(() => cashOutMines(openCell(fresh, 0))).toThrow(GameRuleError);
  });

  it('hides the mines from the player while the round is open and shows the next payout', () => {
    const view = publicMinesView(openCell(field([0, 7, 24]), 3));
    expect(view.mines).toBeNull();
    expect(view.nextPayoutMinor).toBe(minesPayout(1_000n, 3, 2));
  });

  it('returns 99 % for every mine count and every number of cells before the cut to the hundredth, 98.28 %–99 % after it', () => {
    let lowest = 1;
    for (let mines = 1; mines <= 24; mines++) {
      let survive = 1;
      for (let k = 1; k <= 25 - mines; k++) {
        // The k-th cell is safe with chance (safe cells left) / (cells left).
        survive *= (25 - mines - (k - 1)) / (25 - (k - 1));
        const { numerator, denominator } = minesMultiplier(mines, k);
        expect(survive * (Number(numerator) / Number(denominator))).toBeCloseTo(0.99, 12);
        const paid = survive * (Number(minesPayout(1_000_000n, mines, k)) / 1_000_000);
        expect(paid).toBeLessThanOrEqual(0.99 + 1e-12);
        lowest = Math.min(lowest, paid);
      }
    }
    expect(lowest).toBeCloseTo(0.9828, 4);
  });
});

describe('mines: the multiplier shown is the one paid (issue 15: "×1.13" shown, €1.12 paid)', () => {
  // Stakes in minor units: whole euros, odd cents and a large stake.
  const STAKES = [1n, 7n, 15n, 99n, 100n, 250n, 1_000n, 1_234n, 10_000n, 123_456_789n];

  it('for every mine count and number of safe cells, payout = stake × shown multiplier (rounded down to the minor unit)', () => {
    let checked = 0;
    for (let mines = 1; mines <= 24; mines++) {
      for (let k = 1; k <= 25 - mines; k++) {
        const shownHundredths = amountToMinor(minesMultiplierText(mines, k));
        for (const stake of STAKES) {
          const payout = minesPayout(stake, mines, k);
          expect(payout, `${mines} mines, ${k} cells, stake ${stake}`).toBe((stake * shownHundredths) / 100n);
          // A stake of whole units is paid exactly stake × the multiplier shown.
          if (stake % 100n === 0n) expect(payout * 100n).toBe(stake * shownHundredths);
          checked += 1;
        }
      }
    }
    expect(checked).toBe(300 * STAKES.length);
  });

  it('shows 1.12 and pays €1.12 on €1 after one safe cell with 3 mines (0.99 × 25 / 22 = 1.125)', () => {
    expect(minesMultiplierText(3, 1)).toBe('1.12');
    expect(minesPayout(100n, 3, 1)).toBe(112n);
  });
});

describe('mines RTP by simulation', () => {
  // Plans a player might follow, cycled over the rounds: (mines, cells before cashing out).
  const PLANS: Array<[number, number]> = [
    [1, 5],
    [3, 3],
    [5, 2],
    [10, 1],
  ];

  it(
    'returns the plans’ RTP (99 % less the cut to the hundredth) on the fair stream: 200 000 rounds of four plans within 4.5 standard errors',
    () => {
      // A plan wins stake × M with chance p: its variance is M² p (1 − p); the mean of
      // n rounds cycling the plans has variance Σ var / (4 · n) (n/4 rounds of each). Here the
      // standard error is 0.0016 and the tolerance ±0.70 %.
      const rounds = 200_000;
      const stake = 1_000_000n;
      // A plan pays M (the hundredth paid) with chance p = 0.99 / the exact multiplier.
      const plans = PLANS.map(([mines, k]) => {
        const multiplier = Number(minesPayout(stake, mines, k)) / Number(stake);
        const { numerator, denominator } = minesMultiplier(mines, k);
        const p = 0.99 / (Number(numerator) / Number(denominator));
        return { rtp: multiplier * p, variance: multiplier ** 2 * p * (1 - p) };
      });
      const variances = plans.map((plan) => plan.variance);
      const expectedRtp = plans.reduce((sum, plan) => sum + plan.rtp, 0) / plans.length;
      const standardError = Math.sqrt(variances.reduce((a, b) => a + b) / PLANS.length / rounds);
      const stats = simulateRounds(rounds, (rng, index) => {
        const [mineCount, cells] = PLANS[index % PLANS.length]!;
        let state = startMines({ stakeMinor: stake, mineCount }, rng);
        for (let cell = 0; cell < cells && state.status === 'playing'; cell++) state = openCell(state, cell);
        if (state.status === 'playing') state = cashOutMines(state);
        return { stakeMinor: stake, payoutMinor: state.payoutMinor };
      });
      expect(Math.abs(stats.rtp - expectedRtp)).toBeLessThan(4.5 * standardError);
    },
    SIMULATION_TIMEOUT_MS,
  );
});
