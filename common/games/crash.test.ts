import { describe, expect, it } from 'vitest';
import { InvalidBetError } from './errors';
import { createFairRng } from './fair';
import {
  crashElapsedMsAt,
  crashMultiplierAt,
  crashPoint,
  crashPointFromDraw,
  crashWinChance,
  playCrash,
  settleCrash,
} from './crash';
import { SIMULATION_TIMEOUT_MS, simulateRounds } from './statistics';

describe('crash point (max(1, ⌊99 / (1 − r)⌋ / 100) from the first draw)', () => {
  it('follows the published formula for sample draws, in integers', () => {
    expect(crashPointFromDraw(0)).toBe(100);
    // r = 1/2: 99 / 0.5 = 198 → 1.98×.
    expect(crashPointFromDraw(2 ** 31)).toBe(198);
    // r = 3/4: 99 / 0.25 = 396 → 3.96×.
    expect(crashPointFromDraw(3 * 2 ** 30)).toBe(396);
    expect(crashPointFromDraw(2 ** 32 - 1)).toBe(99 * 2 ** 32);
    for (const u of [1, 12_345, 2 ** 31 + 7, 4_000_000_000, 4_294_000_000]) {
      expect(crashPointFromDraw(u)).toBe(Math.max(100, Number((99n * 2n ** 32n) / (2n ** 32n - BigInt(u)))));
    }
  });

  it('crashes at 1.00× for every r below 2/101 (1.98 % of rounds: ⌊99 / (1 − r)⌋ is 99 or 100 there)', () => {
    const firstAbove = 2 ** 32 - Math.floor((99 * 2 ** 32) / 101);
    expect(crashPointFromDraw(firstAbove - 1)).toBe(100);
    expect(crashPointFromDraw(firstAbove)).toBe(101);
    expect(firstAbove / 2 ** 32).toBeCloseTo(2 / 101, 9);
  });

  it('is the same for the same seeds', () => {
    const seeds = {
      serverSeed: 'a3c1f0e6d2b4978563412f0e9d8c7b6a5f4e3d2c1b0a99887766554433221100',
      clientSeed: 'player-seed',
      nonce: 1,
    };
    expect(crashPoint(createFairRng(seeds))).toBe(crashPointFromDraw(0x87b4a330));
    expect(crashPoint(createFairRng(seeds))).toBe(crashPoint(createFairRng(seeds)));
  });
});

describe('crash cash-out (a cash-out at m wins iff m ≤ the crash point)', () => {
  it('wins at the crash point itself and loses a hundredth above it', () => {
    expect(settleCrash({ stakeMinor: 1_000n, cashOutHundredths: 250 }, 250)).toEqual({ isWin: true, payoutMinor: 2_500n });
    expect(settleCrash({ stakeMinor: 1_000n, cashOutHundredths: 251 }, 250)).toEqual({ isWin: false, payoutMinor: 0n });
    expect(settleCrash({ stakeMinor: 1_000n, cashOutHundredths: 101 }, 100).isWin).toBe(false);
  });

  it('pays stake × m rounded down to the minor unit', () => {
    expect(settleCrash({ stakeMinor: 333n, cashOutHundredths: 157 }, 1_000).payoutMinor).toBe(522n);
  });

  it('refuses a cash-out below 1.01× or above 1 000 000×, or a fraction of a hundredth', () => {
    for (const cashOutHundredths of [100, 99, 100_000_001, 150.5])
      expect(() => settleCrash({ stakeMinor: 100n, cashOutHundredths }, 500)).toThrow(InvalidBetError);
  });

  it('reaches m with chance ⌊99 · 2³² / m⌋ / 2³², so every target returns 99 % less under 2⁻³²', () => {
    for (const target of [101, 150, 200, 1_000, 123_456, 100_000_000]) {
      const { numerator, denominator } = crashWinChance(target);
      // The draws that reach the target are exactly the top `numerator` ones.
      expect(crashPointFromDraw(denominator - numerator)).toBeGreaterThanOrEqual(target);
      expect(crashPointFromDraw(denominator - numerator - 1)).toBeLessThan(target);
      const rtp = (numerator / denominator) * (target / 100);
      expect(rtp).toBeLessThanOrEqual(0.99);
      expect(rtp).toBeGreaterThan(0.99 - target / 100 / 2 ** 32);
    }
  });
});

describe('the climb shared by server and browser', () => {
  it('starts at 1.00×, doubles after about 11.55 s, and shows a target at the time it is reached', () => {
    expect(crashMultiplierAt(0)).toBe(100);
    expect(crashMultiplierAt(11_552)).toBe(199);
    expect(crashMultiplierAt(11_553)).toBe(200);
    for (const hundredths of [101, 150, 200, 777, 10_000, 1_234_567]) {
      const at = crashElapsedMsAt(hundredths);
      expect(crashMultiplierAt(at)).toBeGreaterThanOrEqual(hundredths);
      expect(crashMultiplierAt(at - 1)).toBeLessThan(hundredths);
    }
  });
});

describe('crash RTP by simulation', () => {
  it(
    'returns 99 % at 2.00× and 10.00× on the fair stream within 4.5 standard errors',
    () => {
      // At 2.00× a win (chance 0.495) pays 2: σ = 2 · √(0.495 · 0.505) = 1.000; at 10.00× σ = 10 ·
      // √(0.099 · 0.901) = 2.987. Half the 400 000 rounds each: the standard error of the mean is
      // √(1.000² + 2.987²) / 2 / √200 000 = 0.0035, the tolerance ±1.6 %.
      const rounds = 400_000;
      const stats = simulateRounds(rounds, (rng, index) => ({
        stakeMinor: 100n,
        payoutMinor: playCrash({ stakeMinor: 100n, cashOutHundredths: index % 2 === 0 ? 200 : 1_000 }, rng).payoutMinor,
      }));
      const standardError = Math.sqrt(1.0 ** 2 + 2.987 ** 2) / 2 / Math.sqrt(rounds / 2);
      expect(Math.abs(stats.rtp - 0.99)).toBeLessThan(4.5 * standardError);
    },
    SIMULATION_TIMEOUT_MS,
  );

  it(
    'reaches 2× in 49.5 % of rounds and crashes at 1.00× in 1.98 % (binomial, 100 000 rounds, 4.5 standard errors)',
    () => {
      const rounds = 100_000;
      let atLeastTwo = 0;
      let instant = 0;
      for (let nonce = 0; nonce < rounds; nonce++) {
        const point = crashPoint(createFairRng({ serverSeed: 'crash-distribution', clientSeed: 'public', nonce }));
        if (point >= 200) atLeastTwo++;
        if (point === 100) instant++;
      }
      expect(Math.abs(atLeastTwo / rounds - 0.495)).toBeLessThan(4.5 * Math.sqrt((0.495 * 0.505) / rounds));
      const instantChance = 1 - 0.99 / 1.01;
      expect(Math.abs(instant / rounds - instantChance)).toBeLessThan(
        4.5 * Math.sqrt((instantChance * (1 - instantChance)) / rounds),
      );
    },
    SIMULATION_TIMEOUT_MS,
  );
});
