/** The slot reel view's drawing rules (issue 15): paylines as the engines pay them, idle windows that show no win, the count-up. */
import { describe, expect, it } from 'vitest';
import { CLASSIC_RULES } from '#common/games/slot-classic';
import { FRUITS_RULES } from '#common/games/slot-fruits';
import { CASCADE_COLUMNS, CASCADE_ROWS, CASCADE_SYMBOLS, findClusters } from '#common/games/slot-cascade';
import { countScatters, evaluateLines } from '#common/games/slot-lines';
import {
  SLOT_PAYLINES,
  SLOT_SHAPES,
  SLOT_SYMBOLS,
  countUpMinor,
  idleWindow,
  lineWinCells,
  paylinePoints,
  spinningStrip,
} from './slot-reels';

describe('slot reel view', () => {
  it('draws the paylines the engines pay (a drawn line is the line that won)', () => {
    expect(SLOT_PAYLINES['slot-classic']).toEqual(CLASSIC_RULES.paylines);
    expect(SLOT_PAYLINES['slot-fruits']).toEqual(FRUITS_RULES.paylines);
  });

  it("knows every symbol of each engine's strips, and the cascade's gems", () => {
    expect(new Set(SLOT_SYMBOLS['slot-classic'])).toEqual(new Set(CLASSIC_RULES.strips.flat()));
    expect(new Set(SLOT_SYMBOLS['slot-fruits'])).toEqual(new Set(FRUITS_RULES.strips.flat()));
    expect(SLOT_SYMBOLS['slot-cascade']).toEqual(CASCADE_SYMBOLS.map(({ symbol }) => symbol));
    expect(SLOT_SHAPES['slot-cascade']).toEqual({ reels: CASCADE_COLUMNS, rows: CASCADE_ROWS });
  });

  it('shows a full window before the first spin, with no line or cluster that looks like a win', () => {
    for (const engine of ['slot-classic', 'slot-fruits'] as const) {
      const window = idleWindow(engine);
      expect(window).toHaveLength(5);
      expect(window.every((reel) => reel.length === 3)).toBe(true);
      const rules = engine === 'slot-classic' ? CLASSIC_RULES : FRUITS_RULES;
      expect(evaluateLines(window, rules)).toEqual([]);
      expect(countScatters(window, rules.scatter)).toBe(0);
    }
    const grid = idleWindow('slot-cascade');
    expect(grid).toHaveLength(CASCADE_COLUMNS);
    expect(findClusters(grid)).toEqual([]);
  });

  it('spins each reel through the slot’s own symbols', () => {
    const strip = spinningStrip('slot-fruits', 2);
    expect(new Set(strip)).toEqual(new Set(SLOT_SYMBOLS['slot-fruits']));
    expect(spinningStrip('slot-fruits', 1)).not.toEqual(strip);
  });

  it('lights the first count cells of a winning line and draws it through the middle of each cell', () => {
    expect(lineWinCells('slot-classic', 3, 3)).toEqual([
      { reel: 0, row: 0 },
      { reel: 1, row: 1 },
      { reel: 2, row: 2 },
    ]);
    expect(paylinePoints('slot-classic', 3)).toBe('50,50 150,150 250,250 350,150 450,50');
  });

  it('counts a win up without passing it, and ends on the win', () => {
    const seen = [0, 100, 400, 800, 1199].map((elapsed) => countUpMinor(12_345, elapsed, 1200));
    expect(seen[0]).toBe(0);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
    expect(Math.max(...seen)).toBeLessThanOrEqual(12_345);
    expect(countUpMinor(12_345, 1200, 1200)).toBe(12_345);
    // Reduced motion: no duration, the win at once.
    expect(countUpMinor(12_345, 0, 0)).toBe(12_345);
  });
});
