import { describe, expect, it } from 'vitest';
import { validateSum } from '#common/validators';
import { amountPresets, initialAmount, normalizeSum, wholeUnitBounds, withdrawalBounds } from './amounts';

const LISTS = [
  { currency: 'EUR', amounts: [10, 20, 50, 100, 250] },
  { currency: 'USD', amounts: [10, 25, 50, 100, 250] },
];

describe('deposit amount presets (spec §3: a list per currency, each with a currency and an amount list)', () => {
  it('takes the list of the player currency', () => {
    expect(amountPresets(LISTS, 'USD', { min: 1, max: 1000 })).toEqual([10, 25, 50, 100, 250]);
  });
  it('drops presets outside the method bounds, so a preset always passes the sum validator', () => {
    const bounds = { min: 20, max: 100, currency: 'EUR' };
    const presets = amountPresets(LISTS, 'EUR', bounds);
    expect(presets).toEqual([20, 50, 100]);
    for (const amount of presets) expect(validateSum(String(amount), bounds).isValid).toBe(true);
  });
  it('has no presets for a currency without a list', () => {
    expect(amountPresets(LISTS, 'BRL', { min: 1, max: 1000 })).toEqual([]);
    expect(amountPresets(undefined, 'EUR', { min: 1, max: 1000 })).toEqual([]);
  });
  it('starts with the first preset, else the minimum', () => {
    expect(initialAmount([20, 50], { min: 10, max: 100 })).toBe('20');
    expect(initialAmount([], { min: 10, max: 100 })).toBe('10');
  });
});

describe('sum bounds (spec §5: a whole number within min and max)', () => {
  it('rounds the minimum up and the maximum down to whole units', () => {
    expect(wholeUnitBounds('10.50', '5000.99', 'EUR')).toEqual({ min: 11, max: 5000, currency: 'EUR' });
    expect(wholeUnitBounds('0.00', '10.00', 'EUR').min).toBe(1);
  });
  it('caps a withdrawal at the available balance when it is below the method maximum', () => {
    expect(withdrawalBounds({ min_amount: '20.00', max_amount: '2000.00' }, '150.75', 'EUR')).toEqual({
      min: 20,
      max: 150,
      currency: 'EUR',
    });
    expect(withdrawalBounds({ min_amount: '20.00', max_amount: '2000.00' }, '9000.00', 'EUR').max).toBe(2000);
  });
  it('removes commas from the typed sum', () => {
    expect(normalizeSum(' 1,000 ')).toBe('1000');
  });
});
