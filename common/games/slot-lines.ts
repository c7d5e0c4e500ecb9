/**
 * The machinery of 5×3 payline slots, shared by slot-classic.ts and slot-fruits.ts: reel strips,
 * the window a spin shows, line wins with wilds, scatters, and the exact arithmetic of a line's
 * expected pay from the strips.
 *
 * Draws: a spin takes one draw per reel, left to right: stop = uniformInt(strip length); the
 * reel shows strip[stop], strip[stop + 1], strip[stop + 2] (wrapping) in rows 0, 1, 2 (top to
 * bottom).
 * Lines: a payline names one row per reel. A line pays the longest run from the leftmost reel of
 * one symbol, wilds standing in for it; a run of wilds alone pays as wilds when that pays more.
 * Scatters never pay on lines and wilds do not stand in for them; they count anywhere in the
 * window. Pays are whole multiples of the line bet (lines) and of the total bet (scatters).
 */
import { uniformInt, type Rng } from './fair';

export const REELS = 5;
export const ROWS = 3;

export type SlotWindow = string[][];

/** A reel strip written as its symbols separated by spaces. */
export const reelStrip = (symbols: string): string[] => symbols.split(' ');

export { FRUIT_PAYLINES, TEN_PAYLINES } from './paylines';

export interface LineSlotRules {
  /** One strip of symbols per reel. */
  strips: readonly (readonly string[])[];
  /** One row (0 top … 2 bottom) per reel for each line. */
  paylines: readonly (readonly number[])[];
  /** linePays[symbol][k]: what k of a kind from the left pays, in line bets (index 0 … 5). */
  linePays: Readonly<Record<string, readonly number[]>>;
  wild: string;
  scatter: string;
}

export interface LineWin {
  /** Index of the payline. */
  line: number;
  symbol: string;
  count: number;
  /** Whether a wild stood in for the symbol in the paying run. */
  hasWild: boolean;
  /** The pay in line bets, before any free-spin multiplier. */
  pays: number;
}

export interface ReelSpin {
  stops: number[];
  window: SlotWindow;
}

export function spinReels(strips: readonly (readonly string[])[], rng: Rng): ReelSpin {
  const stops = strips.map((strip) => uniformInt(rng, strip.length));
  return { stops, window: windowAt(strips, stops) };
}

export function windowAt(strips: readonly (readonly string[])[], stops: readonly number[]): SlotWindow {
  const window: SlotWindow = [];
  for (let reel = 0; reel < strips.length; reel++) {
    const strip = strips[reel]!;
    const stop = stops[reel]!;
    const column: string[] = [];
    for (let row = 0; row < ROWS; row++) column.push(strip[(stop + row) % strip.length]!);
    window.push(column);
  }
  return window;
}

/** The pay of one line of symbols (one per reel), or null when it pays nothing. */
export function evaluateLineSymbols(
  symbols: readonly string[],
  rules: Pick<LineSlotRules, 'linePays' | 'wild' | 'scatter'>,
): Omit<LineWin, 'line'> | null {
  const compiled = compiledPays(rules);
  const ids = symbols.map((symbol) => compiled.idOf.get(symbol) ?? NO_PAYS);
  const win = lineWin(0, ids, ids.length, compiled);
  return win && { symbol: win.symbol, count: win.count, hasWild: win.hasWild, pays: win.pays };
}

/**
 * A rules' symbols as small integers and its line pays as one table, made once per rules: a spin
 * evaluates 10 or 20 lines, and reading pays by symbol name (an object read by a variable key)
 * was 40 % of the fruit slot's time (issue 12, engine speed).
 */
interface CompiledPays {
  idOf: ReadonlyMap<string, number>;
  names: readonly string[];
  /** pays[id × stride + k]: what k of a kind of symbol `id` pays, in line bets. */
  pays: Int32Array;
  stride: number;
  wild: number;
  scatter: number;
}

/** The id of every symbol the pay table does not name (never wild, never scatter): it pays nothing. */
const NO_PAYS = -1;

const compiledPaysOf = new WeakMap<object, CompiledPays>();

function compiledPays(rules: Pick<LineSlotRules, 'linePays' | 'wild' | 'scatter'>): CompiledPays {
  let compiled = compiledPaysOf.get(rules);
  if (compiled) return compiled;
  const names = [...new Set([...Object.keys(rules.linePays), rules.wild, rules.scatter])];
  const stride = Math.max(REELS + 1, ...Object.values(rules.linePays).map((pays) => pays.length));
  const pays = new Int32Array(names.length * stride);
  names.forEach((name, id) => (rules.linePays[name] ?? []).forEach((pay, k) => (pays[id * stride + k] = pay)));
  compiled = {
    idOf: new Map(names.map((name, id) => [name, id])),
    names,
    pays,
    stride,
    wild: names.indexOf(rules.wild),
    scatter: names.indexOf(rules.scatter),
  };
  compiledPaysOf.set(rules, compiled);
  return compiled;
}

function payOf(compiled: CompiledPays, id: number, count: number): number {
  return id === NO_PAYS || count >= compiled.stride ? 0 : compiled.pays[id * compiled.stride + count]!;
}

