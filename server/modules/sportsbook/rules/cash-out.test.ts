import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_ODDS } from '#common/sportsbook/odds';
import { cashOutPrice, partialCashOut, type CashOutLeg } from './cash-out';
import { LOST, WON } from './settlement';

const odds = fc.bigInt({ min: MIN_ODDS, max: 200_000n });
const stake = fc.bigInt({ min: 100n, max: 10n ** 8n });
const margin = fc.bigInt({ min: 0n, max: 2_000n });

describe('issue 14 cash-out: a price from current odds with a margin', () => {
  it('at unchanged odds a single is bought back for the stake less the margin', () => {
    fc.assert(
      fc.property(stake, odds, margin, (s, o, m) => {
        const price = cashOutPrice(s, [{ state: 'open', placedOddsUnits: o, currentOddsUnits: o }], m);
        expect(price).toBe((s * (10_000n - m)) / 10_000n || undefined);
      }),
    );
  });

  it('the shorter the current price (the likelier the win), the more the cash-out pays', () => {
    fc.assert(
      fc.property(stake, odds, odds, odds, (s, placed, a, b) => {
        const [shorter, longer] = a < b ? [a, b] : [b, a];
        const priceAt = (current: bigint) =>
          cashOutPrice(s, [{ state: 'open', placedOddsUnits: placed, currentOddsUnits: current }]) ?? 0n;
        expect(priceAt(shorter) >= priceAt(longer)).toBe(true);
      }),
    );
  });

  it('a multiple with a won leg is worth a single on the open leg staked with the won leg’s return', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 100n, max: 10n ** 6n }), odds, odds, odds, (s, wonOdds, placed, current) => {
        const multiple: CashOutLeg[] = [
          { state: 'settled', placedOddsUnits: wonOdds, result: WON },
          { state: 'open', placedOddsUnits: placed, currentOddsUnits: current },
        ];
        // Scaled by 10 000 so that the intermediate stake s × wonOdds is exact.
        const single = cashOutPrice(s * wonOdds, [{ state: 'open', placedOddsUnits: placed, currentOddsUnits: current }]);
        const viaMultiple = cashOutPrice(s * 10_000n, multiple);
        expect(viaMultiple).toBe(single);
      }),
    );
  });

  it('no cash-out on a suspended market, a lost bet or a bet with nothing left to play', () => {
    expect(cashOutPrice(1_000n, [{ state: 'suspended', placedOddsUnits: 20_000n }])).toBeUndefined();
    expect(
      cashOutPrice(1_000n, [
        { state: 'settled', placedOddsUnits: 20_000n, result: LOST },
        { state: 'open', placedOddsUnits: 20_000n, currentOddsUnits: 20_000n },
      ]),
    ).toBeUndefined();
    expect(cashOutPrice(1_000n, [{ state: 'settled', placedOddsUnits: 20_000n, result: WON }])).toBeUndefined();
  });
});

describe('issue 14 partial cash-out: the rest of the stake stays open proportionally', () => {
  it('what is paid plus what the remaining stake is worth never exceeds the full price', () => {
    fc.assert(
      fc.property(stake, odds, odds, fc.integer({ min: 1, max: 99 }), (s, placed, current, percent) => {
        const legs: CashOutLeg[] = [{ state: 'open', placedOddsUnits: placed, currentOddsUnits: current }];
        const full = cashOutPrice(s, legs);
        fc.pre(full !== undefined && full >= 100n);
        const requested = (full! * BigInt(percent)) / 100n || 1n;
        const partial = partialCashOut(s, full!, requested);
        const remainingWorth = partial.remainingStakeMinor > 0n ? (cashOutPrice(partial.remainingStakeMinor, legs) ?? 0n) : 0n;
        expect(partial.paidMinor + remainingWorth <= full!).toBe(true);
        // …and falls short of it by less than the worth of one minor unit of stake plus rounding.
        const unitWorth = (cashOutPrice(1n * 10_000n, legs) ?? 0n) / 10_000n + 2n;
        expect(full! - partial.paidMinor - remainingWorth <= unitWorth).toBe(true);
      }),
    );
  });

  it('a request above the full price or not above zero is refused', () => {
    expect(() => partialCashOut(1_000n, 900n, 901n)).toThrow(RangeError);
    expect(() => partialCashOut(1_000n, 900n, 0n)).toThrow(RangeError);
  });
});
