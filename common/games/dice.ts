/**
 * Dice: the player picks a target and a side, a roll from 0.00 to 99.99 decides.
 *
 * Draws: one, roll = uniformInt(10 000), shown as roll / 100 (0.00 … 99.99, each of the 10 000
 * values equally likely).
 * Rules: "under T" wins when roll < T; "over T" wins when roll > T (T in hundredths). The
 * chance of a win is w / 10 000, where w is the number of winning rolls, kept between 1 % and
 * 98 %. A win pays stake × 9 900 / w (a 1 % house edge on any target), rounded down to the minor
 * unit; a loss pays nothing.
 * RTP: w / 10 000 × 9 900 / w = 99.00 % exactly, less the rounding (under one minor unit a round).
 */
import { InvalidBetError } from './errors';
import { uniformInt, type Rng } from './fair';
import { multiplyStake, requireStake } from './payout';

export const DICE_OUTCOMES = 10_000;
/** 99 % of the outcomes: what a win returns in total, spread over the winning rolls. */
export const DICE_RETURN_NUMERATOR = 9_900;
export const DICE_MIN_WINNING_ROLLS = 100;
export const DICE_MAX_WINNING_ROLLS = 9_800;
export const DICE_RTP = DICE_RETURN_NUMERATOR / DICE_OUTCOMES;

export interface DiceBet {
  stakeMinor: bigint;
  direction: 'under' | 'over';
  /** The target in hundredths: 50.00 is 5000. */
  targetHundredths: number;
}

export interface DiceOutcome {
  /** The roll in hundredths: 0 … 9 999 shows as 0.00 … 99.99. */
  rollHundredths: number;
  isWin: boolean;
  payoutMinor: bigint;
}

/** How many of the 10 000 rolls win the bet; throws InvalidBetError outside 1 %–98 %. */
export function diceWinningRolls(bet: Pick<DiceBet, 'direction' | 'targetHundredths'>): number {
  const { direction, targetHundredths: target } = bet;
  if (!Number.isInteger(target) || target < 0 || target >= DICE_OUTCOMES)
    throw new InvalidBetError('the target must be from 0.00 to 99.99');
  const winning = direction === 'under' ? target : direction === 'over' ? DICE_OUTCOMES - 1 - target : Number.NaN;
  if (Number.isNaN(winning)) throw new InvalidBetError('the direction must be under or over');
  if (winning < DICE_MIN_WINNING_ROLLS || winning > DICE_MAX_WINNING_ROLLS)
    throw new InvalidBetError('the chance to win must be from 1 % to 98 %');
  return winning;
}

export function isDiceWin(bet: Pick<DiceBet, 'direction' | 'targetHundredths'>, rollHundredths: number): boolean {
  return bet.direction === 'under' ? rollHundredths < bet.targetHundredths : rollHundredths > bet.targetHundredths;
}

/** The payout of a winning bet: the multiplier 9 900 / w applied once, rounded down. */
export function diceWinPayout(bet: DiceBet): bigint {
  return multiplyStake(requireStake(bet.stakeMinor), DICE_RETURN_NUMERATOR, diceWinningRolls(bet));
}

/** The outcome once the roll is known (the verification page replays this). */
export function settleDice(bet: DiceBet, rollHundredths: number): DiceOutcome {
  const payout = diceWinPayout(bet);
  const isWin = isDiceWin(bet, rollHundredths);
  return { rollHundredths, isWin, payoutMinor: isWin ? payout : 0n };
}

export function playDice(bet: DiceBet, rng: Rng): DiceOutcome {
  diceWinPayout(bet);
  return settleDice(bet, uniformInt(rng, DICE_OUTCOMES));
}
