/**
 * The game page's settings of spec §3 (games-config gamesItem), as pure rules the page and its
 * tests share.
 */

/** visibleFullScreen: none, product (the site), messenger (the mini-app) or all. */
export type FullScreenSetting = 'none' | 'product' | 'messenger' | 'all';

export function isFullScreenButtonVisible(setting: unknown, isInMessenger: boolean): boolean {
  switch (setting) {
    case 'all':
      return true;
    case 'product':
      return !isInMessenger;
    case 'messenger':
      return isInMessenger;
    default:
      return false;
  }
}

interface RealBalances {
  balance_main: { amount: string };
  balance_bonus: { amount: string };
}

/**
 * canAccessSlotWithZeroBalance false: real play waits for a deposit while the player has no
 * money to stake (main and bonus both zero); demo play is always open. Free spins of this game
 * are something to play with: a player holding a pack for it goes straight to the game.
 */
export function mustDepositBeforeRealPlay(
  canAccessWithZeroBalance: boolean,
  balances: RealBalances | null | undefined,
  hasFreespinsForGame = false,
): boolean {
  if (canAccessWithZeroBalance || !balances || hasFreespinsForGame) return false;
  return Number(balances.balance_main.amount) <= 0 && Number(balances.balance_bonus.amount) <= 0;
}
