import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from './route-table';

// The routes of spec §2, as paths; each must be served by the route table.
const SPEC_PATHS = [
  '',
  ':slug',
  'betting',
  'cashier',
  'cashier/billing',
  'cashier/deposit',
  'cashier/deposit/:sysname',
  'cashier/history',
  'cashier/paycancel',
  'cashier/payfail',
  'cashier/payfail/:transaction',
  'cashier/paypending',
  'cashier/paypending/:transaction',
  'cashier/paysuccess',
  'cashier/paysuccess/:transaction',
  'cashier/paymobile',
  'cashier/paynewwindow',
  'cashier/receipt',
  'cashier/wallet',
  'cashier/withdraw',
  'confirmation',
  'confirmation/success',
  'forms/sign_in',
  'forms/sign_up',
  'game/:sysname',
  'gamehall',
  'gamehall/:id',
  'jackpots',
  'jackpots/:id',
  'loyalty',
  'loyalty/shop',
  'loyalty/:sysname',
  'offers',
  'offers/:id',
  'profile',
  'profile/settings',
  'profile/security',
  'profile/verification',
  'profile/responsible-game',
  'profile/bets',
  'profile/loyalty',
  'profile/bonuses',
  'profile/cashback',
  'profile/notification',
  'promotions',
  'promotions/:id',
  'providers',
  'support',
  'tournaments',
  'tournaments/:id',
  'tournaments/:id/gamehall',
  'unsubscribe',
  'winners',
  '_icons',
  'responsible-game',
  'bets/*',
];

describe('route table (spec §2: every route)', () => {
  it('has every route of the spec, once, and nothing else', () => {
    const paths = ROUTE_TABLE.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual([...SPEC_PATHS].sort());
  });
  it('has unique names, and the names the spec uses', () => {
    const names = ROUTE_TABLE.map((route) => route.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of ['betting', 'game-sysname', 'cashier-index-deposit', 'cashier-index-deposit-index-sysname'])
      expect(names).toContain(name);
  });
  it('uses the empty layout for the sign-in and sign-up forms and the game layout for game pages', () => {
    const layoutOf = (path: string) => ROUTE_TABLE.find((route) => route.path === path)?.layout;
    expect(layoutOf('forms/sign_in')).toBe('empty');
    expect(layoutOf('forms/sign_up')).toBe('empty');
    expect(layoutOf('game/:sysname')).toBe('game');
    expect(layoutOf('promotions')).toBe('default');
  });
});
