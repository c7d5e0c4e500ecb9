/**
 * Playing the in-house games from the game page (issue 5), in English and Italian: the game page
 * frames the game client (demo by default, real with #real); dice rolls and slot spins in demo
 * move the fun balance; the fairness panel rotates the seeds and verifies a round in the browser;
 * real play after a sandbox card deposit moves the main balance and the header follows.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { formatMoney } from '#common/money';
import { serverSeedHash } from '#common/games/fair';
import { closeContext, useBrowser, waitForHydration } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { depositBySandboxCalls } from './sandbox-deposit';
import { inLocale, tr, type Locale } from './site-facts';

const POLL = { timeout: 20_000 };
const LOCALES: Locale[] = ['en', 'it'];
const DICE = 'dice-roll';
const SLOTS = { 'aurora-fortune': 15, 'golden-reels': 15, 'cascade-gems': 30 } as const;

const amountOf = (text: string | null) => Number(text);

describe('playing the in-house games', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  const newPlayer = (locale: Locale): Promise<{ context: BrowserContext; page: Page }> =>
    signedUpPlayer(browser, locale, { addressPrefix: '10.78' });

  /** Opens /game/{sysname}{hash} and returns the game client's frame once it is hydrated. */
  async function openGame(page: Page, locale: Locale, sysname: string, hash = ''): Promise<Frame> {
    await page.goto(`${base}${inLocale(`/game/${sysname}`, locale)}${hash}`);
    await waitForHydration(page);
    const mode = hash === '#real' ? 'real' : 'demo';
    const frameElement = page.locator(`iframe[data-game-frame="${mode}"]`);
    await expect
      .poll(() => frameElement.getAttribute('src'), POLL)
      .toBe(inLocale(`/platform/game/${sysname}/${mode === 'real' ? 'play' : 'demo'}`, locale));
    const frame = await (await frameElement.elementHandle())!.contentFrame();
    await waitForHydration(frame!);
    await seedsShown(frame!);
    return frame!;
  }

  /** The first match's attribute, or null at once when nothing matches. */
  const attributeOf = (frame: Frame | Page, selector: string, name: string) =>
    frame.locator(selector).evaluateAll((nodes, attribute) => nodes[0]?.getAttribute(attribute) ?? null, name);

  /** The fairness panel has loaded the seed pair. */
  const seedsShown = (frame: Frame | Page) =>
    frame.waitForFunction(
      () => /^[0-9a-f]{64}$/.test(document.querySelector('[data-server-seed-hash]')?.textContent ?? ''),
      undefined,
      { timeout: 15_000 },
    );

  async function roll(frame: Frame, previousRound?: string | null): Promise<string> {
    await frame.click('[data-action="roll"]');
    await expect.poll(() => attributeOf(frame, '[data-dice] [data-round]', 'data-round'), POLL).not.toBe(previousRound ?? null);
    return (await attributeOf(frame, '[data-dice] [data-round]', 'data-round'))!;
  }

  for (const locale of LOCALES) {
    it(`rolls the dice in demo from the game page and the fun balance follows each round (${locale})`, async () => {
      const { context, page } = await newPlayer(locale);
      const frame = await openGame(page, locale, DICE);
      expect(await frame.locator('[data-mode-label]').textContent()).toBe(tr(locale, 'gamePlay.mode.demo'));
      const before = amountOf(await attributeOf(frame, '[data-game-balance]', 'data-game-balance'));
      await frame.fill('[data-dice] input[name="stake"]', '2.00');
      await frame.click('[data-direction="over"]');
      await frame.fill('[data-dice] input[name="target"]', '40');
      const round = await roll(frame);
      const rolled = await frame.locator('[data-roll]').textContent();
      expect(rolled).toMatch(new RegExp(tr(locale, 'gamePlay.dice.rolled', { roll: '\\d{1,2}\\.\\d{2}' })));
      const isWin = (await frame.locator('[data-dice] [data-result]').getAttribute('data-result')) === 'win';
      const rollValue = Number(/\d{1,2}\.\d{2}/.exec(rolled ?? '')?.[0]);
      expect(isWin).toBe(rollValue > 40);
      // A new player's fun balance is topped up to 1 000.00 before the first demo stake.
      const payout = isWin ? Math.floor((2 * 9900 * 100) / 5999) / 100 : 0;
      const after = amountOf(await frame.locator('[data-game-balance]').getAttribute('data-game-balance'));
      expect(after).toBeCloseTo(Math.max(before, 1000) - 2 + payout, 2);
      if (isWin)
        expect(await frame.locator('[data-dice] [data-result] strong').textContent()).toBe(
          tr(locale, 'gamePlay.win', { amount: formatMoney({ amount: payout.toFixed(2), currency: 'EUR' }) }),
        );
      else expect(await frame.locator('[data-dice] [data-result] strong').textContent()).toBe(tr(locale, 'gamePlay.loss'));
      // A second roll moves the balance again; the round list shows both.
      await roll(frame, round);
      await expect.poll(() => frame.locator('[data-round-row]').count(), POLL).toBe(2);
      // A wrong stake is a clear message, not a round.
      await frame.fill('[data-dice] input[name="stake"]', '0');
      await frame.click('[data-action="roll"]');
      await expect.poll(() => frame.locator('[data-game-error]').textContent(), POLL).toBe(tr(locale, 'gamePlay.error.stake'));
      await closeContext(context);
    });
  }

  it('spins each slot in demo: the reel window is drawn from the outcome', async () => {
    const { context, page } = await newPlayer('en');
    for (const [sysname, tiles] of Object.entries(SLOTS)) {
      await page.goto(`${base}/platform/game/${sysname}/demo`);
      await waitForHydration(page);
      // The reels show symbols before the first spin (issue 15).
      expect(await page.locator('[data-slot] .slot-tile').count()).toBe(tiles);
      await page.click('[data-action="spin"]');
      await expect.poll(() => page.locator('[data-slot] [data-round]').count(), POLL).toBe(1);
      expect(await page.locator('[data-reels] .slot-tile').count()).toBe(tiles);
      const payout = (await apiCall<{ payout: { amount: string } }[]>(page, 'GET', 'games.getRounds', { sysname })).data?.[0]
        ?.payout.amount;
      expect(await page.locator('[data-slot] [data-result]').getAttribute('data-result')).toBe(
        Number(payout) > 0 ? 'win' : 'loss',
      );
      expect(Number(await page.locator('[data-game-balance]').getAttribute('data-game-balance'))).toBeGreaterThan(0);
    }
    await closeContext(context);
  });

  it('rotates the seeds and verifies a round in the browser (it)', async () => {
    const { context, page } = await newPlayer('it');
    await page.goto(`${base}/it/platform/game/${DICE}/demo`);
    await waitForHydration(page);
    await seedsShown(page);
    await page.fill('input[name="client_seed"]', 'my-own-seed');
    await page.click('[data-action="set-client-seed"]');
    await expect
      .poll(
        () => apiCall<{ client_seed: string }>(page, 'GET', 'games.getSeeds').then((answer) => answer.data?.client_seed),
        POLL,
      )
      .toBe('my-own-seed');
    const hash = await page.locator('[data-server-seed-hash]').textContent();
    await page.click('[data-action="roll"]');
    await expect.poll(() => page.locator('[data-round-row]').count(), POLL).toBe(1);
    // Before the rotation the server seed is still secret.
    await page.click('[data-round-row] [data-action="verify"]');
    await expect.poll(() => page.locator('[data-verified]').textContent(), POLL).toBe(tr('it', 'gamePlay.fair.unrevealed'));
    await page.click('[data-action="rotate"]');
    await expect.poll(() => page.locator('[data-previous-seed]').count(), POLL).toBe(1);
    const revealed = (await page.locator('[data-previous-seed]').getAttribute('data-previous-seed'))!;
    expect(serverSeedHash(revealed)).toBe(hash);
    expect(await page.locator('[data-server-seed-hash]').textContent()).not.toBe(hash);
    await page.click('[data-round-row] [data-action="verify"]');
    await expect.poll(() => page.locator('[data-verified]').getAttribute('data-verified'), POLL).toBe('match');
    expect(await page.locator('[data-verified]').textContent()).toBe(tr('it', 'gamePlay.fair.match'));
    // Game recall: the round as it was played, from the server's record of it.
    const [played] =
      (
        await apiCall<Array<{ id: string; bet: { direction: string; target: string }; outcome: { rollHundredths: number } }>>(
          page,
          'GET',
          'games.getRounds',
          { sysname: DICE },
        )
      ).data ?? [];
    await page.click(`[data-round-row="${played?.id}"] [data-action="recall"]`);
    const direction = tr('it', `gamePlay.dice.${played?.bet.direction}`);
    expect(await page.locator(`[data-recall="${played?.id}"]`).textContent()).toBe(
      tr('it', 'gamePlay.recall.dice', {
        roll: ((played?.outcome.rollHundredths ?? 0) / 100).toFixed(2),
        direction,
        target: played?.bet.target ?? '',
      }),
    );
    await closeContext(context);
  });

  it('plays dice for real money after a sandbox card deposit, and the header balance follows (#real)', async () => {
    const { context, page } = await newPlayer('en');
    // canAccessSlotWithZeroBalance is false (spec §3 gamesItem): on an empty balance the page
    // offers a deposit instead of the real game, and its button leads to the cashier.
    await page.goto(`${base}/game/${DICE}#real`);
    await waitForHydration(page);
    await page.locator('[data-deposit-first]').waitFor();
    expect(await page.locator('iframe[data-game-frame]').count()).toBe(0);
    await page.click('[data-deposit-first] [data-action="deposit"]');
    await page.waitForURL(/\/cashier\/deposit/);
    // A deposit of 50.00 through the cashier and the sandbox's card page.
    await depositBySandboxCalls(page, base, '50');

    const frame = await openGame(page, 'en', DICE, '#real');
    expect(await frame.locator('[data-mode-label]').textContent()).toBe(tr('en', 'gamePlay.mode.real'));
    expect(amountOf(await frame.locator('[data-game-balance]').getAttribute('data-game-balance'))).toBe(50);
    await frame.fill('[data-dice] input[name="stake"]', '1.00');
    await roll(frame);
    const isWin = (await frame.locator('[data-dice] [data-result]').getAttribute('data-result')) === 'win';
    const expected = isWin ? 50 - 1 + Math.floor((1 * 9900 * 100) / 5000) / 100 : 49;
    expect(amountOf(await frame.locator('[data-game-balance]').getAttribute('data-game-balance'))).toBeCloseTo(expected, 2);
    await expect
      .poll(() => page.locator('[data-balance]').first().textContent(), POLL)
      .toBe(formatMoney({ amount: expected.toFixed(2), currency: 'EUR' }));
    const rounds = await apiCall<{ mode: string }[]>(page, 'GET', 'games.getRounds', { sysname: DICE });
    expect(rounds.data?.[0]?.mode).toBe('real');
    // Responsible gaming (accounts issue): elapsed session time and net position while playing.
    const net = (expected - 50).toFixed(2);
    await expect.poll(() => page.locator('[data-session-net]').getAttribute('data-session-net'), POLL).toBe(net);
    expect(await page.locator('[data-session-net]').textContent()).toBe(formatMoney({ amount: net, currency: 'EUR' }));
    expect(await page.locator('[data-session-elapsed]').textContent()).toMatch(/^\d+:\d{2}:\d{2}$/);
    // The page's button switches the frame back to demo after the demo-mode dialog (spec §2
    // dialogs): staying keeps real play, continuing switches; then to real again.
    await page.click('[data-action="play-demo"]');
    await page.click('[data-demo-mode-dialog] [data-action="stay-real"]');
    expect(await page.locator('iframe[data-game-frame="real"]').count()).toBe(1);
    await page.click('[data-action="play-demo"]');
    await page.click('[data-demo-mode-dialog] [data-action="continue-demo"]');
    await expect.poll(() => page.locator('iframe[data-game-frame="demo"]').count(), POLL).toBe(1);
    await page.click('[data-action="play-real"]');
    await expect.poll(() => page.locator('iframe[data-game-frame="real"]').count(), POLL).toBe(1);
    await closeContext(context);
  });

  for (const locale of LOCALES) {
    it(`the game page's favourite icon and full-screen button follow the games config (${locale}; spec §3 gamesItem, §4 game favourite)`, async () => {
      const { context, page } = await newPlayer(locale);
      await openGame(page, locale, DICE);
      const like = page.locator('[data-action="favorite"]');
      await expect.poll(() => like.getAttribute('aria-pressed'), POLL).toBe('false');
      expect(await like.getAttribute('aria-label')).toBe(tr(locale, 'game.favorite.add'));
      await like.click();
      await expect.poll(() => like.getAttribute('aria-pressed'), POLL).toBe('true');
      expect((await apiCall<{ sysnames: string[] }>(page, 'GET', 'games.getLikes')).data?.sysnames).toContain(DICE);
      // The list is fetched again on the next visit.
      await openGame(page, locale, DICE);
      await expect.poll(() => page.locator('[data-action="favorite"]').getAttribute('aria-pressed'), POLL).toBe('true');
      await page.locator('[data-action="favorite"]').click();
      await expect.poll(() => page.locator('[data-action="favorite"]').getAttribute('aria-pressed'), POLL).toBe('false');
      expect((await apiCall<{ sysnames: string[] }>(page, 'GET', 'games.getLikes')).data?.sysnames).not.toContain(DICE);
      // visibleFullScreen is "all" in the demo config: the button is there on the site.
      const fullScreen = page.locator('[data-action="full-screen"]');
      expect(await fullScreen.getAttribute('aria-label')).toBe(tr(locale, 'game.fullScreen.enter'));
      await fullScreen.click();
      await expect.poll(() => page.evaluate(() => document.fullscreenElement?.className ?? null), POLL).toBe('game-page');
      await expect.poll(() => fullScreen.getAttribute('aria-label'), POLL).toBe(tr(locale, 'game.fullScreen.exit'));
      await fullScreen.click();
      await expect.poll(() => page.evaluate(() => document.fullscreenElement), POLL).toBeNull();
      await closeContext(context);
    });
  }

  // #real for an anonymous visitor (the registration popup, home on close) is e2e/dialogs.test.ts's.
  it('an anonymous visitor plays the demo in the frame', async () => {
    const { context, page } = await browser.newPage({ serviceWorkers: 'block' });
    const frame = await openGame(page, 'en', DICE);
    await frame.click('[data-action="roll"]');
    await expect.poll(() => frame.locator('[data-dice] [data-result]').count(), POLL).toBe(1);
    expect(await frame.locator('[data-game-balance]').count()).toBe(0);
    // An unknown game shows the slot error page (an aggregator's title is launched there: e2e/aggregator-games.test.ts).
    await page.goto(`${base}/it/platform/game/no-such-game/demo`);
    await waitForHydration(page);
    expect(await page.locator('[data-system-page="slotError"] .system-page__header').textContent()).toBe(
      tr('it', 'system.slotError.header'),
    );
    // An aggregator's title: the frame's address is the aggregator's game client (issue 15).
    await page.goto(`${base}/it/platform/game/fox-fortune/demo`);
    await page.waitForSelector('[data-action="play"]');
    expect(new URL(page.url()).pathname).toMatch(/^\/play\//);
    expect(await page.locator('.game__title h1').textContent()).toBe('Fortuna della Volpe');
    await closeContext(context);
  });
});
