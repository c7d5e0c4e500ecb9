import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatMoney, minorToAmount, money } from './money';

describe('money on the wire (architecture §5: integers in minor units, never floats)', () => {
  it('writes minor units as a decimal string with 2 digits and back without loss', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (minor) => {
        const amount = minorToAmount(minor);
        expect(amount).toMatch(/^-?\d+\.\d{2}$/);
        expect(BigInt(amount.replace('.', ''))).toBe(minor);
      }),
    );
  });
});

describe('money display (spec §9: thousands commas, 2 decimals, symbol before the amount)', () => {
  it('groups thousands and keeps two decimals', () => {
    expect(formatMoney(money(123456789n, 'USD'))).toBe('$1,234,567.89');
    expect(formatMoney(money(5n, 'EUR'))).toBe('€0.05');
    expect(formatMoney(money(-100000n, 'EUR'))).toBe('-€1,000.00');
  });
  it('falls back to the currency code for an unknown symbol', () => {
    expect(formatMoney(money(100n, 'XYZ'))).toBe('XYZ 1.00');
  });
});

describe('total balance (spec §9: main + bonus + betting bonus)', () => {
  it('adds the three balances in minor units, without the fun balance', async () => {
    const { totalBalance, amountToMinor } = await import('./money');
    const total = totalBalance({
      balance_main: money(1050n, 'EUR'),
      balance_bonus: money(250n, 'EUR'),
      balance_betting_bonus: money(5n, 'EUR'),
    });
    expect(total).toEqual({ amount: '13.05', currency: 'EUR' });
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), (minor) => {
        expect(amountToMinor(minorToAmount(minor))).toBe(minor);
      }),
    );
  });
});
