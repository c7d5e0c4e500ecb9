import { describe, expect, it } from 'vitest';
import { createFairRng } from './fair';
import { CLASSIC_RULES, CLASSIC_SCATTER_PAYS, classicSlotRtp, playClassicSlot } from './slot-classic';
import { evaluateLines } from './slot-lines';
import { scriptedThenFair } from './scripted-rng';
import { ReturnStats, SIMULATION_SEEDS, SIMULATION_TIMEOUT_MS } from './statistics';

const STAKE = 1_000n;
const strips = CLASSIC_RULES.strips;
/** The stop that shows `symbol` in `row` of `reel`. */
const stopShowing = (reel: number, symbol: string, row: number) =>
  (strips[reel]!.indexOf(symbol) - row + strips[reel]!.length) % strips[reel]!.length;

describe('Royal Sevens rules (5×3, 10 lines, WILD stands in, 3+ STARs give 10 free spins at 3×)', () => {
  it('pays a line where the WILD completes three SEVENs, at stake / 10 a line', () => {
    // Middle row: SEVEN, WILD, SEVEN on reels 1–3; reel 4 shows no SEVEN or WILD on that line.
    const stops = [
      stopShowing(0, 'SEVEN', 1),
      stopShowing(1, 'WILD', 1),
      stopShowing(2, 'SEVEN', 1),
      stopShowing(3, 'A', 1),
      stopShowing(4, 'K', 1),
    ];
    const round = playClassicSlot({ stakeMinor: STAKE }, scriptedThenFair(stops));
    const middle = round.spins[0]!.lineWins.find((win) => win.line === 0);
    expect(middle).toEqual({ line: 0, symbol: 'SEVEN', count: 3, hasWild: true, pays: 25 });
    expect(round.payoutMinor).toBe((STAKE * BigInt(round.winLineBets)) / 10n);
  });

  it('three STARs pay twice the stake and award 10 free spins on which every win is tripled, without more free spins', () => {
    const stops = [
      stopShowing(0, 'STAR', 0),
      stopShowing(1, 'STAR', 1),
      stopShowing(2, 'STAR', 2),
      stopShowing(3, 'J', 0),
      stopShowing(4, 'J', 0),
    ];
    for (let nonce = 0; nonce < 20; nonce++) {
      const round = playClassicSlot({ stakeMinor: STAKE }, scriptedThenFair(stops, nonce));
      const [paid, ...free] = round.spins;
      expect(paid!.scatterCount).toBeGreaterThanOrEqual(3);
      expect(paid!.freeSpinsAwarded).toBe(10);
      expect(free).toHaveLength(10);
      for (const spin of free) {
        const lines = evaluateLines(spin.window, CLASSIC_RULES).reduce((sum, win) => sum + win.pays, 0);
        expect(spin.winLineBets).toBe(3 * (lines + CLASSIC_SCATTER_PAYS[spin.scatterCount]! * 10));
        expect(spin.freeSpinsAwarded).toBe(0);
      }
    }
  });

  it('two STARs pay nothing and award nothing', () => {
    const stops = [
      stopShowing(0, 'STAR', 0),
      stopShowing(1, 'STAR', 1),
      stopShowing(2, 'A', 0),
      stopShowing(3, 'J', 0),
      stopShowing(4, 'J', 0),
    ];
    const round = playClassicSlot({ stakeMinor: STAKE }, scriptedThenFair(stops));
    expect(round.spins).toHaveLength(1);
    expect(round.spins[0]!.scatterCount).toBe(2);
  });

  it('spins the same for the same seeds: 5 draws, one stop per reel', () => {
    const seeds = {
      serverSeed: 'a3c1f0e6d2b4978563412f0e9d8c7b6a5f4e3d2c1b0a99887766554433221100',
      clientSeed: 'player-seed',
      nonce: 1,
    };
    const round = playClassicSlot({ stakeMinor: STAKE }, createFairRng(seeds));
    expect(round.spins[0]!.stops).toEqual([0x87b4a330 % 29, 0x6445fa5c % 29, 0x19512c47 % 30, 0xbf570336 % 30, 0x53b128ac % 31]);
    expect(playClassicSlot({ stakeMinor: STAKE }, createFairRng(seeds))).toEqual(round);
  });
});

describe('Royal Sevens RTP', () => {
  it('is 96.289 % exactly from the reel strips, as documented', () => {
    const rtp = classicSlotRtp();
    expect(rtp.lines).toBeCloseTo(0.74127, 5);
    expect(rtp.scatters).toBeCloseTo(0.02167, 5);
    expect(1 / rtp.triggerChance).toBeCloseTo(114.47, 2);
    expect(rtp.total).toBeCloseTo(0.96289, 5);
  });

  it(
    'is met on the fair stream: 250 000 rounds within 4.5 standard errors, free spins once in 114.5',
    () => {
      // The return of a round has σ ≈ 3.8 stakes (measured on the sample itself: free spins
      // make it heavy-tailed), so 250 000 rounds have a standard error of about 0.0075 and the
      // tolerance is about ±3.4 %. The paid spin alone (σ ≈ 2.3) and the trigger frequency
      // (binomial) are checked tighter, so a wrong line or scatter rule cannot hide in the total.
      const rounds = 250_000;
      const total = new ReturnStats();
      const paid = new ReturnStats();
      let triggers = 0;
      for (let nonce = 0; nonce < rounds; nonce++) {
        const round = playClassicSlot({ stakeMinor: 10n }, createFairRng({ ...SIMULATION_SEEDS, nonce }));
        total.add(10n, BigInt(round.winLineBets), 10n);
        paid.add(10n, BigInt(round.spins[0]!.winLineBets), 10n);
        if (round.spins.length > 1) triggers++;
      }
      const rtp = classicSlotRtp();
      expect(Math.abs(total.rtp - rtp.total)).toBeLessThan(4.5 * total.standardError);
      expect(Math.abs(paid.rtp - (rtp.lines + rtp.scatters))).toBeLessThan(4.5 * paid.standardError);
      expect(Math.abs(triggers / rounds - rtp.triggerChance)).toBeLessThan(
        4.5 * Math.sqrt((rtp.triggerChance * (1 - rtp.triggerChance)) / rounds),
      );
    },
    SIMULATION_TIMEOUT_MS,
  );
});
