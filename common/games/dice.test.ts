import { describe, expect, it } from 'vitest';
import { InvalidBetError } from './errors';
import { createFairRng } from './fair';
import { DICE_OUTCOMES, diceWinningRolls, playDice, settleDice, type DiceBet } from './dice';
import { SIMULATION_TIMEOUT_MS, simulateRounds } from './statistics';

const bet = (direction: 'under' | 'over', targetHundredths: number, stakeMinor = 1_000n): DiceBet => ({
  stakeMinor,
  direction,
  targetHundredths,
});

describe('dice rules (roll 0.00–99.99, over or under a target, 1 % house edge)', () => {
  it('wins under T only for rolls below T, and over T only for rolls above T', () => {
    expect(settleDice(bet('under', 5_000), 4_999).isWin).toBe(true);
    expect(settleDice(bet('under', 5_000), 5_000).isWin).toBe(false);
    expect(settleDice(bet('over', 5_000), 5_001).isWin).toBe(true);
    expect(settleDice(bet('over', 5_000), 5_000).isWin).toBe(false);
    expect(diceWinningRolls(bet('under', 5_000))).toBe(5_000);
    expect(diceWinningRolls(bet('over', 5_000))).toBe(4_999);
  });

  it('pays stake × 9 900 / winning rolls, rounded down to the minor unit', () => {
    expect(settleDice(bet('under', 5_000), 0).payoutMinor).toBe(1_980n);
    // 1 000 × 9 900 / 4 999 = 1 980.396…: the player gets 1 980, never 1 981.
    expect(settleDice(bet('over', 5_000), 9_999).payoutMinor).toBe(1_980n);
    expect(settleDice(bet('under', 100), 99).payoutMinor).toBe(99_000n);
    expect(settleDice(bet('under', 5_000), 7_000).payoutMinor).toBe(0n);
  });

  it('refuses a chance to win outside 1 %–98 %, a target off the dial and a stake that is not a positive integer', () => {
    expect(() => settleDice(bet('under', 99), 0)).toThrow(InvalidBetError);
    expect(() => settleDice(bet('under', 9_801), 0)).toThrow(InvalidBetError);
    expect(() => settleDice(bet('over', 9_900), 0)).toThrow(InvalidBetError);
    expect(() => settleDice(bet('over', 10_000), 0)).toThrow(InvalidBetError);
    expect(() => settleDice(bet('under', 50.5), 0)).toThrow(InvalidBetError);
    expect(() => settleDice(bet('under', 5_000, 0n), 0)).toThrow(InvalidBetError);
    expect(() => settleDice({ ...bet('under', 5_000), direction: 'sideways' as 'under' }, 0)).toThrow(InvalidBetError);
  });

  it('returns 99 % on every target when all 10 000 rolls are counted, less under one minor unit of rounding', () => {
    const stakeMinor = 10_000n;
    for (const [direction, target] of [
      ['under', 100],
      ['under', 3_333],
      ['under', 9_800],
      ['over', 199],
      ['over', 5_000],
      ['over', 9_899],
    ] as const) {
      let paid = 0n;
      for (let roll = 0; roll < DICE_OUTCOMES; roll++) paid += settleDice(bet(direction, target, stakeMinor), roll).payoutMinor;
      const rtp = Number(paid) / (DICE_OUTCOMES * Number(stakeMinor));
      expect(rtp).toBeLessThanOrEqual(0.99);
      expect(rtp).toBeGreaterThan(0.99 - 1 / Number(stakeMinor));
    }
  });

  it('rolls the same for the same seeds: the first draw is uniformInt(10 000)', () => {
    const seeds = {
      serverSeed: 'a3c1f0e6d2b4978563412f0e9d8c7b6a5f4e3d2c1b0a99887766554433221100',
      clientSeed: 'player-seed',
      nonce: 1,
    };
    const outcome = playDice(bet('under', 5_000), createFairRng(seeds));
    expect(outcome.rollHundredths).toBe(0x87b4a330 % 10_000);
    expect(playDice(bet('under', 5_000), createFairRng(seeds))).toEqual(outcome);
  });
});

describe('dice RTP by simulation', () => {
  it(
    'returns 99 % on the fair stream: 400 000 rolls under 50.00 within 4.5 standard errors',
    () => {
      // A win pays 1.98 with chance 1/2: σ = 1.98 · √(½ · ½) = 0.99 a round, so 400 000 rounds
      // have a standard error of 0.99 / √400 000 = 0.0016 and the tolerance is ±0.70 %.
      const rounds = 400_000;
      const stats = simulateRounds(rounds, (rng) => ({
        stakeMinor: 100n,
        payoutMinor: playDice(bet('under', 5_000, 100n), rng).payoutMinor,
      }));
      expect(Math.abs(stats.rtp - 0.99)).toBeLessThan((4.5 * 0.99) / Math.sqrt(rounds));
    },
    SIMULATION_TIMEOUT_MS,
  );
});
