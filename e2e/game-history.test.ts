/**
 * Game history and its export in the browser (issue 5 "History and export"), on /profile/bets in
 * English and Italian: the player's real-money rounds newest first, 4 at a time with "Load more"
 * (spec §9 history page size), and a CSV export that the server makes in the background and the
 * player downloads, one line per round.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { closeContext, useBrowser, waitForHydration } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { depositBySandboxCalls } from './sandbox-deposit';
import { inLocale, tr, trCount, type Locale } from './site-facts';
import { formatMoney, type Money } from '#common/money';

const POLL = { timeout: 20_000 };
const DICE = 'dice-roll';
const ROUNDS = 5;

interface HistoryItem {
  id: string;
  net: { amount: string };
}

describe('game history in the browser', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  /** A signed-up player with a sandbox deposit and a few real dice rounds played. */
  async function playerWithRounds(locale: Locale): Promise<{ context: BrowserContext; page: Page }> {
    const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: '10.83', acceptDownloads: true });
    await depositBySandboxCalls(page, base, '20');
    for (let i = 0; i < ROUNDS; i++) {
      const answer = await apiCall(page, 'POST', 'games.play', {
        sysname: DICE,
        mode: 'real',
        bet: JSON.stringify({ stake: '1.00', direction: 'under', target: '50.00' }),
        request_id: `history-${Date.now()}-${i}`,
      });
      expect(answer.error).toBeUndefined();
    }
    return { context, page };
  }

  const shownRows = (page: Page) =>
    page
      .locator('[data-game-history] [data-history-row]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-history-row')));

  for (const locale of ['en', 'it'] as const) {
    it(`lists the real rounds newest first, 4 at a time, and "Load more" shows the rest (${locale}; issue 5 game history, spec §9 page size 4)`, async () => {
      const { context, page } = await playerWithRounds(locale);
      const history = await apiCall<{ items: HistoryItem[]; total: number }>(page, 'GET', 'games.getHistory', {
        offset: '0',
        count: '100',
      });
      expect(history.data?.total).toBe(ROUNDS);
      const ids = history.data?.items.map((item) => item.id) ?? [];

      await page.goto(`${base}${inLocale('/profile/bets', locale)}`);
      await waitForHydration(page);
      expect(await page.locator('[data-profile-page="bets"] .page__title').textContent()).toBe(
        tr(locale, 'page.profile-index-bets.title'),
      );
      expect(await page.locator('[data-game-history] .card__title').textContent()).toBe(tr(locale, 'gameHistory.title'));
      expect(await shownRows(page)).toEqual(ids.slice(0, 4));
      await page.click('[data-game-history] [data-action="load-more"]');
      await expect.poll(() => shownRows(page), POLL).toEqual(ids);
      expect(await page.locator('[data-game-history] [data-action="load-more"]').count()).toBe(0);
      const firstNet = history.data?.items[0]?.net.amount;
      expect(await page.locator(`[data-history-row="${ids[0]}"] [data-net]`).getAttribute('data-net')).toBe(firstNet);
      await closeContext(context);
    });
  }

  for (const locale of ['en', 'it'] as const) {
    it(`shows a live-roulette bet on /profile/bets beside the in-house rounds (${locale}; issue 15: live bets missing from the history)`, async () => {
      const { context, page } = await playerWithRounds(locale);
      // A bet is taken only while the table's betting window is open: try until a round takes it.
      const requestId = `history-live-${Date.now()}`;
      let betId: string | undefined;
      await expect
        .poll(
          async () => {
            const answer = await apiCall<{ bet: { id: string } }>(page, 'POST', 'games.placeLiveBet', {
              sysname: 'live-roulette',
              mode: 'real',
              bet: JSON.stringify({ bets: [{ kind: 'red', stake: '1.00' }] }),
              request_id: requestId,
            });
            betId = answer.data?.bet.id;
            return betId !== undefined;
          },
          { timeout: 45_000, interval: 1_000 },
        )
        .toBe(true);

      const history = await apiCall<{ items: Array<HistoryItem & { kind: string; stake: Money }> }>(
        page,
        'GET',
        'games.getHistory',
        { offset: '0', count: '1' },
      );
      const newest = history.data?.items[0];
      expect(newest).toMatchObject({ id: `live-${betId}`, kind: 'live', stake: { amount: '1.00' } });

      await page.goto(`${base}${inLocale('/profile/bets', locale)}`);
      await waitForHydration(page);
      expect(await page.locator('[data-game-history]').getAttribute('data-history-total')).toBe(String(ROUNDS + 1));
      const row = page.locator(`[data-game-history] [data-history-row="live-${betId}"]`);
      // The newest entry is the live bet, with its stake in the page's language.
      expect((await shownRows(page))[0]).toBe(`live-${betId}`);
      expect(await row.getAttribute('data-sysname')).toBe('live-roulette');
      expect(await row.locator('[data-stake]').textContent()).toBe(
        tr(locale, 'gameHistory.stake', { amount: formatMoney(newest!.stake) }),
      );
      await closeContext(context);
    });
  }

  it('exports the history as a CSV the player downloads, one line per round (issue 5 history export)', async () => {
    const { context, page } = await playerWithRounds('en');
    await page.goto(`${base}/profile/bets`);
    await waitForHydration(page);
    await page.click('[data-action="export-history"]');
    await expect
      .poll(() => page.locator('[data-export-status]').getAttribute('data-export-status'), { timeout: 30_000 })
      .toBe('ready');
    const link = page.locator('[data-action="download-history"]');
    expect(await link.textContent()).toBe(trCount('en', 'gameHistory.export.download', ROUNDS));
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const path = await download.path();
    const lines = (await readFile(path, 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]?.split(',')[0]).toBe('round_id');
    const history = await apiCall<{ items: HistoryItem[] }>(page, 'GET', 'games.getHistory', { offset: '0', count: '100' });
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(history.data?.items.map((item) => item.id));
    await closeContext(context);
  });
});
