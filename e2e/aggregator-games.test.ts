/**
 * An external studio's slot through the demo game aggregator, in the browser (issue 15: "Browser
 * tests in en and /it play one game of each aggregator title type for real money and see it in
 * history"): the game page frames the aggregator's client, the player spins for real money, the
 * labelled balance follows the wallet, and the round shows on /profile/bets.
 */
import { describe, expect, it } from 'vitest';
import { closeContext, screenshot, useBrowser, waitForHydration } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { depositBySandboxCalls } from './sandbox-deposit';
import { inLocale, type Locale } from './site-facts';

const POLL = { timeout: 20_000 };
/** The client's own texts (server/game-aggregator/client/i18n.ts) in the launch's language. */
const CLIENT_TEXT = {
  en: { name: 'Fox Fortune', balance: 'Balance', spin: 'Spin', mode: 'Real money' },
  it: { name: 'Fortuna della Volpe', balance: 'Saldo', spin: 'Gira', mode: 'Soldi veri' },
} as const;

interface HistoryItem {
  id: string;
  kind: string;
  sysname: string;
  stake: { amount: string };
  payout: { amount: string };
}

describe('an aggregator slot for real money in the game frame', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  for (const locale of ['en', 'it'] as const satisfies readonly Locale[]) {
    it(`spins Fox Fortune for real money and sees the round on /profile/bets (${locale})`, async () => {
      const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: '10.91' });
      await depositBySandboxCalls(page, base, '20');
      await page.goto(`${base}${inLocale('/game/fox-fortune', locale)}#real`);
      await waitForHydration(page);
      const frameElement = page.locator('[data-game-frame="real"]');
      await frameElement.waitFor(POLL);
      const frame = page.frameLocator('[data-game-frame="real"]');
      const text = CLIENT_TEXT[locale];
      await expect.poll(() => frame.locator('.game__title h1').textContent(), POLL).toBe(text.name);
      expect(await frameElement.getAttribute('src')).toContain('/platform/game/fox-fortune/play');
      expect(await frame.locator('.game__balance-label').textContent()).toBe(text.balance);
      expect(await frame.locator('.game__mode').textContent()).toBe(text.mode);
      expect(await frame.locator('.game__balance').getAttribute('data-balance')).toBe('2000');
      // Reels show drawn symbols before the first spin, never an empty box.
      expect(await frame.locator('.reel__cell svg').count()).toBe(15);

      await frame.locator('[data-action="play"]').click();
      await expect.poll(() => frame.locator('[data-action="play"]').isDisabled(), POLL).toBe(false);
      await expect.poll(() => frame.locator('.game__meter-value').getAttribute('data-win'), POLL).not.toBeNull();
      await screenshot(page, `aggregator-fox-fortune-${locale}`);

      const history = await apiCall<{ items: HistoryItem[]; total: number }>(page, 'GET', 'games.getHistory', {
        offset: '0',
        count: '10',
      });
      const round = history.data?.items[0];
      expect(round).toMatchObject({ kind: 'provider', sysname: 'fox-fortune', stake: { amount: '0.10' } });
      // The frame's labelled balance is the wallet's: 20.00 − 0.10 + the win.
      const expected = 2000 - 10 + Math.round(Number(round?.payout.amount) * 100);
      await expect.poll(() => frame.locator('.game__balance').getAttribute('data-balance'), POLL).toBe(String(expected));

      await page.goto(`${base}${inLocale('/profile/bets', locale)}`);
      await waitForHydration(page);
      const row = page.locator(`[data-game-history] [data-history-row="${round?.id}"]`);
      await expect.poll(() => row.getAttribute('data-sysname'), POLL).toBe('fox-fortune');
      expect(await row.locator('[data-stake]').textContent()).toContain('0');
      await closeContext(context);
    });
  }
});
