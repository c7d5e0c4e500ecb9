import { describe, expect, it } from 'vitest';
import { balanceRows, detalizationPlace } from './detalization';

const eur = (amount: string) => ({ amount, currency: 'EUR' });

describe('balance detalization (spec §3: enableDetalization; displayedDetalization header or profile menu)', () => {
  it('is off unless enabled', () => {
    expect(detalizationPlace(undefined)).toBeNull();
    expect(detalizationPlace({ enableDetalization: false, displayedDetalization: 'header' })).toBeNull();
  });
  it('shows in the cashier header or the profile menu', () => {
    expect(detalizationPlace({ enableDetalization: true, displayedDetalization: 'header' })).toBe('header');
    expect(detalizationPlace({ enableDetalization: true, displayedDetalization: 'profile' })).toBe('profile');
    expect(detalizationPlace({ enableDetalization: true })).toBe('header');
  });
  it('lists main, bonus, betting bonus and their total (spec §9: total = main + bonus + betting bonus)', () => {
    const rows = balanceRows({
      balance_main: eur('10.50'),
      balance_bonus: eur('2.25'),
      balance_betting_bonus: eur('1.00'),
      balance_fun: eur('999.00'),
    });
    expect(rows.map((row) => row.key)).toEqual(['main', 'bonus', 'betting_bonus', 'total']);
    expect(rows[3]?.money).toEqual(eur('13.75'));
  });
});
