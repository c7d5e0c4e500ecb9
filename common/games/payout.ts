/**
 * Money in the engines: stakes and payouts are integers in minor units (bigint, architecture §5)
 * and multipliers are exact fractions of integers, never floats. A payout is rounded once per
 * round, always down: the house gains less than one minor unit from rounding, the player never
 * gains from it.
 */
import { InvalidBetError } from './errors';

/** The largest stake an engine accepts, so that products of stakes and multipliers stay sane. */
export const MAX_STAKE_MINOR = 10n ** 15n;

export function requireStake(stakeMinor: bigint): bigint {
  if (typeof stakeMinor !== 'bigint' || stakeMinor <= 0n || stakeMinor > MAX_STAKE_MINOR)
    throw new InvalidBetError('the stake must be a positive integer of minor units');
  return stakeMinor;
}

/** ⌊stake × numerator / denominator⌋: the one rounding of a round's payout. */
export function multiplyStake(stakeMinor: bigint, numerator: bigint | number, denominator: bigint | number): bigint {
  const den = BigInt(denominator);
  if (den <= 0n) throw new RangeError('a multiplier needs a positive denominator');
  return (stakeMinor * BigInt(numerator)) / den;
}
