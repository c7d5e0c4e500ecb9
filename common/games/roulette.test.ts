import { describe, expect, it } from 'vitest';
import { InvalidBetError } from './errors';
import { createFairRng } from './fair';
import { ROULETTE_PAYS, coveredNumbers, playRoulette, pocketColor, settleRoulette, type RouletteBet } from './roulette';
import { SIMULATION_TIMEOUT_MS, simulateRounds } from './statistics';

const STAKE = 100n;

// One bet of each kind with a pocket it covers and one it does not.
const TABLE: Array<{ bet: RouletteBet; wins: number; loses: number }> = [
  { bet: { kind: 'straight', numbers: [17], stakeMinor: STAKE }, wins: 17, loses: 18 },
  { bet: { kind: 'straight', numbers: [0], stakeMinor: STAKE }, wins: 0, loses: 1 },
  { bet: { kind: 'split', numbers: [17, 20], stakeMinor: STAKE }, wins: 20, loses: 18 },
  { bet: { kind: 'split', numbers: [0, 2], stakeMinor: STAKE }, wins: 0, loses: 3 },
  { bet: { kind: 'street', numbers: [34, 35, 36], stakeMinor: STAKE }, wins: 35, loses: 33 },
  { bet: { kind: 'street', numbers: [0, 2, 3], stakeMinor: STAKE }, wins: 3, loses: 1 },
  { bet: { kind: 'corner', numbers: [8, 9, 11, 12], stakeMinor: STAKE }, wins: 11, loses: 10 },
  { bet: { kind: 'corner', numbers: [0, 1, 2, 3], stakeMinor: STAKE }, wins: 0, loses: 4 },
  { bet: { kind: 'line', numbers: [31, 32, 33, 34, 35, 36], stakeMinor: STAKE }, wins: 31, loses: 30 },
  { bet: { kind: 'dozen', index: 2, stakeMinor: STAKE }, wins: 24, loses: 25 },
  { bet: { kind: 'column', index: 3, stakeMinor: STAKE }, wins: 36, loses: 35 },
  { bet: { kind: 'red', stakeMinor: STAKE }, wins: 1, loses: 2 },
  { bet: { kind: 'black', stakeMinor: STAKE }, wins: 2, loses: 0 },
  { bet: { kind: 'odd', stakeMinor: STAKE }, wins: 35, loses: 0 },
  { bet: { kind: 'even', stakeMinor: STAKE }, wins: 36, loses: 0 },
  { bet: { kind: 'low', stakeMinor: STAKE }, wins: 18, loses: 19 },
  { bet: { kind: 'high', stakeMinor: STAKE }, wins: 19, loses: 0 },
];