/** The win of payline `line` showing the first `length` symbol ids, or null when it pays nothing (this file's header). */
function lineWin(line: number, ids: ArrayLike<number>, length: number, compiled: CompiledPays): LineWin | null {
  const { wild, scatter } = compiled;
  let wildRun = 0;
  while (wildRun < length && ids[wildRun] === wild) wildRun++;
  const wildPay = payOf(compiled, wild, wildRun);
  let symbolPay = 0;
  let count = wildRun;
  const symbol = wildRun < length ? ids[wildRun]! : NO_PAYS;
  if (wildRun < length && symbol !== scatter) {
    while (count < length && (ids[count] === symbol || ids[count] === wild)) count++;
    symbolPay = payOf(compiled, symbol, count);
  }
  if (symbolPay === 0 && wildPay === 0) return null;
  if (wildPay >= symbolPay) return { line, symbol: compiled.names[wild]!, count: wildRun, hasWild: true, pays: wildPay };
  let hasWild = false;
  for (let i = 0; i < count && !hasWild; i++) hasWild = ids[i] === wild;
  return { line, symbol: compiled.names[symbol]!, count, hasWild, pays: symbolPay };
}

// The window's and the line's symbol ids: lineWin keeps no reference to them and engines are
// synchronous, so one buffer of each serves every spin.
const windowIds = new Int32Array(REELS * ROWS);
const lineIds = new Int32Array(REELS);

export function evaluateLines(window: SlotWindow, rules: LineSlotRules): LineWin[] {
  const compiled = compiledPays(rules);
  if (window.length > REELS) throw new RangeError('a window has at most 5 reels');
  for (let reel = 0; reel < window.length; reel++) {
    const column = window[reel]!;
    if (column.length > ROWS) throw new RangeError('a window has at most 3 rows');
    for (let row = 0; row < column.length; row++) windowIds[reel * ROWS + row] = compiled.idOf.get(column[row]!) ?? NO_PAYS;
  }
  const wins: LineWin[] = [];
  const { paylines } = rules;
  for (let line = 0; line < paylines.length; line++) {
    const rows = paylines[line]!;
    for (let reel = 0; reel < rows.length; reel++) lineIds[reel] = windowIds[reel * ROWS + rows[reel]!]!;
    const win = lineWin(line, lineIds, rows.length, compiled);
    if (win) wins.push(win);
  }
  return wins;
}

export function countScatters(window: SlotWindow, scatter: string): number {
  let count = 0;
  for (const reel of window) for (const symbol of reel) if (symbol === scatter) count++;
  return count;
}

/**
 * P(k scatters in the window), k = 0 … 5, exactly: a reel shows a scatter with chance
 * 3 × (scatters on its strip) / (strip length), at most one, when scatters on a strip are at
 * least 3 apart (checked here).
 */
export function scatterCountChances(strips: readonly (readonly string[])[], scatter: string): number[] {
  let chances = [1];
  for (const strip of strips) {
    const positions = strip.flatMap((symbol, index) => (symbol === scatter ? [index] : []));
    positions.forEach((position, i) => {
      const next = positions[(i + 1) % positions.length]!;
      const gap = (next - position + strip.length) % strip.length || strip.length;
      if (gap < ROWS) throw new RangeError('scatters on a strip must be at least 3 apart');
    });
    const p = (ROWS * positions.length) / strip.length;
    chances = [...chances, 0].map((chance, k) => chance * (1 - p) + (k > 0 ? chances[k - 1]! * p : 0));
  }
  return chances;
}

/**
 * The expected pay of one line, in line bets, over every combination of the strips' symbols
 * (each reel's symbol on a line is uniform over its strip, independent of the other reels, so
 * every line has this same expectation). `multiplier` weighs a win, e.g. double with a wild.
 */
export function expectedLinePay(rules: LineSlotRules, multiplier: (win: Omit<LineWin, 'line'>) => number = () => 1): number {
  const perReel = rules.strips.map((strip) => {
    const counts = new Map<string, number>();
    for (const symbol of strip) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
    return [...counts].map(([symbol, count]) => ({ symbol, chance: count / strip.length }));
  });
  let expected = 0;
  const symbols: string[] = [];
  const visit = (reel: number, chance: number) => {
    if (reel === perReel.length) {
      const win = evaluateLineSymbols(symbols, rules);
      if (win) expected += chance * win.pays * multiplier(win);
      return;
    }
    for (const option of perReel[reel]!) {
      symbols[reel] = option.symbol;
      visit(reel + 1, chance * option.chance);
    }
  };
  visit(0, 1);
  return expected;
}

/** One spin of a round, as the player saw it and as it paid. */
export interface SlotSpinResult extends ReelSpin {
  lineWins: LineWin[];
  scatterCount: number;
  /** Everything the spin pays, in line bets, multipliers included. */
  winLineBets: number;
  /** Free spins this spin awarded (the trigger, or a retrigger during free spins). */
  freeSpinsAwarded: number;
}

export interface SlotRound {
  stakeMinor: bigint;
  /** The paid spin first, then the free spins it led to. */
  spins: SlotSpinResult[];
  winLineBets: number;
  /** ⌊stake × winLineBets / lines⌋: the round's one rounding, down. */
  payoutMinor: bigint;
}
