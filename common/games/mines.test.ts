import { describe, expect, it } from 'vitest';
import { GameRuleError, InvalidBetError } from './errors';
import { createFairRng, pickDistinct } from './fair';
import { cashOutMines, minesMultiplier, minesPayout, openCell, publicMinesView, startMines, type MinesState } from './mines';
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

  it('cashing out after k safe cells pays stake × 0.99 × C(25, k) / C(25 − m, k), rounded down', () => {
    let state = field([0, 7, 24]);
    for (const cell of [1, 2]) state = openCell(state, cell);
    const done = cashOutMines(state);
    // 0.99 × C(25,2) / C(22,2) = 0.99 × 300 / 231 = 1.285714…: 1 000 → 1 285.
    expect(done).toMatchObject({ status: 'cashed-out', payoutMinor: 1_285n });
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

  it('returns 99 % for every mine count and every number of cells before cashing out (exact, less rounding)', () => {
    for (let mines = 1; mines <= 24; mines++) {
      let survive = 1;
      for (let k = 1; k <= 25 - mines; k++) {
        // The k-th cell is safe with chance (safe cells left) / (cells left).
        survive *= (25 - mines - (k - 1)) / (25 - (k - 1));
        const { numerator, denominator } = minesMultiplier(mines, k);
        expect(survive * (Number(numerator) / Number(denominator))).toBeCloseTo(0.99, 12);
      }
    }
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
    'returns 99 % on the fair stream: 200 000 rounds of four plans within 4.5 standard errors',
    () => {
      // A plan wins stake × M with chance p = 0.99 / M: its variance is M² p (1 − p); the mean of
      // n rounds cycling the plans has variance Σ var / (4 · n) (n/4 rounds of each). Here the
      // standard error is 0.0016 and the tolerance ±0.70 %.
      const rounds = 200_000;
      const stake = 1_000_000n;
      const variances = PLANS.map(([mines, k]) => {
        const multiplier = Number(minesPayout(stake, mines, k)) / Number(stake);
        const p = 0.99 / multiplier;
        return multiplier ** 2 * p * (1 - p);
      });
      const standardError = Math.sqrt(variances.reduce((a, b) => a + b) / PLANS.length / rounds);
      const stats = simulateRounds(rounds, (rng, index) => {
        const [mineCount, cells] = PLANS[index % PLANS.length]!;
        let state = startMines({ stakeMinor: stake, mineCount }, rng);
        for (let cell = 0; cell < cells && state.status === 'playing'; cell++) state = openCell(state, cell);
        if (state.status === 'playing') state = cashOutMines(state);
        return { stakeMinor: stake, payoutMinor: state.payoutMinor };
      });
      expect(Math.abs(stats.rtp - 0.99)).toBeLessThan(4.5 * standardError);
    },
    SIMULATION_TIMEOUT_MS,
  );
});
