/**
 * One bet at a LiveWave table as the client sends it: `{ spot, stake }`, the stake in minor units
 * (a safe integer or a string of digits) inside the table's limits and the spot one of the table's.
 */
import { type StakeLimits, isRecord, parseStake } from './stakes';

export function parseLiveBet(
  input: unknown,
  spots: readonly string[],
  limits: StakeLimits,
): { spot: string; stakeMinor: bigint } | undefined {
  if (!isRecord(input) || typeof input.spot !== 'string' || !spots.includes(input.spot)) return undefined;
  const stakeMinor = parseStake(input.stake, limits);
  return stakeMinor === undefined ? undefined : { spot: input.spot, stakeMinor };
}

/** Betting window and result display of every LiveWave table (the view animates inside the latter). */
export const LIVE_BETTING_MS = 15_000;
export const LIVE_RESULT_MS = 8_000;
