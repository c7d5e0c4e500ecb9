/**
 * Stakes as the table clients send them: integer minor units, as a JSON number (a safe integer)
 * or a string of decimal digits. Anything else — negative, fractional, exponent notation, beyond
 * the table's limit — is refused, and the aggregator answers the client with its invalid-input error.
 */

/** A table's limits per bet, in minor units (the catalogue's min_bet and max_bet). */
export interface StakeLimits {
  minMinor: bigint;
  maxMinor: bigint;
}

/** Parses one stake; undefined when it is not a whole number of minor units inside the limits. */
export function parseStake(value: unknown, limits: StakeLimits): bigint | undefined {
  let minor: bigint;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) return undefined;
    minor = BigInt(value);
  } else if (typeof value === 'string') {
    // At most 16 digits: anything longer is beyond every table's limit and not worth a BigInt.
    if (!/^[0-9]{1,16}$/.test(value)) return undefined;
    minor = BigInt(value);
  } else return undefined;
  if (minor < limits.minMinor || minor > limits.maxMinor) return undefined;
  return minor;
}

/** Like parseStake, but an absent, zero or empty stake means "no bet on this spot" (0n). */
export function parseOptionalStake(value: unknown, limits: StakeLimits): bigint | undefined {
  if (value === undefined || value === null || value === 0 || value === '0' || value === '') return 0n;
  return parseStake(value, limits);
}

/** The limits from the catalogue's decimal strings ("1.00" → 100 minor units). */
export function limitsOf(minBet: string, maxBet: string): StakeLimits {
  const minor = (text: string) => {
    const [whole, fraction = ''] = text.split('.');
    return BigInt(whole!) * 100n + BigInt((fraction + '00').slice(0, 2));
  };
  return { minMinor: minor(minBet), maxMinor: minor(maxBet) };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
