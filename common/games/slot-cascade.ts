/**
 * "Gem Cascade", a fast cluster-pays slot on a 6×5 grid with cascades and a rising multiplier.
 *
 * Grid: 6 columns × 5 rows, cell (column, row), row 0 at the top. Each cell holds one of seven
 * gems, drawn independently with the weights of CASCADE_SYMBOLS.
 * Draws: filling cells, one draw each: uniformInt(total weight) picks the gem whose cumulative
 * weight range holds it. The first grid fills column 0 to 5, each top to bottom; after a win the
 * cells that paid vanish, the gems above fall to the bottom of their column, and the empty cells
 * left at the top are filled the same way (columns left to right, each top to bottom).
 * Wins: a cluster is 5 or more cells of one gem joined up, down, left or right. Every cluster
 * pays by its gem and size (CASCADE_PAYS, in hundredths of the stake), times the multiplier of
 * the cascade: 1× for the first grid, then 2×, 3×, 5× and 10× for every later cascade. The
 * round goes on while a grid has a cluster, for at most 100 cascades (the longest of 10⁶
 * simulated rounds had 9).
 * Payout: ⌊stake × (hundredths won) / 100⌋.
 * RTP: 96.04 % by simulation (the grid's dependencies leave no closed form): 10 000 000 rounds
 * on the fair stream returned 96.039 % ± 0.147 % (95 % interval), σ = 2.37 stakes a round
 * (npm run bench:games -- --rtp 10000000 --games slot-cascade).
 */
import { requireStake } from './payout';
import type { Rng } from './fair';

export const CASCADE_COLUMNS = 6;
export const CASCADE_ROWS = 5;
export const CASCADE_MIN_CLUSTER = 5;
export const CASCADE_MAX_CASCADES = 100;
export const CASCADE_MULTIPLIERS = [1, 2, 3, 5, 10] as const;

/** Gems and their draw weights, most valuable first. */
export const CASCADE_SYMBOLS = [
  { symbol: 'DIAMOND', weight: 2 },
  { symbol: 'EMERALD', weight: 3 },
  { symbol: 'RUBY', weight: 4 },
  { symbol: 'SAPPHIRE', weight: 6 },
  { symbol: 'AMETHYST', weight: 8 },
  { symbol: 'TOPAZ', weight: 12 },
  { symbol: 'ONYX', weight: 16 },
] as const;

/** Cluster sizes the pay steps start at; a size pays the step of the largest start ≤ it. */
export const CASCADE_SIZE_STEPS = [5, 6, 7, 8, 9, 11, 13, 16] as const;

/** Pays in hundredths of the stake, by gem and size step. */
export const CASCADE_PAYS: Record<string, readonly number[]> = {
  DIAMOND: [500, 750, 1250, 2000, 3500, 7500, 20_000, 50_000],
  EMERALD: [300, 500, 750, 1250, 2000, 4000, 10_000, 25_000],
  RUBY: [200, 300, 500, 750, 1250, 2500, 6000, 15_000],
  SAPPHIRE: [150, 200, 300, 500, 750, 1500, 4000, 10_000],
  AMETHYST: [100, 150, 200, 300, 500, 1000, 2500, 6000],
  TOPAZ: [50, 75, 100, 150, 250, 500, 1250, 3000],
  ONYX: [30, 50, 75, 100, 150, 300, 750, 2000],
};

/** grid[column][row], row 0 at the top. */
export type CascadeGrid = string[][];

export interface Cluster {
  symbol: string;
  /** Cells as column · 5 + row. */
  cells: number[];
  /** Hundredths of the stake, multiplier included. */
  pays: number;
}

export interface CascadeStep {
  grid: CascadeGrid;
  multiplier: number;
  clusters: Cluster[];
}

export interface CascadeRound {
  stakeMinor: bigint;
  /** Each grid in turn; the last one has no cluster (or is the 100th cascade). */
  steps: CascadeStep[];
  winHundredths: number;
  payoutMinor: bigint;
}

const TOTAL_WEIGHT = CASCADE_SYMBOLS.reduce((sum, { weight }) => sum + weight, 0);
const CELLS = CASCADE_COLUMNS * CASCADE_ROWS;
const SYMBOL_NAMES: readonly string[] = CASCADE_SYMBOLS.map(({ symbol }) => symbol);
const TWO_POW_32 = 0x1_0000_0000;

// The engine works on gem indices (0 DIAMOND … 6 ONYX) in flat arrays of cell = column · 5 + row
// and builds the strings of the result only once per grid: the rounds are the same as the plain
// version's (reference/slot-cascade.ts, checked by the tests), at several times the speed.

