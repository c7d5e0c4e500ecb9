import { describe, expect, it } from 'vitest';
import { createFairRng } from './fair';
import { FRUITS_FREE_SPIN_RULES, FRUITS_RULES, FRUITS_SCATTER_PAYS, fruitsSlotRtp, playFruitsSlot } from './slot-fruits';
import { evaluateLines, type LineSlotRules } from './slot-lines';
import { scriptedThenFair } from './scripted-rng';
import { ReturnStats, SIMULATION_SEEDS, SIMULATION_TIMEOUT_MS } from './statistics';

const STAKE = 2_000n;
const stopShowing = (rules: LineSlotRules, reel: number, symbol: string, row: number) => {
  const strip = rules.strips[reel]!;
  return (strip.indexOf(symbol) - row + strip.length) % strip.length;
};
/** The first stop whose window on `reel` shows no `symbol`. */
function stopWithout(rules: LineSlotRules, reel: number, symbol: string): number {
  const strip = rules.strips[reel]!;
  let stop = 0;
  while ([0, 1, 2].some((row) => strip[(stop + row) % strip.length] === symbol)) stop++;
  return stop;
}
/** Stops putting a BASKET on each of the first `count` reels and none on the others. */
const basketStops = (rules: LineSlotRules, count: number) =>
  [0, 1, 2, 3, 4].map((reel) => (reel < count ? stopShowing(rules, reel, 'BASKET', 0) : stopWithout(rules, reel, 'BASKET')));

describe('Fruit Fiesta rules (5×3, 20 lines, cherries pay from two, BASKETs give free spins with doubling wilds)', () => {
  it('pays two CHERRYs from the left', () => {
    const stops = [
      stopShowing(FRUITS_RULES, 0, 'CHERRY', 1),
      stopShowing(FRUITS_RULES, 1, 'CHERRY', 1),
      stopShowing(FRUITS_RULES, 2, 'PLUM', 1),
      0,
      0,
    ];
    const round = playFruitsSlot({ stakeMinor: STAKE }, scriptedThenFair(stops));
    expect(round.spins[0]!.lineWins.find((win) => win.line === 0)).toMatchObject({ symbol: 'CHERRY', count: 2, pays: 2 });
    expect(round.payoutMinor).toBe((STAKE * BigInt(round.winLineBets)) / 20n);
  });

  it.each([
    [3, 8],
    [4, 12],
    [5, 20],
  ])('%i BASKETs pay their scatter pay and award %i free spins on the free-spin reels', (count, spins) => {
    const round = playFruitsSlot({ stakeMinor: STAKE }, scriptedThenFair(basketStops(FRUITS_RULES, count)));
    const paid = round.spins[0]!;
    expect(paid.scatterCount).toBe(count);
    expect(paid.freeSpinsAwarded).toBe(spins);
    expect(paid.winLineBets).toBe(
      evaluateLines(paid.window, FRUITS_RULES).reduce((sum, win) => sum + win.pays, 0) + FRUITS_SCATTER_PAYS[count]! * 20,
    );
    const awarded = round.spins.reduce((sum, spin) => sum + spin.freeSpinsAwarded, 0);
    expect(round.spins.length - 1).toBe(awarded);
  });

  it('doubles a free-spin line win that has a wild in it, and only those', () => {
    let checked = 0;
    for (let nonce = 0; nonce < 30; nonce++) {
      const round = playFruitsSlot({ stakeMinor: STAKE }, scriptedThenFair(basketStops(FRUITS_RULES, 3), nonce));
      for (const spin of round.spins.slice(1)) {
        const plain = evaluateLines(spin.window, FRUITS_FREE_SPIN_RULES);
        spin.lineWins.forEach((win, index) => {
          expect(win.pays).toBe(plain[index]!.pays * (win.hasWild ? 2 : 1));
          if (win.hasWild) checked++;
        });
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('three BASKETs during free spins add 8 more', () => {
    const draws = [...basketStops(FRUITS_RULES, 3), ...basketStops(FRUITS_FREE_SPIN_RULES, 3)];
    const round = playFruitsSlot({ stakeMinor: STAKE }, scriptedThenFair(draws));
    expect(round.spins[1]!.freeSpinsAwarded).toBe(8);
    expect(round.spins.length - 1).toBeGreaterThanOrEqual(16);
  });

  it('spins the same for the same seeds', () => {
    const seeds = {
      serverSeed: 'a3c1f0e6d2b4978563412f0e9d8c7b6a5f4e3d2c1b0a99887766554433221100',
      clientSeed: 'player-seed',
      nonce: 1,
    };
    expect(playFruitsSlot({ stakeMinor: STAKE }, createFairRng(seeds))).toEqual(
      playFruitsSlot({ stakeMinor: STAKE }, createFairRng(seeds)),
    );
  });
});

describe('Fruit Fiesta RTP', () => {
  it('is 95.731 % exactly from the reel strips, as documented', () => {
    const rtp = fruitsSlotRtp();
    expect(rtp.lines).toBeCloseTo(0.74525, 5);
    expect(rtp.scatters).toBeCloseTo(0.01311, 5);
    expect(rtp.freeSpinsPerPaidSpin).toBeCloseTo(0.0926, 4);
    expect(rtp.total).toBeCloseTo(0.95731, 5);
  });

  it(
    'is met on the fair stream: 250 000 rounds within 4.5 standard errors, free spins once in 96',
    () => {
      // The return of a round has σ ≈ 2.8 stakes (measured on the sample itself), so 250 000
      // rounds have a standard error of about 0.0056 and the tolerance is about ±2.5 %; the paid
      // spin alone (σ ≈ 1.3, ±1.1 %) and the trigger frequency (binomial) are checked tighter.
      const rounds = 250_000;
      const total = new ReturnStats();
      const paid = new ReturnStats();
      let triggers = 0;
      for (let nonce = 0; nonce < rounds; nonce++) {
        const round = playFruitsSlot({ stakeMinor: 20n }, createFairRng({ ...SIMULATION_SEEDS, nonce }));
        total.add(20n, BigInt(round.winLineBets), 20n);
        paid.add(20n, BigInt(round.spins[0]!.winLineBets), 20n);
        if (round.spins.length > 1) triggers++;
      }
      const rtp = fruitsSlotRtp();
      expect(Math.abs(total.rtp - rtp.total)).toBeLessThan(4.5 * total.standardError);
      expect(Math.abs(paid.rtp - (rtp.lines + rtp.scatters))).toBeLessThan(4.5 * paid.standardError);
      expect(Math.abs(triggers / rounds - rtp.triggerChance)).toBeLessThan(
        4.5 * Math.sqrt((rtp.triggerChance * (1 - rtp.triggerChance)) / rounds),
      );
    },
    SIMULATION_TIMEOUT_MS,
  );
});
