/**
 * The LiveWave live tables besides Auto Roulette (e2e/aggregator-tables.test.ts), for real money in
 * the game page's frame (issue 15: "Every listed game plays…"; "Browser tests in en and /it play
 * one game of each aggregator title type for real money and see it in history"): Live Baccarat,
 * Lightning Wheel and Live Blackjack VIP. In a betting window the player taps a spot and presses
 * Bet in the client; the shared round settles; each test checks the money rule (the balance moves
 * by exactly the seat's stake − its return as the table reported it, in the header, the wallet and
 * the game) and the history rule (the seat's round in games.getHistory and on /profile/bets).
 */
import { describe, expect, it } from 'vitest';
import { screenshot, useBrowser } from './browser';
import { mainBalanceMinor } from './page-api';
import type { Locale } from './site-facts';
import {
  AGGREGATOR_POLL,
  expectBalanceMovedBy,
  expectRoundInHistory,
  openRealGame,
  placeLiveBet,
  sharedFundedPlayer,
  waitForResult,
} from './aggregator-play';

/**
 * A live table's round takes a betting window (15 s), the draw and the result: longer than a round
 * of a player title, and a bet that came late waits for the next window.
 */
const LIVE_TEST = { timeout: 150_000 };

describe('aggregator live tables for real money, through their own controls', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;
  const player = sharedFundedPlayer(browser, { addressPrefix: '10.98', deposit: '100' });

  const TABLES = [
    ['live-baccarat', 'player', 'en'],
    ['lightning-wheel', '2', 'it'],
    ['live-blackjack-vip', 'hand', 'en'],
  ] as const satisfies readonly (readonly [string, string, Locale])[];

  it.each(TABLES)(
    '%s: a bet on "%s" in the betting window settles with the shared round; the balance moves by stake − return and the round shows in history (%s)',
    LIVE_TEST,
    async (sysname, spot, locale) => {
      const page = await player();
      const before = await mainBalanceMinor(page);
      const frame = await openRealGame(page, base, locale, sysname);
      expect(await frame.locator('.game__mode').getAttribute('data-mode')).toBe('real');
      const chip = BigInt((await frame.locator('[data-stake]').getAttribute('data-stake'))!);

      const betRound = await placeLiveBet(frame, spot, chip);

      const settled = await waitForResult(frame, betRound);
      expect(settled.win).not.toBeNull();
      const win = BigInt(settled.win!);
      await expect.poll(() => frame.locator('.game__meter-value').getAttribute('data-win'), AGGREGATOR_POLL).toBe(win.toString());
      await expectBalanceMovedBy(page, frame, before, chip, win);
      await screenshot(page, `aggregator-${sysname}-${locale}`);
      await expectRoundInHistory(page, base, locale, sysname, { stake: chip, win });
    },
  );
});
