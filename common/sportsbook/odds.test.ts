import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatOdds,
  fromAmerican,
  MAX_ODDS,
  MIN_ODDS,
  ODDS_SCALE,
  oddsRatio,
  oddsToDecimalString,
  parseOdds,
  toAmerican,
  toFractional,
} from './odds';
import { floorTimes, ratio, ratioFromDecimal, ratioToDecimal } from './ratio';

const anyOdds = fc.bigInt({ min: MIN_ODDS, max: 1_000_000n });

describe('issue 14 odds: decimal odds held exactly as ten-thousandths', () => {
  it('a decimal price read and written back is the same price', () => {
    fc.assert(
      fc.property(anyOdds, (units) => {
        expect(parseOdds(oddsToDecimalString(units))).toBe(units);
      }),
    );
  });

  it('the written price has two decimals unless the price needs more', () => {
    fc.assert(
      fc.property(anyOdds, (units) => {
        const text = oddsToDecimalString(units);
        const decimals = text.split('.')[1] ?? '';
        expect(decimals.length).toBeGreaterThanOrEqual(2);
        expect(decimals.length).toBeLessThanOrEqual(4);
        expect(ratioFromDecimal(text)).toEqual(oddsRatio(units));
      }),
    );
  });

  it('prices that pay no more than the stake, or absurd ones, are refused', () => {
    for (const text of ['1.00', '1.009', '0.5', '1.12345', '1,85', 'abc', `${Number(MAX_ODDS / ODDS_SCALE) + 1}`])
      expect(() => parseOdds(text), text).toThrow(RangeError);
  });
});

describe('issue 14 odds format: fractional odds are the profit per unit staked', () => {
  it('a fraction a/b shows the price rounded to two decimals: 1 + a/b ≈ d', () => {
    fc.assert(
      fc.property(anyOdds, (units) => {
        const { numerator, denominator } = toFractional(units);
        expect(denominator).toBeGreaterThan(0n);
        expect(denominator).toBeLessThanOrEqual(100n);
        // Within half a cent when exact or traditional, within one part in 100·q² for a convergent.
        const shown = Number(numerator) / Number(denominator) + 1;
        expect(Math.abs(shown - Number(units) / 1e4)).toBeLessThan(0.01 + 1 / Number(denominator) ** 2);
      }),
    );
  });

  it('prices the trade writes as traditional fractions read that way (1.33 → 1/3, 1.67 → 4/6)', () => {
    expect(formatOdds(13_300n, 'fractional', 'en')).toBe('1/3');
    expect(formatOdds(16_700n, 'fractional', 'en')).toBe('4/6');
    expect(formatOdds(20_000n, 'fractional', 'en')).toBe('1/1');
  });

  it('a price with an exact short fraction shows it in lowest terms (1.85 → 17/20)', () => {
    const { numerator, denominator } = toFractional(18_500n);
    expect((numerator + denominator) * ODDS_SCALE).toBe(18_500n * denominator);
  });
});

describe('issue 14 odds format: American odds', () => {
  it('evens and above show the profit on 100 with a plus; below evens the stake to win 100 with a minus', () => {
    fc.assert(
      fc.property(anyOdds, (units) => {
        const american = toAmerican(units);
        if (units >= 2n * ODDS_SCALE) expect(american).toBeGreaterThanOrEqual(100n);
        else expect(american).toBeLessThanOrEqual(-100n);
      }),
    );
  });

  it('American back to decimal lands within the rounding of one American unit', () => {
    fc.assert(
      fc.property(anyOdds, (units) => {
        const back = fromAmerican(toAmerican(units));
        const decimal = Number(units) / 1e4;
        // One American unit moves a price by 1/100 above evens, by (d − 1)²/100 below.
        const tolerance = decimal >= 2 ? 0.006 : ((decimal - 1) ** 2 / 100) * 0.6 + 0.0001;
        expect(Math.abs(Number(back) / 1e4 - decimal)).toBeLessThan(tolerance);
      }),
    );
  });

  it('formats per player choice and locale', () => {
    expect(formatOdds(25_000n, 'american', 'en')).toBe('+150');
    expect(formatOdds(15_000n, 'american', 'it')).toBe('-200');
    expect(formatOdds(18_500n, 'decimal', 'en')).toBe('1.85');
    expect(formatOdds(18_500n, 'decimal', 'it')).toBe('1,85');
  });
});

describe('issue 14 money: exact fractions, one rounding down', () => {
  it('stake × odds rounds down to the minor unit and never above the exact product', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), anyOdds, (stake, units) => {
        const paid = floorTimes(stake, oddsRatio(units));
        expect(paid * ODDS_SCALE).toBeLessThanOrEqual(stake * units);
        expect((paid + 1n) * ODDS_SCALE).toBeGreaterThan(stake * units);
      }),
    );
  });

  it('a decimal written from a ratio reads back as the ratio when it has four places or fewer', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }), (tenThousandths) => {
        const r = ratio(tenThousandths, 10_000n);
        expect(ratioFromDecimal(ratioToDecimal(r))).toEqual(r);
      }),
    );
  });
});
