/**
 * Exact fractions of bigints for the sportsbook's money arithmetic (issue 14): odds, void factors,
 * dead-heat factors and cash-out shares multiply as fractions and a stake is rounded once, down to
 * the minor unit, at the very end, so no float ever touches an amount and the house never pays a
 * fraction of a cent more than the formula gives.
 */
export interface Ratio {
  readonly num: bigint;
  /** Always positive; the fraction is kept in lowest terms. */
  readonly den: bigint;
}

export function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function ratio(num: bigint, den: bigint = 1n): Ratio {
  if (den === 0n) throw new RangeError('a ratio needs a non-zero denominator');
  const sign = den < 0n ? -1n : 1n;
  const divisor = gcd(num, den) || 1n;
  return { num: (sign * num) / divisor, den: (sign * den) / divisor };
}

export const ZERO: Ratio = ratio(0n);
export const ONE: Ratio = ratio(1n);

export function mul(a: Ratio, b: Ratio): Ratio {
  return ratio(a.num * b.num, a.den * b.den);
}

export function add(a: Ratio, b: Ratio): Ratio {
  return ratio(a.num * b.den + b.num * a.den, a.den * b.den);
}

export function sub(a: Ratio, b: Ratio): Ratio {
  return add(a, ratio(-b.num, b.den));
}

export function div(a: Ratio, b: Ratio): Ratio {
  if (b.num === 0n) throw new RangeError('division by a zero ratio');
  return ratio(a.num * b.den, a.den * b.num);
}

/** Negative, zero or positive as a is below, equal to or above b. */
export function compare(a: Ratio, b: Ratio): number {
  const difference = a.num * b.den - b.num * a.den;
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

export function product(factors: readonly Ratio[]): Ratio {
  return factors.reduce(mul, ONE);
}

/** ⌊amount × r⌋ for a non-negative amount: the one rounding of a payout, always towards the house. */
export function floorTimes(amountMinor: bigint, r: Ratio): bigint {
  const scaled = amountMinor * r.num;
  const quotient = scaled / r.den;
  // bigint division truncates towards zero; a negative product must still round down.
  return scaled < 0n && quotient * r.den !== scaled ? quotient - 1n : quotient;
}

/** A decimal written with a dot ("0.5", "1.8500", "-1.25") as an exact fraction. */
export function ratioFromDecimal(text: string): Ratio {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new RangeError(`not a decimal number: ${text}`);
  const [, sign = '', units = '0', fraction = ''] = match;
  const den = 10n ** BigInt(fraction.length);
  const magnitude = BigInt(units) * den + BigInt(fraction || '0');
  return ratio(sign === '-' ? -magnitude : magnitude, den);
}

/** The fraction as a decimal string with at most `digits` places, trailing zeros trimmed, truncated. */
export function ratioToDecimal(r: Ratio, digits = 4): string {
  const negative = r.num < 0n;
  const magnitude = negative ? -r.num : r.num;
  const scale = 10n ** BigInt(digits);
  const scaled = (magnitude * scale) / r.den;
  const units = scaled / scale;
  const fraction = (scaled % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  return `${negative && scaled !== 0n ? '-' : ''}${units}${fraction ? `.${fraction}` : ''}`;
}

/** A float close to the fraction, for models and display only: never for money. */
export function ratioToNumber(r: Ratio): number {
  return Number(r.num) / Number(r.den);
}
