/**
 * Sugar Blast (Red Fox Gaming): a 6×5 cluster slot. Five or more candies of one kind joined up,
 * down, left or right pay by their size (in hundredths of the stake); paid candies burst, those
 * above fall, new ones drop in, and the grid pays again until no cluster is left (a cascade).
 * The pays were scaled by simulation to the catalogue's 96.2 % (the tests check it again).
 */
import type { PlayerTitle, RoundStep, Rng } from '../title';
import { payOf, pickWeighted, readStake, DEFAULT_STAKE_LIMITS } from './stake';

export const CLUSTER_COLUMNS = 6;
export const CLUSTER_ROWS = 5;
export const CLUSTER_MIN = 5;

export const CANDIES = [
  { id: 'heart', weight: 3 },
  { id: 'star-candy', weight: 4 },
  { id: 'lollipop', weight: 5 },
  { id: 'gumdrop', weight: 6 },
  { id: 'wrapped', weight: 6 },
  { id: 'mint', weight: 7 },
] as const;
const WEIGHTS = CANDIES.map((candy) => candy.weight);
const TOTAL = WEIGHTS.reduce((sum, weight) => sum + weight, 0);

/** Relative pays by cluster size 5, 6, 7, 8, 9, 10, 11, 12+ for each candy (same order as CANDIES). */
const SHAPE: readonly (readonly number[])[] = [
  [100, 150, 250, 400, 600, 1000, 1500, 3000],
  [60, 90, 150, 250, 400, 600, 1000, 2000],
  [40, 60, 100, 160, 250, 400, 600, 1200],
  [25, 40, 60, 100, 150, 250, 400, 800],
  [25, 40, 60, 100, 150, 250, 400, 800],
  [20, 30, 50, 80, 120, 200, 300, 600],
];
/** Found by simulating rounds with the unscaled shape (return 0.1813) (see cluster.test.ts for the check). */
export const CLUSTER_PAY_SCALE = 5.306;

/** Hundredths of the stake by candy and size. */
export const CLUSTER_PAYS: ReadonlyMap<string, readonly number[]> = new Map(
  CANDIES.map((candy, index) => [candy.id, SHAPE[index]!.map((pay) => Math.round(pay * CLUSTER_PAY_SCALE))]),
);

/** grid[column][row], row 0 on top. */
export type Grid = string[][];

export interface ClusterWin {
  symbol: string;
  /** [column, row] of each candy. */
  cells: [number, number][];
  win: string;
}

export interface CascadeStep {
  grid: Grid;
  clusters: ClusterWin[];
}

export interface ClusterView {
  kind: 'cluster';
  stake: string;
  steps: CascadeStep[];
  win: string;
}

const draw = (rng: Rng) => CANDIES[pickWeighted(rng, WEIGHTS, TOTAL)]!.id;

export function fillGrid(rng: Rng): Grid {
  return Array.from({ length: CLUSTER_COLUMNS }, () => Array.from({ length: CLUSTER_ROWS }, () => draw(rng)));
}

export function findClusters(grid: Grid): { symbol: string; cells: [number, number][] }[] {
  const seen = new Set<string>();
  const found: { symbol: string; cells: [number, number][] }[] = [];
  for (let column = 0; column < CLUSTER_COLUMNS; column++)
    for (let row = 0; row < CLUSTER_ROWS; row++) {
      if (seen.has(`${column},${row}`)) continue;
      const symbol = grid[column]![row]!;
      const cells: [number, number][] = [];
      const stack: [number, number][] = [[column, row]];
      seen.add(`${column},${row}`);
      while (stack.length) {
        const [c, r] = stack.pop()!;
        cells.push([c, r]);
        for (const [dc, dr] of [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ] as const) {
          const nc = c + dc;
          const nr = r + dr;
          const key = `${nc},${nr}`;
          if (nc < 0 || nr < 0 || nc >= CLUSTER_COLUMNS || nr >= CLUSTER_ROWS || seen.has(key)) continue;
          if (grid[nc]![nr] !== symbol) continue;
          seen.add(key);
          stack.push([nc, nr]);
        }
      }
      if (cells.length >= CLUSTER_MIN) found.push({ symbol, cells });
    }
  return found;
}

/** Removes the paid cells, lets the rest fall and fills the gaps from the top. */
export function collapse(grid: Grid, cells: readonly [number, number][], rng: Rng): Grid {
  const gone = new Set(cells.map(([c, r]) => `${c},${r}`));
  return grid.map((column, c) => {
    const kept = column.filter((_, r) => !gone.has(`${c},${r}`));
    const fresh = Array.from({ length: CLUSTER_ROWS - kept.length }, () => draw(rng));
    return [...fresh, ...kept];
  });
}

export function playCluster(stakeMinor: bigint, rng: Rng): ClusterView {
  const steps: CascadeStep[] = [];
  let grid = fillGrid(rng);
  let total = 0n;
  // A grid has 30 cells, so a cascade ends; the cap only guards against a broken draw.
  for (let guard = 0; guard < 100; guard++) {
    const clusters = findClusters(grid).map((cluster) => {
      const pays = CLUSTER_PAYS.get(cluster.symbol)!;
      const win = payOf(stakeMinor, BigInt(pays[Math.min(cluster.cells.length, 12) - CLUSTER_MIN]!), 100n);
      return { ...cluster, win: win.toString() };
    });
    steps.push({ grid, clusters });
    if (clusters.length === 0) break;
    total += clusters.reduce((sum, cluster) => sum + BigInt(cluster.win), 0n);
    grid = collapse(
      grid,
      clusters.flatMap((cluster) => cluster.cells),
      rng,
    );
  }
  return { kind: 'cluster', stake: stakeMinor.toString(), steps, win: total.toString() };
}

export const SUGAR_BLAST: PlayerTitle = {
  id: 'sugar-blast',
  provider: 'redfox',
  kind: 'cluster',
  start(input: unknown, rng: Rng): RoundStep | undefined {
    const stakeMinor = readStake(input, { ...DEFAULT_STAKE_LIMITS, minMinor: 20n });
    if (stakeMinor === undefined) return undefined;
    const view = playCluster(stakeMinor, rng);
    return { stakeMinor, winMinor: BigInt(view.win), done: true, view };
  },
};
