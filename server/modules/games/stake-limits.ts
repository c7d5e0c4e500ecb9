/**
 * A game's stake bounds (catalogue game_params min_bet and max_bet, 2-decimal amounts in the
 * player's currency): every way of staking on a game checks them here, in-house rounds, live
 * tables and freespin awards alike.
 */
import { amountToMinor } from '#common/money';
import type { GameParams } from '#common/games-contract';
import { invalidParameter } from '#common/parameter-errors';

/** A catalogue amount ("0.10") in minor units, undefined when absent or not an amount. */
export function limitMinor(value: unknown): bigint | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) value = value.toFixed(2);
  return typeof value === 'string' && /^\d+(\.\d{1,2})?$/.test(value) ? amountToMinor(value) : undefined;
}

export function stakeLimits(params: GameParams): { minMinor: bigint | undefined; maxMinor: bigint | undefined } {
  return { minMinor: limitMinor(params.min_bet), maxMinor: limitMinor(params.max_bet) };
}

/** Refuses a stake outside the game's bounds (InvalidParameterException on `stake`). */
export function checkStake(params: GameParams, stakeMinor: bigint): void {
  const { minMinor, maxMinor } = stakeLimits(params);
  if (minMinor !== undefined && stakeMinor < minMinor)
    throw invalidParameter('stake', `The stake is below the minimum of ${String(params.min_bet)}`);
  if (maxMinor !== undefined && stakeMinor > maxMinor)
    throw invalidParameter('stake', `The stake is above the maximum of ${String(params.max_bet)}`);
}
