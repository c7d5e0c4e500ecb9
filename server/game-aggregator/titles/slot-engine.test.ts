/**
 * The 5×3 slot engine (issue 15: "a 5×3 slot with free spins"; docs/game-aggregator.md): each
 * title's exact return is the catalogue's RTP, a simulation agrees with it, lines and wilds pay
 * as the rules say, and three scatters start the free spins with their multiplier.
 */
import { describe, expect, it } from 'vitest';
import { ReturnStats } from '#common/games/statistics';
import { cryptoRng } from '../rng';
import { evaluateSpin, playSlot, PAYLINES, REELS, ROWS, slotModel } from './slot-engine';
import { SLOT_DEFINITIONS, SLOT_TITLES } from './slots';
import { readStake } from './stake';
import { scripted, seededRng, valueFor } from './test-rng';
import { readFileSync } from 'node:fs';

const catalogueRtp = (id: string) =>
  (
    JSON.parse(readFileSync(new URL(`../../../content/shared/_all/games/${id}.json`, import.meta.url), 'utf8')) as {
      game_params: { rtp: number };
    }
  ).game_params.rtp;

describe('slot RTP (catalogue game_params.rtp)', () => {
  it.each(SLOT_DEFINITIONS.map((definition) => definition.id))(
    '%s: the exact return is the catalogue RTP within 0.05 %%',
    (id) => {
      const title = SLOT_TITLES.find((candidate) => candidate.id === id)!;
      expect(title.model.expectedReturn).toBeCloseTo(catalogueRtp(id) / 100, 3);
    },
  );

  it.each(SLOT_DEFINITIONS.map((definition) => definition.id))(
    '%s: 60 000 simulated spins (seeded) agree with the exact return within 4.5 standard errors',
    (id) => {
      const title = SLOT_TITLES.find((candidate) => candidate.id === id)!;
      // A stake of 100 per line: every pay (hundredths of the line bet) is a whole number of cents.
      const stake = BigInt(title.model.definition.lines) * 100n;
      const stats = new ReturnStats();
      const rng = seededRng(id.length * 7919);
      for (let spin = 0; spin < 60_000; spin++) stats.add(stake, BigInt(playSlot(title.model, stake, rng).win));
      expect(Math.abs(stats.rtp - title.model.expectedReturn)).toBeLessThan(4.5 * stats.standardError);
    },
  );
});

describe('slot rules', () => {
  const model = slotModel(SLOT_DEFINITIONS[0]!);
  const definition = model.definition;
  const filled = (symbol: string) => Array.from({ length: REELS }, () => Array.from({ length: ROWS }, () => symbol));

  it('a line pays its leftmost run of 3+ of one symbol; wilds stand in; a scatter breaks the run', () => {
    const reels = filled('scatter');
    // The middle line (line 0): fox, wild, fox, scatter, fox → a run of 3.
    ['fox', 'wild', 'fox', 'scatter', 'fox'].forEach((symbol, reel) => (reels[reel]![1] = symbol));
    const spin = evaluateSpin(model, reels, 1000n, 1);
    const pays = model.linePays.get('fox')!;
    expect(spin.lineWins.find((win) => win.line === 0)).toEqual({
      line: 0,
      symbol: 'fox',
      count: 3,
      win: ((1000n * BigInt(pays[0])) / (BigInt(definition.lines) * 100n)).toString(),
    });
  });

  it('a line of five wilds pays as the best symbol’s five', () => {
    const reels = filled('scatter');
    for (let reel = 0; reel < REELS; reel++) reels[reel]![PAYLINES[0]![reel]!] = 'wild';
    const win = evaluateSpin(model, reels, 1000n, 1).lineWins.find((lineWin) => lineWin.line === 0);
    expect(win?.win).toBe(((1000n * BigInt(model.linePays.get('fox')![2])) / (BigInt(definition.lines) * 100n)).toString());
  });

  it('three scatters pay the stake multiple and start the free spins, whose wins are multiplied', () => {
    const scatter = model.ids.indexOf('scatter');
    const cherry = model.ids.indexOf('cherry');
    const lemon = model.ids.indexOf('lemon');
    // Reel by reel, top to bottom: scatters on reels 1, 2, 3 (top row); elsewhere no line can pay.
    const grid = [
      [scatter, cherry, lemon],
      [scatter, lemon, cherry],
      [scatter, cherry, lemon],
      [lemon, scatter === 0 ? 1 : 0, cherry].map(() => lemon),
      [cherry, cherry, cherry],
    ];
    const values = grid.flat().map((index) => valueFor(model.weights, index));
    const view = playSlot(model, 1000n, scripted(values));
    expect(view.spin.scatters).toBe(3);
    expect(view.spin.scatterWin).toBe(((1000n * BigInt(model.scatterPays[0])) / 100n).toString());
    expect(view.freeSpins).toHaveLength(definition.freeSpins.count);
    expect(view.freeSpinMultiplier).toBe(definition.freeSpins.multiplier);
    const total = [view.spin, ...view.freeSpins].reduce((sum, spin) => sum + BigInt(spin.win), 0n);
    expect(view.win).toBe(total.toString());
    // A free spin's grid paid at the multiplier: the same grid at ×1 pays exactly its share.
    for (const spin of view.freeSpins) {
      const once = evaluateSpin(model, spin.reels, 1000n, 1);
      expect(BigInt(spin.win)).toBeGreaterThanOrEqual(
        BigInt(once.win) * BigInt(definition.freeSpins.multiplier) - BigInt(once.lineWins.length),
      );
    }
  });

  it('two scatters start nothing', () => {
    const scatter = model.ids.indexOf('scatter');
    const lemon = model.ids.indexOf('lemon');
    const values = Array.from({ length: REELS * ROWS }, (_, cell) => valueFor(model.weights, cell < 2 ? scatter : lemon));
    // Reels 1–5 of lemons: lines pay, no free spins.
    const view = playSlot(model, 1000n, scripted(values));
    expect(view.spin.scatters).toBe(2);
    expect(view.freeSpins).toEqual([]);
  });

  it('the stake is whole minor units between the catalogue limits (0.10 … 100.00); anything else is refused', () => {
    expect(readStake({ stake: '10' })).toBe(10n);
    expect(readStake({ stake: 10_000 })).toBe(10_000n);
    for (const bad of [{ stake: '9' }, { stake: '10001' }, { stake: '1.5' }, { stake: -100 }, { stake: 'abc' }, {}, null, 'x'])
      expect(readStake(bad)).toBeUndefined();
    expect(SLOT_TITLES[0]!.start({ stake: '5' }, cryptoRng)).toBeUndefined();
  });
});
