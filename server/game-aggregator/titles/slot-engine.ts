/**
 * The one 5×3 line slot engine behind every Red Fox and Northlight video slot: a title is its
 * symbols (weights and pays), its lines, its wild and scatter, and its free spins. Each cell is
 * drawn on its own by weight, so the return is computed exactly (expectedReturnOf); at load the
 * title's pay shape is scaled (in hundredths of a bet) so the return meets the catalogue's RTP,
 * and the tests check that figure against a simulation.
 *
 * Rules: a line pays its leftmost run of one symbol (wilds stand in for it; a line of wilds pays
 * as the best symbol) of 3, 4 or 5 cells; a scatter breaks a run. Scatters pay anywhere
 * in multiples of the total stake, and 3 or more start free spins played at once with the same
 * stake, each win multiplied; free spins do not start more free spins.
 */
import type { PlayerTitle, RoundStep, Rng } from '../title';
import { DEFAULT_STAKE_LIMITS, payOf, pickWeighted, readStake, type StakeLimits } from './stake';

export const REELS = 5;
export const ROWS = 3;

/** Twenty classic lines: the row of each reel, top row 0. A title uses the first 10 or 20. */
export const PAYLINES: readonly (readonly number[])[] = [
  [1, 1, 1, 1, 1],
  [0, 0, 0, 0, 0],
  [2, 2, 2, 2, 2],
  [0, 1, 2, 1, 0],
  [2, 1, 0, 1, 2],
  [0, 0, 1, 2, 2],
  [2, 2, 1, 0, 0],
  [1, 0, 0, 0, 1],
  [1, 2, 2, 2, 1],
  [0, 1, 1, 1, 0],
  [2, 1, 1, 1, 2],
  [1, 0, 1, 2, 1],
  [1, 2, 1, 0, 1],
  [0, 1, 0, 1, 0],
  [2, 1, 2, 1, 2],
  [1, 1, 0, 1, 1],
  [1, 1, 2, 1, 1],
  [0, 2, 0, 2, 0],
  [2, 0, 2, 0, 2],
  [0, 2, 2, 2, 0],
];

export interface PaySymbol {
  /** The art the client draws (client/art.ts). */
  id: string;
  weight: number;
  /** Relative pays for 3, 4 and 5 in a row (scaled at load; then hundredths of the line bet). */
  pays: readonly [number, number, number];
}

export interface SlotDefinition {
  id: string;
  provider: PlayerTitle['provider'];
  /** The catalogue's RTP in percent: the pays are scaled to meet it. */
  rtpPercent: number;
  lines: 10 | 20;
  symbols: readonly PaySymbol[];
  wild: { id: string; weight: number };
  /** Relative pays (as the symbols') for 3, 4 and 5+ anywhere, of the total stake; 3+ start the free spins. */
  scatter: { id: string; weight: number; pays: readonly [number, number, number] };
  freeSpins: { count: number; multiplier: number };
  limits?: StakeLimits;
}

export interface SlotModel {
  definition: SlotDefinition;
  /** Per-cell weights in draw order: symbols…, wild, scatter. */
  ids: readonly string[];
  weights: readonly number[];
  totalWeight: number;
  /** By symbol id: hundredths of the line bet for 3, 4 and 5 in a row. */
  linePays: ReadonlyMap<string, readonly [number, number, number]>;
  /** Hundredths of the total stake for 3, 4 and 5+ scatters. */
  scatterPays: readonly [number, number, number];
  /** The exact return of a paid spin with these pays (free spins included). */
  expectedReturn: number;
}

export interface LineWin {
  line: number;
  symbol: string;
  count: number;
  /** Minor units, as a string (views are JSON-safe). */
  win: string;
}

export interface SpinView {
  /** reels[reel][row]: symbol ids. */
  reels: string[][];
  lineWins: LineWin[];
  scatters: number;
  scatterWin: string;
  win: string;
}

