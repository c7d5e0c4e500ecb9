/**
 * Issue 15 on the game page, in English and Italian: every name translated (the page title and
 * the frame's heading from the game's own name in the language, reel symbols by their names),
 * balances labelled (which is the total, which is real money, which is bonus), and a real-money
 * page that loads only the real-money client (it loaded the demo client first and aborted it).
 */
import { describe, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { formatMoney } from '#common/money';
import { closeContext, useBrowser, waitForHydration } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { depositBySandboxCalls } from './sandbox-deposit';
import { contentEntry, inLocale, tr, type Locale } from './site-facts';

const POLL = { timeout: 20_000 };
const LOCALES: Locale[] = ['en', 'it'];
const ROULETTE = 'european-roulette';
const SLOT = 'aurora-fortune';
const DICE = 'dice-roll';

/** The game's name as the content gives it in a language. */
const gameName = (locale: Locale, sysname: string) => contentEntry<{ name: string }>(locale, 'games', sysname)?.name ?? '';

async function gameFrame(page: Page, mode: 'real' | 'demo'): Promise<Frame> {
  const element = page.locator(`iframe[data-game-frame="${mode}"]`);
  await element.waitFor({ timeout: POLL.timeout });
  const frame = (await (await element.elementHandle())!.contentFrame())!;
  await waitForHydration(frame);
  return frame;
}

describe('the game page names, labels and loads as the player reads it (issue 15)', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  it.each(LOCALES)('titles the page and the game with the game name in the language (%s)', async (locale) => {
    const { context, page } = await browser.newPage({ serviceWorkers: 'block' });
    const name = gameName(locale, ROULETTE);
    expect(name).not.toBe('');
    await page.goto(`${base}${inLocale(`/game/${ROULETTE}`, locale)}`);
    await waitForHydration(page);
    const title = tr(locale, 'page.game-sysname.title', { game: name });
    expect(await page.title()).toContain(title);
    expect(await page.locator('.game-page__title').textContent()).toBe(title);
    const frame = await gameFrame(page, 'demo');
    expect(await frame.locator('.game-client__title').textContent()).toBe(name);
    expect(await frame.title()).toContain(title);
    await closeContext(context);
  });

  it.each(LOCALES)(
    'the server sends the spin button disabled, and it takes presses once the slot has hydrated: none is lost (%s)',
    async (locale) => {
      const path = inLocale(`/platform/game/${SLOT}/demo`, locale);
      const html = await (await fetch(`${base}${path}`)).text();
      const served = html.match(/<button[^>]*data-action="spin"[^>]*>/)?.[0];
      expect(served).toBeDefined();
      expect(served).toMatch(/\sdisabled=""/);
      const { context, page } = await browser.newPage({ serviceWorkers: 'block' });
      await page.goto(`${base}${path}`);
      await expect.poll(() => page.locator('[data-action="spin"]').isEnabled(), POLL).toBe(true);
      await closeContext(context);
    },
  );

  it.each(LOCALES)('names the reel symbols of a slot round in the language (%s)', async (locale) => {
    const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: '10.101' });
    await page.goto(`${base}${inLocale(`/platform/game/${SLOT}/demo`, locale)}`);
    await waitForHydration(page);
    await page.click('[data-action="spin"]');
    await expect.poll(() => page.locator('[data-round-row]').count(), POLL).toBeGreaterThan(0);
    const [round] =
      (
        await apiCall<Array<{ id: string; outcome: { spins: { window: string[][] }[] } }>>(page, 'GET', 'games.getRounds', {
          sysname: SLOT,
        })
      ).data ?? [];
    await page.click(`[data-round-row="${round?.id}"] [data-action="recall"]`);
    const cells = page.locator(`[data-recall="${round?.id}"] [data-recall-grid] td`);
    await expect.poll(() => cells.count(), POLL).toBe(15);
    const window = round!.outcome.spins[0]!.window;
    // The grid shows the reels as rows: row r holds the r-th symbol of every reel.
    const expected = [0, 1, 2].flatMap((row) => window.map((reel) => tr(locale, `gamePlay.symbol.${reel[row]}`)));
    expect(await cells.allTextContents()).toEqual(expected);
    await closeContext(context);
  });

  it.each(LOCALES)(
    'real money: only the real client loads, and every balance on the page says what it is (%s)',
    async (locale) => {
      const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: '10.102' });
      await depositBySandboxCalls(page, base, '40');
      const clients: string[] = [];
      page.on('request', (request) => {
        if (request.isNavigationRequest() && /\/platform\/game\//.test(request.url()))
          clients.push(new URL(request.url()).pathname);
      });
      await page.goto(`${base}${inLocale(`/game/${DICE}`, locale)}#real`);
      await waitForHydration(page);
      const frame = await gameFrame(page, 'real');
      expect(clients).toEqual([inLocale(`/platform/game/${DICE}/play`, locale)]);

      const forty = formatMoney({ amount: '40.00', currency: 'EUR' });
      // The header's figure is the total, and says so.
      const header = page.locator('[data-balance-link]').first();
      expect(await header.locator('.balance__label').textContent()).toBe(tr(locale, 'header.balance.total'));
      expect(await header.locator('[data-balance]').textContent()).toBe(forty);
      // Above the game: the total, the real money and the bonus, each under its name.
      const row = (key: string) => page.locator(`[data-play-session] [data-balance-row="${key}"]`);
      await expect.poll(() => row('total').locator('dd').textContent(), POLL).toBe(forty);
      expect(await row('total').locator('dt').textContent()).toBe(tr(locale, 'cashier.balance.total'));
      expect(await row('main').locator('dt').textContent()).toBe(tr(locale, 'gamePlay.balance.real'));
      expect(await row('main').locator('dd').textContent()).toBe(forty);
      expect(await row('bonus').locator('dt').textContent()).toBe(tr(locale, 'gamePlay.balance.bonus'));
      // In the game: the real money it stakes, named as such.
      expect(await frame.locator('[data-game-balance]').textContent()).toBe(`${tr(locale, 'gamePlay.balance.real')}: ${forty}`);
      await closeContext(context);
    },
  );
});
