/**
 * The aggregator's table titles played for real money from the game page (issue 15: "Browser tests
 * in en and /it play one game of each aggregator title type for real money and see it in history"):
 * a Baccarat Royale coup and a bet at the Auto Roulette live table (a shared round with its
 * countdown), each moving the main balance through the seamless wallet, then both rounds on
 * /profile/bets.
 */
import { describe, expect, it } from 'vitest';
import type { Frame } from 'playwright-core';
import { closeContext, screenshot, useBrowser, waitForHydration } from './browser';
import { openRealGame, placeLiveBet, waitForResult } from './aggregator-play';
import { mainBalanceMinor, signedUpPlayer } from './page-api';
import { depositBySandboxCalls } from './sandbox-deposit';
import { inLocale } from './site-facts';
import { TABLE_TEXTS_EN, TABLE_TEXTS_IT } from '../server/game-aggregator/tables/views/texts';
import { autoRoulette } from '../server/game-aggregator/tables/auto-roulette';

const POLL = { timeout: 30_000 };
const NAMES = { en: TABLE_TEXTS_EN, it: TABLE_TEXTS_IT };

describe('aggregator table titles for real money', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  const winShown = (frame: Frame) => frame.locator('.game__meter-value').getAttribute('data-win');

  for (const locale of ['en', 'it'] as const) {
    it(
      `plays a Baccarat Royale coup and an Auto Roulette shared round, and both show on /profile/bets (${locale})`,
      { timeout: 240_000 },
      async () => {
        const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: '10.96' });
        await depositBySandboxCalls(page, base, '50');

        // Baccarat Royale: one chip on the banker, dealt; the wallet takes the stake and pays the return.
        const before = await mainBalanceMinor(page);
        const baccarat = await openRealGame(page, base, locale, 'baccarat-royale');
        expect(await baccarat.locator('#game h1').textContent()).toBe(NAMES[locale]['names.baccarat-royale']);
        expect(await baccarat.locator('.game__mode').getAttribute('data-mode')).toBe('real');
        const stake = BigInt((await baccarat.locator('[data-stake]').getAttribute('data-stake'))!);
        await baccarat.click('[data-spot="banker"]');
        await baccarat.click('.game__play');
        await baccarat.locator('.bac__side .tcard').nth(3).waitFor();
        await baccarat.locator('#game:not(.is-playing)').waitFor({ timeout: 30_000 });
        const coupWin = BigInt((await winShown(baccarat)) ?? '0');
        await expect.poll(() => mainBalanceMinor(page), POLL).toBe(before - stake + coupWin);
        expect(await baccarat.locator('.game__balance').getAttribute('data-balance')).toBe(String(before - stake + coupWin));
        await screenshot(page, `aggregator-baccarat-royale-${locale}`);

        // Auto Roulette: in a betting window with time left, bet on red and see the shared round settle.
        const afterCoup = before - stake + coupWin;
        const roulette = await openRealGame(page, base, locale, 'auto-roulette');
        expect(await roulette.locator('#game h1').textContent()).toBe(NAMES[locale]['names.auto-roulette']);
        const chip = BigInt((await roulette.locator('[data-stake]').getAttribute('data-stake'))!);
        const betRound = await placeLiveBet(roulette, 'red', chip);
        await roulette.locator('[data-spot="red"].has-bet').waitFor({ timeout: 15_000 });
        expect(await roulette.locator('.live__clock').textContent()).toMatch(/\d+ s/);
        const settled = await waitForResult(roulette, betRound);
        expect(settled.bets).toEqual([{ spot: 'red', stake: chip.toString() }]);
        const spinWin = autoRoulette.settle({ spot: 'red', stakeMinor: chip }, settled.round.outcome);
        expect(settled.win).toBe(spinWin.toString());
        await expect
          .poll(() => roulette.locator('.rl__result').textContent(), POLL)
          .toBe(String((settled.round.outcome as { pocket: number }).pocket));
        await expect.poll(() => winShown(roulette), POLL).toBe(spinWin.toString());
        await expect.poll(() => mainBalanceMinor(page), POLL).toBe(afterCoup - chip + spinWin);
        await screenshot(page, `aggregator-auto-roulette-${locale}`);

        // Both rounds in the player's history.
        await page.goto(`${base}${inLocale('/profile/bets', locale)}`);
        await waitForHydration(page);
        const sysnames = page.locator('[data-game-history] [data-history-row]');
        await expect
          .poll(() => sysnames.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-sysname'))), POLL)
          .toEqual(expect.arrayContaining(['baccarat-royale', 'auto-roulette']));
        await closeContext(context);
      },
    );
  }
});