export interface SlotView {
  kind: 'slot';
  stake: string;
  lines: number;
  spin: SpinView;
  freeSpins: SpinView[];
  freeSpinMultiplier: number;
  win: string;
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/** Probability of at least `k` scatters among the 15 cells. */
function scatterCountProbability(p: number, count: number): number {
  const cells = REELS * ROWS;
  return binomial(cells, count) * p ** count * (1 - p) ** (cells - count);
}

type Pays = readonly [number, number, number];

/** Expected pay of one line in the pays' unit, cells drawn independently. */
function expectedLinePay(definition: SlotDefinition, total: number, paysOf: (id: string) => Pays): number {
  const w = definition.wild.weight / total;
  let expected = 0;
  // The first cell that is not a wild (position j) names the symbol; the run goes on while cells are it or wild.
  for (const symbol of definition.symbols) {
    const p = symbol.weight / total;
    const q = p + w;
    for (let j = 0; j < REELS; j++) {
      const lead = w ** j * p;
      const remaining = REELS - 1 - j;
      for (let more = 0; more <= remaining; more++) {
        const probability = lead * q ** more * (more < remaining ? 1 - q : 1);
        const count = j + 1 + more;
        if (count >= 3) expected += probability * paysOf(symbol.id)[count - 3]!;
      }
    }
  }
  // Five wilds pay as the best symbol's five.
  expected += w ** REELS * Math.max(...definition.symbols.map((symbol) => paysOf(symbol.id)[2]));
  return expected;
}

/**
 * The exact return of one paid spin, free spins included, for pays given in hundredths (line
 * pays of the line bet, scatter pays of the total stake). Per-line flooring to the minor unit is
 * left out: it takes at most a cent per winning line.
 */
export function expectedReturnOf(definition: SlotDefinition, linePays: (id: string) => Pays, scatterPays: Pays): number {
  const total =
    definition.symbols.reduce((sum, symbol) => sum + symbol.weight, 0) + definition.wild.weight + definition.scatter.weight;
  const p = definition.scatter.weight / total;
  let scatterReturn = 0;
  let triggerProbability = 0;
  for (let count = 3; count <= REELS * ROWS; count++) {
    const probability = scatterCountProbability(p, count);
    scatterReturn += probability * scatterPays[Math.min(count, 5) - 3]!;
    triggerProbability += probability;
  }
  const spinReturn = (expectedLinePay(definition, total, linePays) + scatterReturn) / 100;
  return spinReturn * (1 + triggerProbability * definition.freeSpins.count * definition.freeSpins.multiplier);
}

/** The title's pays scaled (a return is linear in its pays) so the exact return meets its RTP. */
export function slotModel(definition: SlotDefinition): SlotModel {
  const shape = new Map(definition.symbols.map((symbol) => [symbol.id, symbol.pays] as const));
  const unscaled = expectedReturnOf(
    definition,
    (id) => shape.get(id)!.map((pay) => pay * 100) as never,
    definition.scatter.pays.map((pay) => pay * 100) as never,
  );
  const scale = definition.rtpPercent / 100 / unscaled;
  const scaled = (pays: Pays): Pays => pays.map((pay) => Math.round(pay * 100 * scale)) as unknown as Pays;
  const linePays = new Map(definition.symbols.map((symbol) => [symbol.id, scaled(symbol.pays)] as const));
  const scatterPays = scaled(definition.scatter.pays);
  const ids = [...definition.symbols.map((symbol) => symbol.id), definition.wild.id, definition.scatter.id];
  const weights = [...definition.symbols.map((symbol) => symbol.weight), definition.wild.weight, definition.scatter.weight];
  return {
    definition,
    ids,
    weights,
    totalWeight: weights.reduce((sum, weight) => sum + weight, 0),
    linePays,
    scatterPays,
    expectedReturn: expectedReturnOf(definition, (id) => linePays.get(id)!, scatterPays),
  };
}

export function drawReels(model: SlotModel, rng: Rng): string[][] {
  return Array.from({ length: REELS }, () =>
    Array.from({ length: ROWS }, () => model.ids[pickWeighted(rng, model.weights, model.totalWeight)]!),
  );
}

/** Pays one grid: line wins and scatters, in minor units, times the multiplier (free spins). */
export function evaluateSpin(model: SlotModel, reels: string[][], stakeMinor: bigint, multiplier: number): SpinView {
  const { definition } = model;
  const lines = BigInt(definition.lines) * 100n;
  const factor = BigInt(multiplier);
  const bestFive = Math.max(...[...model.linePays.values()].map((pays) => pays[2]));
  const lineWins: LineWin[] = [];
  for (let line = 0; line < definition.lines; line++) {
    const cells = PAYLINES[line]!.map((row, reel) => reels[reel]![row]!);
    const lead = cells.find((cell) => cell !== definition.wild.id);
    let count = 0;
    while (count < REELS && (cells[count] === lead || cells[count] === definition.wild.id)) count++;
    const pays = lead === undefined ? undefined : model.linePays.get(lead);
    const pay = lead === undefined ? bestFive : pays && count >= 3 ? pays[count - 3]! : 0;
    if (pay > 0) {
      const win = payOf(stakeMinor, BigInt(pay) * factor, lines);
      lineWins.push({ line, symbol: lead ?? definition.wild.id, count, win: win.toString() });
    }
  }
  const scatters = reels.flat().filter((cell) => cell === definition.scatter.id).length;
  const scatterWin = scatters >= 3 ? payOf(stakeMinor, BigInt(model.scatterPays[Math.min(scatters, 5) - 3]!) * factor, 100n) : 0n;
  const win = lineWins.reduce((sum, lineWin) => sum + BigInt(lineWin.win), 0n) + scatterWin;
  return { reels, lineWins, scatters, scatterWin: scatterWin.toString(), win: win.toString() };
}

/** One paid spin and the free spins it starts, as one round. */
export function playSlot(model: SlotModel, stakeMinor: bigint, rng: Rng): SlotView {
  const { definition } = model;
  const spin = evaluateSpin(model, drawReels(model, rng), stakeMinor, 1);
  const freeSpins: SpinView[] = [];
  if (spin.scatters >= 3)
    for (let index = 0; index < definition.freeSpins.count; index++)
      freeSpins.push(evaluateSpin(model, drawReels(model, rng), stakeMinor, definition.freeSpins.multiplier));
  const win = [spin, ...freeSpins].reduce((sum, each) => sum + BigInt(each.win), 0n);
  return {
    kind: 'slot',
    stake: stakeMinor.toString(),
    lines: definition.lines,
    spin,
    freeSpins,
    freeSpinMultiplier: definition.freeSpins.multiplier,
    win: win.toString(),
  };
}

/** A title of the engine: every round is one step (the free spins are played within it). */
export function slotTitle(definition: SlotDefinition): PlayerTitle & { model: SlotModel } {
  const model = slotModel(definition);
  return {
    id: definition.id,
    provider: definition.provider,
    kind: 'slot',
    model,
    start(input: unknown, rng: Rng): RoundStep | undefined {
      const stakeMinor = readStake(input, definition.limits ?? DEFAULT_STAKE_LIMITS);
      if (stakeMinor === undefined) return undefined;
      const view = playSlot(model, stakeMinor, rng);
      return { stakeMinor, winMinor: BigInt(view.win), done: true, view };
    },
  };
}
