/**
 * Mines: a 5×5 field hides the chosen number of mines; the player opens cells one at a time and
 * may cash out after any safe cell. A mine ends the round with nothing.
 *
 * Draws: at the start, the mines are the first `mineCount` cells of the forward Fisher–Yates of
 * cells 0 … 24 (pickDistinct), cell = 5 · row + column. Nothing is drawn later: the field is
 * fixed before the first click, so the player's choices cannot change it.
 * Rules: 1 to 24 mines; open any closed cell; cash out after at least one safe cell; opening the
 * last safe cell cashes out by itself.
 * Multiplier after k safe cells with m mines: 0.99 × C(25, k) / C(25 − m, k), the inverse of the
 * chance of k safe cells in a row with a 1 % edge, as an exact fraction of integers, rounded down
 * to the hundredth; that multiplier is both shown and paid: payout = ⌊stake × hundredths / 100⌋.
 * RTP: C(25 − m, k) / C(25, k) × the multiplier = 99 % before the cut to the hundredth, which
 * takes less than 0.01× (98.28 %–99.00 % by m and k; docs/games-rtp.md).
 */
import { GameRuleError, InvalidBetError } from './errors';
import { pickDistinct, type Rng } from './fair';
import { minorToAmount } from '../money';
import { multiplyStake, requireStake } from './payout';

export const MINES_CELLS = 25;
export const MINES_RTP = 0.99;

export type MinesStatus = 'playing' | 'lost' | 'cashed-out';

export interface MinesState {
  stakeMinor: bigint;
  mineCount: number;
  /** Secret while the round is open: send publicMinesView to the player instead. */
  mines: number[];
  /** Opened cells in the order opened (the last one is the mine when lost). */
  opened: number[];
  status: MinesStatus;
  payoutMinor: bigint;
}

export interface MinesStart {
  stakeMinor: bigint;
  mineCount: number;
}

function binomial(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

/** The multiplier after `safeCells` safe cells, as an exact fraction. */
export function minesMultiplier(mineCount: number, safeCells: number): { numerator: bigint; denominator: bigint } {
  requireMineCount(mineCount);
  if (!Number.isInteger(safeCells) || safeCells < 0 || safeCells > MINES_CELLS - mineCount)
    throw new RangeError(`${safeCells} safe cells with ${mineCount} mines`);
  return { numerator: 99n * binomial(MINES_CELLS, safeCells), denominator: 100n * binomial(MINES_CELLS - mineCount, safeCells) };
}

function requireMineCount(mineCount: number): number {
  if (!Number.isInteger(mineCount) || mineCount < 1 || mineCount > MINES_CELLS - 1)
    throw new InvalidBetError('choose from 1 to 24 mines');
  return mineCount;
}

/**
 * The multiplier paid after `safeCells` safe cells, in hundredths: the exact one rounded down.
 * Display and payout share it (issue 15: a shown "×1.13" once paid €1.12 on €1), so the player is
 * paid exactly stake × the multiplier shown, less only the cut to the minor unit.
 */
export function minesMultiplierHundredths(mineCount: number, safeCells: number): bigint {
  const { numerator, denominator } = minesMultiplier(mineCount, safeCells);
  return multiplyStake(100n, numerator, denominator);
}

/** The multiplier after `safeCells` safe cells as the player sees it, to two decimals ("1.12"). */
export function minesMultiplierText(mineCount: number, safeCells: number): string {
  return minorToAmount(minesMultiplierHundredths(mineCount, safeCells));
}

export function minesPayout(stakeMinor: bigint, mineCount: number, safeCells: number): bigint {
  return multiplyStake(stakeMinor, minesMultiplierHundredths(mineCount, safeCells), 100n);
}

export function startMines(start: MinesStart, rng: Rng): MinesState {
  const stakeMinor = requireStake(start.stakeMinor);
  const mineCount = requireMineCount(start.mineCount);
  return {
    stakeMinor,
    mineCount,
    mines: pickDistinct(rng, MINES_CELLS, mineCount),
    opened: [],
    status: 'playing',
    payoutMinor: 0n,
  };
}

function requirePlaying(state: MinesState): void {
  if (state.status !== 'playing') throw new GameRuleError('action not allowed: the round is over');
}

export function openCell(state: MinesState, cell: number): MinesState {
  requirePlaying(state);
  if (!Number.isInteger(cell) || cell < 0 || cell >= MINES_CELLS)
    throw new GameRuleError(`action not allowed: there is no cell ${cell}`);
  if (state.opened.includes(cell)) throw new GameRuleError(`action not allowed: cell ${cell} is open already`);
  const opened = [...state.opened, cell];
  if (state.mines.includes(cell)) return { ...state, opened, status: 'lost', payoutMinor: 0n };
  const next = { ...state, opened };
  return opened.length === MINES_CELLS - state.mineCount ? settle(next) : next;
}

export function cashOutMines(state: MinesState): MinesState {
  requirePlaying(state);
  if (state.opened.length === 0) throw new GameRuleError('action not allowed: open a cell first');
  return settle(state);
}

function settle(state: MinesState): MinesState {
  return { ...state, status: 'cashed-out', payoutMinor: minesPayout(state.stakeMinor, state.mineCount, state.opened.length) };
}

/** What the player may see: the mines only once the round is over. */
export function publicMinesView(
  state: MinesState,
): Omit<MinesState, 'mines'> & { mines: number[] | null; nextPayoutMinor: bigint | null } {
  const isOver = state.status !== 'playing';
  const canOpenMore = !isOver && state.opened.length < MINES_CELLS - state.mineCount;
  return {
    ...state,
    mines: isOver ? state.mines : null,
    nextPayoutMinor: canOpenMore ? minesPayout(state.stakeMinor, state.mineCount, state.opened.length + 1) : null,
  };
}
