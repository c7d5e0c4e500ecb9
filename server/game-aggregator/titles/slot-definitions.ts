/**
 * The six 5×3 video slots of Red Fox Gaming and Northlight Studios: one engine (slot-engine.ts),
 * each title its symbols, weights, pay shape, lines and free spins. RTPs are the catalogue's
 * (content/shared/_all/games/{id}.json game_params.rtp). Data only: the game client imports it
 * too, to draw each title's symbols before the first spin.
 */
import type { PaySymbol, SlotDefinition } from './slot-engine';

/** The usual pay ladder, highest symbol first: relative pays for 3, 4 and 5 in a row. */
const LADDER: readonly (readonly [number, number, number])[] = [
  [20, 80, 400],
  [15, 50, 200],
  [10, 30, 120],
  [6, 18, 70],
  [4, 12, 45],
  [3, 8, 30],
];
const WEIGHTS = [2, 3, 4, 5, 6, 7];

function ladder(ids: readonly string[]): PaySymbol[] {
  return ids.map((id, index) => ({ id, weight: WEIGHTS[index]!, pays: LADDER[index]! }));
}

const common = {
  wild: { id: 'wild', weight: 1.2 },
  scatter: { id: 'scatter', weight: 0.8, pays: [2, 10, 50] as const },
};

export const SLOT_DEFINITIONS: readonly SlotDefinition[] = [
  {
    id: 'fox-fortune',
    provider: 'redfox',
    rtpPercent: 96.5,
    lines: 10,
    symbols: ladder(['fox', 'coin', 'bell', 'cherry', 'lemon', 'plum']),
    ...common,
    freeSpins: { count: 10, multiplier: 2 },
  },
  {
    id: 'red-hot-sevens',
    provider: 'redfox',
    rtpPercent: 95.9,
    lines: 10,
    symbols: ladder(['seven', 'bar', 'bell', 'cherry', 'lemon', 'plum']),
    ...common,
    freeSpins: { count: 8, multiplier: 3 },
  },
  {
    id: 'frozen-fjord',
    provider: 'northlight',
    rtpPercent: 96.1,
    lines: 20,
    symbols: ladder(['ship', 'fish', 'snowflake', 'moon', 'pearl', 'coin']),
    ...common,
    freeSpins: { count: 12, multiplier: 2 },
  },
  {
    id: 'midnight-aurora',
    provider: 'northlight',
    rtpPercent: 96.3,
    lines: 20,
    symbols: ladder(['owl', 'moon', 'diamond', 'snowflake', 'pearl', 'bell']),
    ...common,
    freeSpins: { count: 10, multiplier: 3 },
  },
  {
    id: 'viking-gold',
    provider: 'northlight',
    rtpPercent: 95.5,
    lines: 20,
    symbols: ladder(['axe', 'shield', 'horn', 'ship', 'rune', 'coin']),
    ...common,
    freeSpins: { count: 10, multiplier: 2 },
  },
  {
    id: 'polar-pearls',
    provider: 'northlight',
    rtpPercent: 96,
    lines: 20,
    symbols: ladder(['pearl', 'shell', 'fish', 'snowflake', 'diamond', 'moon']),
    ...common,
    freeSpins: { count: 15, multiplier: 2 },
  },
];
