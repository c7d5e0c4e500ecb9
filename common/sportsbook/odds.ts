/**
 * Odds (issue 14): decimal odds are held as bigint ten-thousandths (1.85 → 18 500n), exact for
 * every price a feed sends (feeds quote at most 4 decimals) and cheap to multiply with a stake.
 * On the wire they are decimal strings ("1.85"). The player may read them as decimal, fractional
 * (UK: the profit per unit, "17/20") or American (the profit on 100 or the stake to win 100:
 * "+150", "-118"), in their locale's decimal separator.
 */
import type { Locale } from '../locale';
import { gcd, ratio, ratioFromDecimal, type Ratio } from './ratio';
import type { OddsFormat } from './types';

/** Decimal odds are integers of this many parts per unit. */
export const ODDS_SCALE = 10_000n;
/** The lowest price a market offers: a winning bet must return more than its stake. */
export const MIN_ODDS = 10_100n;
/** The highest price offered; protects limits and the maths from absurd feed values. */
export const MAX_ODDS = 10_000_000n;

export class OddsError extends RangeError {}

/** "1.85" → 18 500n; refuses more than 4 decimals and prices outside [MIN_ODDS, MAX_ODDS]. */
export function parseOdds(text: string): bigint {
  if (!/^\d{1,4}(\.\d{1,4})?$/.test(text)) throw new OddsError(`not a decimal price: ${text}`);
  const exact = ratioFromDecimal(text);
  return requireOdds((exact.num * ODDS_SCALE) / exact.den);
}

export function requireOdds(units: bigint): bigint {
  if (units < MIN_ODDS || units > MAX_ODDS) throw new OddsError(`odds out of range: ${units}`);
  return units;
}

/** The price as an exact fraction, for settlement and cash-out arithmetic. */
export function oddsRatio(units: bigint): Ratio {
  return ratio(units, ODDS_SCALE);
}

/** 18 500n → "1.85": at least two decimals, up to four when the price has them. */
export function oddsToDecimalString(units: bigint): string {
  const whole = units / ODDS_SCALE;
  const fraction = (units % ODDS_SCALE).toString().padStart(4, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction}`;
}

export interface FractionalOdds {
  numerator: bigint;
  denominator: bigint;
}

/**
 * The fractions bookmakers print, tried first so that 1.33 reads 1/3 and 1.67 reads 4/6 (written
 * unreduced, as the trade writes it) rather than 33/100 or 67/100.
 */
const TRADITIONAL_FRACTIONS: readonly (readonly [bigint, bigint])[] = (
  '1/10 1/9 1/8 1/7 1/6 1/5 2/9 1/4 2/7 3/10 1/3 4/11 2/5 4/9 1/2 8/15 4/7 8/13 4/6 8/11 4/5 5/6 10/11 1/1 11/10 6/5 ' +
  '5/4 11/8 6/4 13/8 7/4 15/8 2/1 9/4 5/2 11/4 3/1 10/3 7/2 4/1 9/2 5/1 11/2 6/1 13/2 7/1 15/2 8/1 17/2 9/1 10/1'
)
  .split(' ')
  .map((fraction) => {
    const [a = '', b = ''] = fraction.split('/');
    return [BigInt(a), BigInt(b)] as const;
  });

const MAX_FRACTION_DENOMINATOR = 100n;

/** Whether a/b + 1 rounds to the price at two decimals: |(a + b)·S − units·b| < b·S / 200. */
function roundsTo(units: bigint, numerator: bigint, denominator: bigint): boolean {
  const difference = (numerator + denominator) * ODDS_SCALE - units * denominator;
  const magnitude = difference < 0n ? -difference : difference;
  return magnitude * 200n < denominator * ODDS_SCALE;
}

/**
 * Decimal → fractional: a traditional fraction when one shows the same two-decimal price, else the
 * exact profit in lowest terms when its denominator is at most 100, else the continued-fraction
 * convergent with a denominator up to 100 (the closest simple fraction).
 */
export function toFractional(units: bigint): FractionalOdds {
  requireOdds(units);
  const traditional = TRADITIONAL_FRACTIONS.find(([a, b]) => roundsTo(units, a, b));
  if (traditional) return { numerator: traditional[0], denominator: traditional[1] };
  const profit = units - ODDS_SCALE;
  const divisor = gcd(profit, ODDS_SCALE);
  if (ODDS_SCALE / divisor <= MAX_FRACTION_DENOMINATOR) return { numerator: profit / divisor, denominator: ODDS_SCALE / divisor };
  return lastConvergent(profit, ODDS_SCALE, MAX_FRACTION_DENOMINATOR);
}

/** The last convergent p/q of num/den's continued fraction with q ≤ maxDenominator. */
function lastConvergent(num: bigint, den: bigint, maxDenominator: bigint): FractionalOdds {
  let [p0, q0, p1, q1] = [0n, 1n, 1n, 0n];
  let [a, b] = [num, den];
  while (b !== 0n) {
    const term = a / b;
    const [p2, q2] = [term * p1 + p0, term * q1 + q0];
    if (q2 > maxDenominator) break;
    [p0, q0, p1, q1] = [p1, q1, p2, q2];
    [a, b] = [b, a - term * b];
  }
  return { numerator: p1, denominator: q1 };
}

/** ⌊x / y + 1/2⌋ for positive integers: the nearest integer, halves away from zero. */
function roundedQuotient(x: bigint, y: bigint): bigint {
  return (2n * x + y) / (2n * y);
}

/** Decimal → American: +100·(d − 1) from evens up, −100 / (d − 1) below evens, to the nearest unit. */
export function toAmerican(units: bigint): bigint {
  requireOdds(units);
  const profit = units - ODDS_SCALE;
  if (profit >= ODDS_SCALE) return roundedQuotient(100n * profit, ODDS_SCALE);
  return -roundedQuotient(100n * ODDS_SCALE, profit);
}

/** American → decimal ten-thousandths, rounded down (a price is never shown above what it pays). */
export function fromAmerican(american: bigint): bigint {
  if (american >= 100n) return requireOdds(ODDS_SCALE + (american * ODDS_SCALE) / 100n);
  if (american <= -100n) return requireOdds(ODDS_SCALE + (100n * ODDS_SCALE) / -american);
  throw new OddsError(`not an American price: ${american}`);
}

/** The price as the player reads it, in their format and locale. */
export function formatOdds(units: bigint, format: OddsFormat, locale: Locale): string {
  switch (format) {
    case 'decimal': {
      const text = oddsToDecimalString(units);
      return locale === 'it' ? text.replace('.', ',') : text;
    }
    case 'fractional': {
      const { numerator, denominator } = toFractional(units);
      return `${numerator}/${denominator}`;
    }
    case 'american': {
      const american = toAmerican(units);
      return american > 0n ? `+${american}` : `${american}`;
    }
  }
}
