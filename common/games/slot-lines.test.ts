import { describe, expect, it } from 'vitest';
import {
  countScatters,
  evaluateLineSymbols,
  evaluateLines,
  expectedLinePay,
  scatterCountChances,
  spinReels,
  windowAt,
  type LineSlotRules,
} from './slot-lines';
import { scriptedRng } from './scripted-rng';

const PAYS = { W: [0, 0, 0, 50, 250, 1000], H: [0, 0, 0, 25, 100, 500], L: [0, 0, 2, 3, 8, 40] };
const RULES = { linePays: PAYS, wild: 'W', scatter: 'S' };

describe('payline wins (left to right, wilds stand in, scatters never pay on lines)', () => {
  it('pays the run of one symbol from the leftmost reel', () => {
    expect(evaluateLineSymbols(['H', 'H', 'H', 'L', 'H'], RULES)).toEqual({ symbol: 'H', count: 3, hasWild: false, pays: 25 });
    expect(evaluateLineSymbols(['L', 'H', 'H', 'H', 'H'], RULES)).toBeNull();
  });

  it('lets a wild stand in for the symbol anywhere in the run', () => {
    expect(evaluateLineSymbols(['H', 'W', 'H', 'W', 'L'], RULES)).toEqual({ symbol: 'H', count: 4, hasWild: true, pays: 100 });
    expect(evaluateLineSymbols(['W', 'W', 'H', 'H', 'H'], RULES)).toEqual({ symbol: 'H', count: 5, hasWild: true, pays: 500 });
  });

  it('pays a leading run of wilds as wilds when that pays more than the symbol they complete', () => {
    expect(evaluateLineSymbols(['W', 'W', 'W', 'L', 'L'], RULES)).toEqual({ symbol: 'W', count: 3, hasWild: true, pays: 50 });
    expect(evaluateLineSymbols(['W', 'W', 'W', 'W', 'W'], RULES)).toEqual({ symbol: 'W', count: 5, hasWild: true, pays: 1000 });
  });

  it('does not let a wild stand in for a scatter, nor a scatter pay on a line', () => {
    expect(evaluateLineSymbols(['S', 'S', 'S', 'S', 'S'], RULES)).toBeNull();
    expect(evaluateLineSymbols(['W', 'S', 'S', 'H', 'H'], RULES)).toBeNull();
    expect(evaluateLineSymbols(['L', 'L', 'S', 'L', 'L'], RULES)).toEqual({ symbol: 'L', count: 2, hasWild: false, pays: 2 });
  });
});

describe('reels and window', () => {
  const strips = [
    ['A', 'B', 'C', 'D'],
    ['E', 'F', 'G'],
  ];

  it('shows strip[stop], strip[stop + 1], strip[stop + 2] top to bottom, wrapping around the strip', () => {
    expect(windowAt(strips, [3, 1])).toEqual([
      ['D', 'A', 'B'],
      ['F', 'G', 'E'],
    ]);
  });

  it('takes one draw per reel, left to right, as uniformInt(strip length)', () => {
    const rng = scriptedRng([6, 2]);
    expect(spinReels(strips, rng)).toEqual({ stops: [2, 2], window: windowAt(strips, [2, 2]) });
    expect(rng.taken).toBe(2);
  });

  it('counts scatters anywhere in the window', () => {
    expect(
      countScatters(
        [
          ['S', 'A', 'A'],
          ['A', 'A', 'S'],
          ['A', 'A', 'A'],
        ],
        'S',
      ),
    ).toBe(2);
  });
});

describe('exact expectations from the strips', () => {
  // Small strips, so that every combination of stops can be played and counted.
  const rules: LineSlotRules = {
    strips: [
      ['H', 'L', 'W', 'S', 'L'],
      ['L', 'H', 'L', 'W'],
      ['H', 'S', 'L', 'L', 'H', 'W'],
      ['W', 'L', 'H', 'L'],
      ['L', 'H', 'S', 'L', 'W'],
    ],
    paylines: [
      [1, 1, 1, 1, 1],
      [0, 0, 0, 0, 0],
      [2, 2, 2, 2, 2],
      [0, 1, 2, 1, 0],
      [2, 1, 0, 1, 2],
    ],
    ...RULES,
  };

  function everyStop(visit: (stops: number[]) => void, stops: number[] = []): void {
    if (stops.length === rules.strips.length) return visit(stops);
    for (let stop = 0; stop < rules.strips[stops.length]!.length; stop++) everyStop(visit, [...stops, stop]);
  }

  it('gives the mean pay of a line, the same on every line, as playing every combination of stops does', () => {
    let combinations = 0;
    let pays = 0;
    everyStop((stops) => {
      combinations++;
      pays += evaluateLines(windowAt(rules.strips, stops), rules).reduce((sum, win) => sum + win.pays, 0);
    });
    expect(pays / combinations / rules.paylines.length).toBeCloseTo(expectedLinePay(rules), 12);
  });

  it('gives the chance of each number of scatters as playing every combination of stops does', () => {
    const counts = [0, 0, 0, 0, 0, 0];
    let combinations = 0;
    everyStop((stops) => {
      combinations++;
      counts[countScatters(windowAt(rules.strips, stops), 'S')]!++;
    });
    scatterCountChances(rules.strips, 'S').forEach((chance, k) => expect(chance).toBeCloseTo(counts[k]! / combinations, 12));
  });

  it('refuses strips where two scatters could show on one reel at once', () => {
    expect(() => scatterCountChances([['S', 'A', 'S', 'A', 'A', 'A']], 'S')).toThrow(RangeError);
  });
});
