import { describe, expect, it } from 'vitest';
import { isFullScreenButtonVisible, mustDepositBeforeRealPlay } from './game-page-rules';

const balances = (main: string, bonus: string) => ({ balance_main: { amount: main }, balance_bonus: { amount: bonus } });

describe('game page settings (spec §3 gamesItem)', () => {
  it.each([
    ['none', false, false],
    ['none', true, false],
    ['product', false, true],
    ['product', true, false],
    ['messenger', false, false],
    ['messenger', true, true],
    ['all', false, true],
    ['all', true, true],
    [undefined, false, false],
  ] as const)('visibleFullScreen %s in messenger=%s shows the button: %s', (setting, isInMessenger, expected) => {
    expect(isFullScreenButtonVisible(setting, isInMessenger)).toBe(expected);
  });

  it('canAccessSlotWithZeroBalance false: real play needs money on main or bonus', () => {
    expect(mustDepositBeforeRealPlay(false, balances('0.00', '0.00'))).toBe(true);
    expect(mustDepositBeforeRealPlay(false, balances('0.01', '0.00'))).toBe(false);
    expect(mustDepositBeforeRealPlay(false, balances('0.00', '5.00'))).toBe(false);
  });

  it('canAccessSlotWithZeroBalance false with zero balances but free spins for this game: the game opens (issue 5 freespins)', () => {
    expect(mustDepositBeforeRealPlay(false, balances('0.00', '0.00'), true)).toBe(false);
    expect(mustDepositBeforeRealPlay(false, balances('0.00', '0.00'), false)).toBe(true);
  });

  it('canAccessSlotWithZeroBalance true, or balances not known yet: the game opens', () => {
    expect(mustDepositBeforeRealPlay(true, balances('0.00', '0.00'))).toBe(false);
    expect(mustDepositBeforeRealPlay(false, null)).toBe(false);
  });
});
