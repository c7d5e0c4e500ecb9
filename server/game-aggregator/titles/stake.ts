/**
 * What every title reads from the client's input: the stake in integer minor units, as a string
 * or a safe integer, between the title's limits (the catalogue's min_bet and max_bet).
 */
export interface StakeLimits {
  minMinor: bigint;
  maxMinor: bigint;
}

/** The catalogue's 0.10 … 100.00 in cents; a title with other limits passes its own. */
export const DEFAULT_STAKE_LIMITS: StakeLimits = { minMinor: 10n, maxMinor: 10_000n };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The input's `stake` in minor units, or undefined when missing, malformed or out of limits. */
export function readStake(input: unknown, limits: StakeLimits = DEFAULT_STAKE_LIMITS): bigint | undefined {
  if (!isRecord(input)) return undefined;
  const raw = input.stake;
  let stake: bigint;
  if (typeof raw === 'string' && /^[1-9]\d{0,15}$/.test(raw)) stake = BigInt(raw);
  else if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) stake = BigInt(raw);
  else return undefined;
  return stake >= limits.minMinor && stake <= limits.maxMinor ? stake : undefined;
}

/** stake × numerator ÷ denominator, floored: the one rounding rule of every title's payout. */
export function payOf(stakeMinor: bigint, numerator: bigint, denominator: bigint): bigint {
  return (stakeMinor * numerator) / denominator;
}

/** A uniform integer in [0, n) from the title's rng. */
export function pick(rng: () => number, n: number): number {
  return Math.min(n - 1, Math.floor(rng() * n));
}

/** An index drawn by weight. */
export function pickWeighted(rng: () => number, weights: readonly number[], total: number): number {
  let draw = rng() * total;
  for (let index = 0; index < weights.length; index++) {
    draw -= weights[index]!;
    if (draw < 0) return index;
  }
  return weights.length - 1;
}
