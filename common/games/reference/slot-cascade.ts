/**
 * The reference implementation of "Gem Cascade": slot-cascade.ts exactly as first written
 * (string grids, closures, a Set of paid cells), before it was rewritten for speed (issue 12).
 * Only tests import it: every round of the fast engine must equal this one's on the same stream,
 * because a published round is verified by replaying it (provably fair, architecture §6).
 */
import { requireStake } from '../payout';
import { uniformInt, type Rng } from '../fair';

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

const TOTAL_WEIGHT = CASCADE_SYMBOLS.reduce((sum, { weight }) => sum + weight, 0);
const CELLS = CASCADE_COLUMNS * CASCADE_ROWS;

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

function drawSymbol(rng: Rng): string {
  let pick = uniformInt(rng, TOTAL_WEIGHT);
  for (const { symbol, weight } of CASCADE_SYMBOLS) {
    if (pick < weight) return symbol;
    pick -= weight;
  }
  throw new Error('unreachable: the pick is below the total weight');
}

export function clusterPays(symbol: string, size: number): number {
  let step = -1;
  CASCADE_SIZE_STEPS.forEach((start, index) => {
    if (size >= start) step = index;
  });
  return step < 0 ? 0 : CASCADE_PAYS[symbol]![step]!;
}

/** Every cluster of 5 or more in the grid (4-neighbour flood fill), with its pay at 1×. */
export function findClusters(grid: CascadeGrid): Cluster[] {
  const seen = new Uint8Array(CELLS);
  const clusters: Cluster[] = [];
  const symbolAt = (cell: number) => grid[Math.floor(cell / CASCADE_ROWS)]![cell % CASCADE_ROWS]!;
  for (let start = 0; start < CELLS; start++) {
    if (seen[start]) continue;
    const symbol = symbolAt(start);
    const cells = [start];
    seen[start] = 1;
    const visit = (neighbour: number) => {
      if (!seen[neighbour] && symbolAt(neighbour) === symbol) {
        seen[neighbour] = 1;
        cells.push(neighbour);
      }
    };
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]!;
      const row = cell % CASCADE_ROWS;
      if (cell >= CASCADE_ROWS) visit(cell - CASCADE_ROWS);
      if (cell < CELLS - CASCADE_ROWS) visit(cell + CASCADE_ROWS);
      if (row > 0) visit(cell - 1);
      if (row < CASCADE_ROWS - 1) visit(cell + 1);
    }
    if (cells.length >= CASCADE_MIN_CLUSTER)
      clusters.push({ symbol, cells: cells.sort((a, b) => a - b), pays: clusterPays(symbol, cells.length) });
  }
  return clusters;
}

/** Removes the paid cells, lets the rest fall and fills the top of each column from the stream. */
export function cascade(grid: CascadeGrid, clusters: readonly Cluster[], rng: Rng): CascadeGrid {
  const paid = new Set(clusters.flatMap((cluster) => cluster.cells));
  const kept = grid.map((column, c) => column.filter((_, row) => !paid.has(c * CASCADE_ROWS + row)));
  return kept.map((column) => [...Array.from({ length: CASCADE_ROWS - column.length }, () => drawSymbol(rng)), ...column]);
}

export function fillGrid(rng: Rng): CascadeGrid {
  return Array.from({ length: CASCADE_COLUMNS }, () => Array.from({ length: CASCADE_ROWS }, () => drawSymbol(rng)));
}

export function cascadeMultiplier(stepIndex: number): number {
  return CASCADE_MULTIPLIERS[Math.min(stepIndex, CASCADE_MULTIPLIERS.length - 1)]!;
}

export function playCascadeSlot(params: { stakeMinor: bigint }, rng: Rng): CascadeRound {
  const stakeMinor = requireStake(params.stakeMinor);
  const steps: CascadeStep[] = [];
  let grid = fillGrid(rng);
  for (let index = 0; ; index++) {
    const multiplier = cascadeMultiplier(index);
    const clusters = findClusters(grid).map((cluster) => ({ ...cluster, pays: cluster.pays * multiplier }));
    steps.push({ grid, multiplier, clusters });
    if (clusters.length === 0 || index + 1 > CASCADE_MAX_CASCADES) break;
    grid = cascade(grid, clusters, rng);
  }
  const winHundredths = steps.reduce(
    (sum, step) => sum + step.clusters.reduce((stepSum, cluster) => stepSum + cluster.pays, 0),
    0,
  );
  return { stakeMinor, steps, winHundredths, payoutMinor: (stakeMinor * BigInt(winHundredths)) / 100n };
}
