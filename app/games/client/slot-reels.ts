/**
 * What the slot reel view draws beside the engine's outcome (issue 15): the symbols a reel shows
 * before the first spin and while it spins, the paylines to draw a win on, and the count-up of a
 * win. The engines (common/games/slot-*.ts) stay out of the client bundle: the paylines come from
 * their data module, and nothing here decides an outcome.
 */
import { FRUIT_PAYLINES, TEN_PAYLINES } from '#common/games/paylines';

export type SlotEngine = 'slot-classic' | 'slot-fruits' | 'slot-cascade';

/** Reels × rows of each slot's window. */
export const SLOT_SHAPES: Record<SlotEngine, { reels: number; rows: number }> = {
  'slot-classic': { reels: 5, rows: 3 },
  'slot-fruits': { reels: 5, rows: 3 },
  'slot-cascade': { reels: 6, rows: 5 },
};

/** Each slot's symbols, most valuable first. */
export const SLOT_SYMBOLS: Record<SlotEngine, readonly string[]> = {
  'slot-classic': ['WILD', 'STAR', 'SEVEN', 'BAR', 'BELL', 'A', 'K', 'Q', 'J'],
  'slot-fruits': ['WILD', 'BASKET', 'MELON', 'GRAPES', 'PLUM', 'ORANGE', 'LEMON', 'CHERRY'],
  'slot-cascade': ['DIAMOND', 'EMERALD', 'RUBY', 'SAPPHIRE', 'AMETHYST', 'TOPAZ', 'ONYX'],
};

/** The row (0 top) of each reel for every payline, as the engines number them. */
export const SLOT_PAYLINES: Record<Exclude<SlotEngine, 'slot-cascade'>, readonly (readonly number[])[]> = {
  'slot-classic': TEN_PAYLINES,
  'slot-fruits': FRUIT_PAYLINES,
};

const IDLE_LEFT_OUT = new Set(['WILD', 'STAR', 'BASKET']);

export function isSlotEngine(engine: string): engine is SlotEngine {
  return Object.hasOwn(SLOT_SHAPES, engine);
}

/**
 * The window shown before the first spin: every symbol of the slot, placed so that no two
 * neighbours match (no line or cluster seems to have won). window[reel][row].
 */
export function idleWindow(engine: SlotEngine): string[][] {
  const { reels, rows } = SLOT_SHAPES[engine];
  // No wild (it would make a line of its neighbours) and no scatter (three would look like a win).
  // Steps of 2 along a row and 3 down a reel change the symbol by -1, 2 or 5 from one reel to the
  // next on any payline: never 0 mod 6 or 7, so no two neighbours on a line match.
  const symbols = SLOT_SYMBOLS[engine].filter((symbol) => !IDLE_LEFT_OUT.has(symbol));
  return Array.from({ length: reels }, (_, reel) =>
    Array.from({ length: rows }, (_, row) => symbols[(reel * 2 + row * 3) % symbols.length]!),
  );
}

/** The symbols that run past while a reel spins: all of the slot's, in an order of the reel's own. */
export function spinningStrip(engine: SlotEngine, reel: number): string[] {
  const symbols = SLOT_SYMBOLS[engine];
  return Array.from({ length: symbols.length * 2 }, (_, index) => symbols[(index * 5 + reel * 3) % symbols.length]!);
}

/** The cells a line win lights: the payline's first `count` reels. */
export function lineWinCells(
  engine: Exclude<SlotEngine, 'slot-cascade'>,
  line: number,
  count: number,
): { reel: number; row: number }[] {
  const rows = SLOT_PAYLINES[engine][line] ?? [];
  return rows.slice(0, count).map((row, reel) => ({ reel, row }));
}

/** A payline as SVG points in a view box of 100 units a cell, through the middle of each reel's cell. */
export function paylinePoints(engine: Exclude<SlotEngine, 'slot-cascade'>, line: number): string {
  return (SLOT_PAYLINES[engine][line] ?? []).map((row, reel) => `${reel * 100 + 50},${row * 100 + 50}`).join(' ');
}

/**
 * The amount a count-up shows after `elapsed` of `duration` ms, in minor units: it eases out and
 * never passes the win; at or after the end (or with no duration) it is the win itself.
 */
export function countUpMinor(totalMinor: number, elapsed: number, duration: number): number {
  if (duration <= 0 || elapsed >= duration) return totalMinor;
  const progress = Math.max(0, elapsed) / duration;
  const eased = 1 - (1 - progress) ** 3;
  return Math.min(totalMinor, Math.floor(totalMinor * eased));
}
