import { describe, expect, it } from 'vitest';
import { isUnseenCashback, POPUP_EXCLUDED_ROUTES } from './use-promotion-popups';

const FUTURE = '2030-01-01T00:00:00.000Z';

describe('spec §4 cashback popup rule', () => {
  it('an active newest cashback shows unless its id is the one last seen', () => {
    expect(isUnseenCashback({ id: 7, status: 'active', receiving_expired_at: FUTURE }, null)).toBe(true);
    expect(isUnseenCashback({ id: 7, status: 'active', receiving_expired_at: FUTURE }, '6')).toBe(true);
    expect(isUnseenCashback({ id: 7, status: 'active', receiving_expired_at: FUTURE }, '7')).toBe(false);
  });

  it('a paid-out newest cashback shows only without receiving_expired_at', () => {
    expect(isUnseenCashback({ id: 7, status: 'paid_out', receiving_expired_at: FUTURE }, null)).toBe(false);
    expect(isUnseenCashback({ id: 7, status: 'paid_out', receiving_expired_at: '' }, '7')).toBe(true);
  });

  it('no cashback, or one expired or removed, shows nothing', () => {
    expect(isUnseenCashback(undefined, null)).toBe(false);
    expect(isUnseenCashback({ id: 7, status: 'expired', receiving_expired_at: FUTURE }, null)).toBe(false);
    expect(isUnseenCashback({ id: 7, status: 'removed', receiving_expired_at: FUTURE }, null)).toBe(false);
  });
});

describe('spec §2 campaign popup route exclusions', () => {
  it('the game page and the deposit pages never open it', () => {
    for (const route of ['game-index-item', 'cashier-index-deposit-index-sysname', 'cashier-index-deposit']) {
      expect(POPUP_EXCLUDED_ROUTES.has(route)).toBe(true);
    }
    expect(POPUP_EXCLUDED_ROUTES.has('index')).toBe(false);
  });
});