/** uniformInt(TOTAL_WEIGHT) as fair.ts step 6 takes it: draws at or above this are rejected. */
const DRAW_LIMIT = TWO_POW_32 - (TWO_POW_32 % TOTAL_WEIGHT);
/** The gem index whose cumulative weight range holds a pick in [0, TOTAL_WEIGHT). */
const GEM_OF_PICK = Uint8Array.from(CASCADE_SYMBOLS.flatMap(({ weight }, gem) => Array<number>(weight).fill(gem)));
/** Pays at 1× by gem index and cluster size (0 below the smallest step). */
const PAYS_BY_SIZE = CASCADE_SYMBOLS.map(({ symbol }) =>
  Array.from({ length: CELLS + 1 }, (_, size) => clusterPays(symbol, size)),
);

/** One weighted draw, the same draws uniformInt(rng, TOTAL_WEIGHT) would take. */
function drawGem(rng: Rng): number {
  for (;;) {
    const u = rng.nextUint32();
    if (u < DRAW_LIMIT) return GEM_OF_PICK[u % TOTAL_WEIGHT]!;
  }
}

export function clusterPays(symbol: string, size: number): number {
  let step = -1;
  for (let index = 0; index < CASCADE_SIZE_STEPS.length; index++) if (size >= CASCADE_SIZE_STEPS[index]!) step = index;
  return step < 0 ? 0 : CASCADE_PAYS[symbol]![step]!;
}

// Cells as bit masks, bit `cell` for cell = column · 5 + row: the grid's 30 cells fit one 32-bit
// integer, so a cluster search spreads a whole set of cells one step with a few shifts, where a
// flood fill visited cell after cell (issue 12: the search was a seventh of a round's time).
const ALL_CELLS = 2 ** CELLS - 1;
/** Cells of one row, in every column. */
const rowMask = (row: number) =>
  Array.from({ length: CASCADE_COLUMNS }, (_, column) => 1 << (column * CASCADE_ROWS + row)).reduce((a, b) => a | b);
const TOP_ROW = rowMask(0);
const BOTTOM_ROW = rowMask(CASCADE_ROWS - 1);

/** The cells up, down, left or right of any cell in `cells`. */
function neighboursOf(cells: number): number {
  const down = (cells << 1) & ~TOP_ROW; // the cell below a bottom cell would be the next column's top
  const up = (cells >>> 1) & ~BOTTOM_ROW;
  return (down | up | (cells << CASCADE_ROWS) | (cells >>> CASCADE_ROWS)) & ALL_CELLS;
}

