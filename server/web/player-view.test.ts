/**
 * Issue 12, the shared signed-in render: what of a player's view is free (put in per answer) and
 * what is shape (decides which render a player shares), and the made-up players a shared render is
 * made for. The header's total is main + bonus + betting bonus (spec §9).
 */
import { describe, expect, it } from 'vitest';
import type { LoyaltyInfo } from '#common/loyalty-contract';
import { formatMoney, totalBalance } from '#common/money';
import { accountInfo } from '../../test/account-info';
import { formsOf, freeFieldsOf, shapeOf, templateOf, type PlayerView } from './player-view';

const LOYALTY_CALL = '/api/loyalty.getinfo?locale=en';

const account = accountInfo;

function loyalty(points: number, experience: number, level = 'silver'): LoyaltyInfo {
  const levels = [
    { level: 1, sysname: 'bronze', min_points: 0 },
    { level: 2, sysname: 'silver', min_points: 1000 },
  ];
  return {
    id: 3,
    uid: 7,
    is_active: true,
    points,
    experience,
    pointsAlias: 'points',
    character: null,
    levels,
    level: levels.find((item) => item.sysname === level)!,
    progress: { minValue: 1000, maxValue: 1000, expCount: 100 },
  };
}

function view(account: PlayerView['account'], loyaltyInfo?: LoyaltyInfo): PlayerView {
  return { account, calls: loyaltyInfo ? { [LOYALTY_CALL]: { status: 200, body: { data: loyaltyInfo } } } : {} };
}

const shape = (player: PlayerView) => shapeOf(player, freeFieldsOf(player));

describe('a player’s free values and shape (issue 12, shared signed-in render)', () => {
  it('takes the login, uid, registration time, non-zero balances and loyalty counts as free; zero, empty and escaped values as shape', () => {
    const player = view(account({ fakename: '' }, ['12.50', '0.00', '0.00', '3.00']), loyalty(1250, 0));
    const fields = freeFieldsOf(player).map((field) => `${field.source === 'account' ? 'account' : 'loyalty'}.${field.path}`);
    expect(fields).toEqual([
      'account.uid',
      'account.reg_time',
      'account.login',
      'account.balances.balance_main.amount',
      'account.balances.balance_fun.amount',
      'loyalty.data.id',
      'loyalty.data.uid',
      'loyalty.data.points',
      'loyalty.data.progress.expCount',
    ]);
    const quoted = view(account({ login: "o'brien@example.com", fakename: 'Ann <3' }));
    expect(freeFieldsOf(quoted).map((field) => field.path)).toEqual(['uid', 'reg_time']);
  });

  it('gives players who differ only in free values one shape, and players who differ in anything else another', () => {
    const anna = view(account({}, ['12.50', '0.00', '0.00', '0.00']), loyalty(1250, 1300));
    const bruno = view(
      account({ uid: 91, login: 'bruno.rossi@example.it', reg_time: '2025-01-02T03:04:05.006Z' }, [
        '99999.99',
        '0.00',
        '0.00',
        '0.00',
      ]),
      { ...loyalty(40, 2200), id: 12, uid: 91 },
    );
    expect(shape(bruno)).toBe(shape(anna));
    // A zero balance shows differently from a positive one; so may a phone login, a verified
    // account, another level, the order of two balances or two equal values.
    expect(shape(view(account({}, ['0.00', '0.00', '0.00', '0.00']), loyalty(1250, 1300)))).not.toBe(shape(anna));
    expect(shape(view(account({ login: '393331234567' }, ['12.50', '0.00', '0.00', '0.00']), loyalty(1250, 1300)))).not.toBe(
      shape(anna),
    );
    expect(shape(view(account({ is_verified: true }, ['12.50', '0.00', '0.00', '0.00']), loyalty(1250, 1300)))).not.toBe(
      shape(anna),
    );
    expect(shape(view(account({}, ['12.50', '0.00', '0.00', '0.00']), loyalty(1250, 1300, 'bronze')))).not.toBe(shape(anna));
    const bonusAboveMain = view(account({}, ['1.00', '5.00', '0.00', '0.00']), loyalty(1250, 1300));
    const bonusBelowMain = view(account({}, ['5.00', '1.00', '0.00', '0.00']), loyalty(1250, 1300));
    expect(shape(bonusAboveMain)).not.toBe(shape(bonusBelowMain));
    expect(shape(view(account({}, ['12.50', '0.00', '0.00', '0.00']), loyalty(1300, 1300)))).not.toBe(shape(anna));
  });

  it('makes up players of the same shape whose values are nobody’s, in both variants', () => {
    const anna = view(account({ fakename: 'Anna' }, ['12.50', '2.00', '0.00', '0.00']), loyalty(1250, 1300));
    const fields = freeFieldsOf(anna);
    for (const variant of ['found', 'check'] as const) {
      const madeUp = templateOf(anna, fields, variant);
      expect(shapeOf(madeUp, fields)).toBe(shapeOf(anna, fields));
      const text = JSON.stringify(madeUp);
      for (const real of ['anna@example.com', '"Anna"', '12.50', '2.00', '2026-11-29T10:00:00.000Z', ':1250,'])
        expect(text).not.toContain(real);
      // The original is left as it was.
      expect(anna.account.login).toBe('anna@example.com');
    }
    const found = templateOf(anna, fields, 'found');
    expect(found.account.login).toMatch(/^[a-z]{12}@[a-z]{8}\.test$/);
    expect(found.account.uid).toBe((found.calls[LOYALTY_CALL]!.body as { data: LoyaltyInfo }).data.uid);
    // The check variant's texts need escaping in HTML and in the data script.
    expect(templateOf(anna, fields, 'check').account.fakename).toMatch(/['&<"]/);
  });

  it('lists the same forms in the same order for a player and the made-up ones, the header total among them', () => {
    const anna = view(account({}, ['1234.50', '10.00', '0.00', '0.00']), loyalty(1250, 1300));
    const fields = freeFieldsOf(anna);
    const forms = formsOf(anna, fields);
    expect(forms).toContain('anna@example.com');
    expect(forms).toContain('€1,234.50');
    expect(forms).toContain('1,250');
    expect(forms).toContain(formatMoney(totalBalance(anna.account.balances)));
    const found = templateOf(anna, fields, 'found');
    expect(formsOf(found, fields)).toHaveLength(forms.length);
    expect(formsOf(found, fields)).toContain(formatMoney(totalBalance(found.account.balances)));
    // Without a free balance the total is the same for every player of the shape: no form.
    const broke = view(account());
    expect(formsOf(broke, freeFieldsOf(broke)).some((form) => form.startsWith('€'))).toBe(false);
  });
});