/** Every legal bet of the layout: the complete list a European table offers. */
function allLegalBets(): RouletteBet[] {
  const candidates: RouletteBet[] = [];
  for (let a = 0; a <= 36; a++) {
    candidates.push({ kind: 'straight', numbers: [a], stakeMinor: STAKE });
    for (let b = a + 1; b <= 36; b++) candidates.push({ kind: 'split', numbers: [a, b], stakeMinor: STAKE });
  }
  for (let a = 0; a <= 34; a++)
    candidates.push(
      { kind: 'street', numbers: [a, a + 1, a + 2], stakeMinor: STAKE },
      { kind: 'street', numbers: [0, a + 1, a + 2], stakeMinor: STAKE },
    );
  for (let a = 0; a <= 32; a++)
    candidates.push(
      { kind: 'corner', numbers: [a, a + 1, a + 3, a + 4], stakeMinor: STAKE },
      { kind: 'corner', numbers: [a, a + 1, a + 2, a + 3], stakeMinor: STAKE },
    );
  for (let a = 0; a <= 31; a++)
    candidates.push({ kind: 'line', numbers: [a, a + 1, a + 2, a + 3, a + 4, a + 5], stakeMinor: STAKE });
  const seen = new Set<string>();
  const legal = candidates.filter((bet) => {
    try {
      const key = `${bet.kind}:${coveredNumbers(bet).join('-')}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    } catch {
      return false;
    }
  });
  for (const index of [1, 2, 3] as const)
    legal.push({ kind: 'dozen', index, stakeMinor: STAKE }, { kind: 'column', index, stakeMinor: STAKE });
  for (const kind of ['red', 'black', 'odd', 'even', 'low', 'high'] as const) legal.push({ kind, stakeMinor: STAKE });
  return legal;
}

describe('European roulette bets (one zero; each kind pays as the table says)', () => {
  it.each(TABLE)(
    'a $bet.kind bet pays its odds plus the stake when it covers the pocket, nothing otherwise',
    ({ bet, wins, loses }) => {
      const won = settleRoulette([bet], wins);
      expect(won.results[0]!.isWin).toBe(true);
      expect(won.payoutMinor).toBe(STAKE * BigInt(ROULETTE_PAYS[bet.kind] + 1));
      expect(settleRoulette([bet], loses).payoutMinor).toBe(0n);
    },
  );

  it('has the layout’s count of each inside bet: 37 straights, 60 splits, 14 streets, 23 corners, 11 lines', () => {
    const counts = new Map<string, number>();
    for (const bet of allLegalBets()) counts.set(bet.kind, (counts.get(bet.kind) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({
      straight: 37,
      split: 60,
      street: 14,
      corner: 23,
      line: 11,
      dozen: 3,
      column: 3,
      red: 1,
      black: 1,
      odd: 1,
      even: 1,
      low: 1,
      high: 1,
    });
  });

  it('refuses numbers that are not that bet on the layout', () => {
    const refused: RouletteBet[] = [
      { kind: 'split', numbers: [3, 4], stakeMinor: STAKE },
      { kind: 'split', numbers: [0, 4], stakeMinor: STAKE },
      { kind: 'street', numbers: [2, 3, 4], stakeMinor: STAKE },
      { kind: 'corner', numbers: [3, 4, 6, 7], stakeMinor: STAKE },
      { kind: 'line', numbers: [2, 3, 4, 5, 6, 7], stakeMinor: STAKE },
      { kind: 'straight', numbers: [37], stakeMinor: STAKE },
      { kind: 'dozen', index: 4 as 1, stakeMinor: STAKE },
      { kind: 'red', stakeMinor: 0n },
      { kind: 'zero' as 'red', stakeMinor: STAKE },
    ];
    for (const bet of refused) expect(() => settleRoulette([bet], 1)).toThrow(InvalidBetError);
    expect(() => settleRoulette([], 1)).toThrow(InvalidBetError);
  });

  it('loses every outside bet on zero, which is green', () => {
    const outside = allLegalBets().filter((bet) => !('numbers' in bet));
    expect(settleRoulette(outside, 0).payoutMinor).toBe(0n);
    expect(pocketColor(0)).toBe('green');
    expect(pocketColor(32)).toBe('red');
    expect(pocketColor(15)).toBe('black');
  });

  it('returns 36/37 = 97.30 % on every legal bet, counting all 37 pockets, with no rounding', () => {
    for (const bet of allLegalBets()) {
      let paid = 0n;
      for (let pocket = 0; pocket < 37; pocket++) paid += settleRoulette([bet], pocket).payoutMinor;
      expect(paid).toBe(36n * STAKE);
    }
  });

  it('adds up several bets on one spin', () => {
    const outcome = settleRoulette([TABLE[0]!.bet, { kind: 'red', stakeMinor: 50n }, { kind: 'odd', stakeMinor: 30n }], 17);
    expect(outcome.stakeMinor).toBe(180n);
    expect(outcome.payoutMinor).toBe(3_600n + 0n + 60n);
  });

  it('spins the same pocket for the same seeds: the first draw is uniformInt(37)', () => {
    const seeds = {
      serverSeed: 'a3c1f0e6d2b4978563412f0e9d8c7b6a5f4e3d2c1b0a99887766554433221100',
      clientSeed: 'player-seed',
      nonce: 1,
    };
    expect(playRoulette([{ kind: 'red', stakeMinor: STAKE }], createFairRng(seeds)).pocket).toBe(0x87b4a330 % 37);
  });
});

describe('roulette RTP by simulation', () => {
  it(
    'returns 97.30 % on the fair stream: 300 000 spins of a straight, a split, a dozen and red within 4.5 standard errors',
    () => {
      const bets: RouletteBet[] = [TABLE[0]!.bet, TABLE[2]!.bet, TABLE[9]!.bet, TABLE[11]!.bet];
      // The exact variance of the return of this mix, from its 37 equally likely pockets.
      const returns = Array.from({ length: 37 }, (_, pocket) => Number(settleRoulette(bets, pocket).payoutMinor) / 400);
      const mean = returns.reduce((a, b) => a + b) / 37;
      const sigma = Math.sqrt(returns.reduce((sum, r) => sum + (r - mean) ** 2, 0) / 37);
      expect(mean).toBeCloseTo(36 / 37, 12);
      const rounds = 300_000;
      const stats = simulateRounds(rounds, (rng) => playRoulette(bets, rng));
      // σ = 2.38 a spin: the standard error is 0.0044, the tolerance ±2.0 %.
      expect(Math.abs(stats.rtp - 36 / 37)).toBeLessThan((4.5 * sigma) / Math.sqrt(rounds));
    },
    SIMULATION_TIMEOUT_MS,
  );
});