/** How many cells a mask holds (a parallel bit count: pairs, then nibbles, then bytes summed). */
function cellCount(cells: number): number {
  const pairs = cells - ((cells >>> 1) & 0x55555555);
  const nibbles = (pairs & 0x33333333) + ((pairs >>> 2) & 0x33333333);
  return Math.imul((nibbles + (nibbles >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The lowest cell of a non-empty mask. */
function firstCell(cells: number): number {
  return 31 - Math.clz32(cells & -cells);
}

// Scratch space: the engine is synchronous and never re-entered, and typed arrays cost more to
// allocate than to reuse. A round's grids alternate between the two grid buffers.
const gridBuffers = [new Uint8Array(CELLS), new Uint8Array(CELLS)] as const;
const cellsOfGem = new Int32Array(CASCADE_SYMBOLS.length);

/** Every cluster of 5 or more (4-neighbour) in cell order of its first cell, pays times `multiplier`. */
function clustersOf(gems: Uint8Array, multiplier: number): Cluster[] {
  cellsOfGem.fill(0);
  for (let cell = 0; cell < CELLS; cell++) cellsOfGem[gems[cell]!]! |= 1 << cell;
  const clusters: Cluster[] = [];
  for (let gem = 0; gem < CASCADE_SYMBOLS.length; gem++) {
    const ofGem = cellsOfGem[gem]!;
    // Only cells with a like neighbour can be in a cluster; most gems have too few of them.
    let open = ofGem & neighboursOf(ofGem);
    if (cellCount(open) < CASCADE_MIN_CLUSTER) continue;
    while (open !== 0) {
      let cluster = open & -open;
      for (;;) {
        const grown = (cluster | neighboursOf(cluster)) & ofGem;
        if (grown === cluster) break;
        cluster = grown;
      }
      open &= ~cluster;
      const size = cellCount(cluster);
      if (size >= CASCADE_MIN_CLUSTER) clusters.push(clusterOf(gem, cluster, size, multiplier));
    }
  }
  if (clusters.length > 1) clusters.sort((a, b) => a.cells[0]! - b.cells[0]!);
  return clusters;
}

function clusterOf(gem: number, cluster: number, size: number, multiplier: number): Cluster {
  const cells: number[] = [];
  for (let rest = cluster; rest !== 0; rest &= rest - 1) cells.push(firstCell(rest));
  return { symbol: SYMBOL_NAMES[gem]!, cells, pays: PAYS_BY_SIZE[gem]![size]! * multiplier };
}

/** Removes the clusters' cells, lets the rest fall, fills each column's top from the stream into `next`. */
function cascadeGems(gems: Uint8Array, clusters: readonly Cluster[], rng: Rng, next: Uint8Array): Uint8Array {
  let paid = 0;
  for (const cluster of clusters) for (const cell of cluster.cells) paid |= 1 << cell;
  for (let column = 0; column < CASCADE_COLUMNS; column++) {
    const top = column * CASCADE_ROWS;
    // Kept gems, bottom up, settle at the bottom of the column in the same order.
    let to = top + CASCADE_ROWS - 1;
    for (let from = top + CASCADE_ROWS - 1; from >= top; from--) if (((paid >>> from) & 1) === 0) next[to--] = gems[from]!;
    for (let cell = top; cell <= to; cell++) next[cell] = drawGem(rng);
  }
  return next;
}

function fillGems(rng: Rng, gems: Uint8Array): Uint8Array {
  for (let cell = 0; cell < CELLS; cell++) gems[cell] = drawGem(rng);
  return gems;
}

function gemsOfGrid(grid: CascadeGrid): Uint8Array {
  const gems = new Uint8Array(CELLS);
  for (let cell = 0; cell < CELLS; cell++) {
    const gem = SYMBOL_NAMES.indexOf(grid[Math.floor(cell / CASCADE_ROWS)]![cell % CASCADE_ROWS]!);
    if (gem < 0) throw new RangeError(`not a Gem Cascade gem: ${grid[Math.floor(cell / CASCADE_ROWS)]![cell % CASCADE_ROWS]}`);
    gems[cell] = gem;
  }
  return gems;
}

function gridOfGems(gems: Uint8Array): CascadeGrid {
  const grid: CascadeGrid = [];
  for (let column = 0; column < CASCADE_COLUMNS; column++) {
    const top = column * CASCADE_ROWS;
    grid.push([
      SYMBOL_NAMES[gems[top]!]!,
      SYMBOL_NAMES[gems[top + 1]!]!,
      SYMBOL_NAMES[gems[top + 2]!]!,
      SYMBOL_NAMES[gems[top + 3]!]!,
      SYMBOL_NAMES[gems[top + 4]!]!,
    ]);
  }
  return grid;
}

/** Every cluster of 5 or more in the grid (4-neighbour flood fill), with its pay at 1×. */
export function findClusters(grid: CascadeGrid): Cluster[] {
  return clustersOf(gemsOfGrid(grid), 1);
}

/** Removes the paid cells, lets the rest fall and fills the top of each column from the stream. */
export function cascade(grid: CascadeGrid, clusters: readonly Cluster[], rng: Rng): CascadeGrid {
  return gridOfGems(cascadeGems(gemsOfGrid(grid), clusters, rng, new Uint8Array(CELLS)));
}

export function fillGrid(rng: Rng): CascadeGrid {
  return gridOfGems(fillGems(rng, new Uint8Array(CELLS)));
}

export function cascadeMultiplier(stepIndex: number): number {
  return CASCADE_MULTIPLIERS[Math.min(stepIndex, CASCADE_MULTIPLIERS.length - 1)]!;
}

export function playCascadeSlot(params: { stakeMinor: bigint }, rng: Rng): CascadeRound {
  const stakeMinor = requireStake(params.stakeMinor);
  const steps: CascadeStep[] = [];
  let gems = fillGems(rng, gridBuffers[0]);
  let winHundredths = 0;
  for (let index = 0; ; index++) {
    const multiplier = cascadeMultiplier(index);
    const clusters = clustersOf(gems, multiplier);
    steps.push({ grid: gridOfGems(gems), multiplier, clusters });
    for (const cluster of clusters) winHundredths += cluster.pays;
    if (clusters.length === 0 || index + 1 > CASCADE_MAX_CASCADES) break;
    gems = cascadeGems(gems, clusters, rng, gridBuffers[(index + 1) % 2]!);
  }
  return { stakeMinor, steps, winHundredths, payoutMinor: (stakeMinor * BigInt(winHundredths)) / 100n };
}
