/**
 * The live tables in the browser (issue 5; docs/live-games.md), in English and Italian: two
 * pages watching one live roulette table see the same rounds and results from the events
 * stream; a player bets at crash and cashes out while the multiplier climbs; a player with a real
 * balance bets at live roulette, sees the wheel's result and the balance follow, and verifies a
 * past round in the browser.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { formatMoney, minorToAmount } from '#common/money';
import { browserLocale, closeContext, useBrowser, waitForHydration } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { depositBySandboxCalls } from './sandbox-deposit';
import { inLocale, tr, type Locale } from './site-facts';

const CRASH = 'crash-rocket';
const ROULETTE = 'live-roulette';
/** A whole round (betting 6 s, spin 2 s or a climb, result 3 s: e2e/global-setup.ts) with room to spare. */
const ROUND = { timeout: 45_000, interval: 100 };
/**
 * A crash round runs until its crash point: 10× after 38 s, 100× after 77 s, 1000× (one round in
 * a thousand) after 115 s. A test that arrives during such a climb waits it out.
 */
const CRASH_ROUND = { timeout: 150_000, interval: 100 };

const attributeOf = (frame: Frame | Page, selector: string, name: string) =>
  frame.locator(selector).evaluateAll((nodes, attribute) => nodes[0]?.getAttribute(attribute) ?? null, name);

describe('live tables', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  const newContext = (locale: Locale) =>
    browser.newContext({ locale: browserLocale(locale), serviceWorkers: 'block', stepTimeoutMs: 20_000 });

  const newPlayer = (locale: Locale): Promise<{ context: BrowserContext; page: Page }> =>
    signedUpPlayer(browser, locale, { addressPrefix: '10.79' });

  /** Opens /game/{sysname}{hash} and returns the game client's frame once hydrated. */
  async function openGame(page: Page, locale: Locale, sysname: string, hash = ''): Promise<Frame> {
    await page.goto(`${base}${inLocale(`/game/${sysname}`, locale)}${hash}`);
    await waitForHydration(page);
    const mode = hash === '#real' ? 'real' : 'demo';
    const frameElement = page.locator(`iframe[data-game-frame="${mode}"]`);
    await expect
      .poll(() => frameElement.getAttribute('src'), { timeout: 20_000 })
      .toBe(inLocale(`/platform/game/${sysname}/${mode === 'real' ? 'play' : 'demo'}`, locale));
    const frame = (await (await frameElement.elementHandle())!.contentFrame())!;
    await waitForHydration(frame);
    return frame;
  }

  const phaseOf = (frame: Frame | Page) => attributeOf(frame, '[data-live-phase]', 'data-live-phase');
  const roundOf = (frame: Frame | Page) => attributeOf(frame, '[data-live-phase]', 'data-live-round');

  /** Waits for a betting window with at least `seconds` left (a fresh round when needed). */
  async function bettingWindow(frame: Frame | Page, seconds = 4, wait = ROUND): Promise<string> {
    await expect
      .poll(
        async () =>
          (await phaseOf(frame)) === 'betting' &&
          Number(await attributeOf(frame, '[data-countdown]', 'data-countdown')) >= seconds,
        wait,
      )
      .toBe(true);
    return (await roundOf(frame))!;
  }

  it('shows two watchers of the live roulette table the same rounds and the same result, in English and Italian (issue 5 results broadcast)', async () => {
    const english = await newContext('en');
    const italian = await newContext('it');
    try {
      const pageEn = await english.newPage();
      const pageIt = await italian.newPage();
      await pageEn.goto(`${base}${inLocale(`/platform/game/${ROULETTE}/play`, 'en')}`);
      await pageIt.goto(`${base}${inLocale(`/platform/game/${ROULETTE}/play`, 'it')}`);
      await Promise.all([waitForHydration(pageEn), waitForHydration(pageIt)]);
      // Both join the table's current round; its status line is in each page's language. A betting
      // window with time left, so both pages are read before it closes on a loaded machine.
      const round = await bettingWindow(pageEn, 5);
      await expect.poll(() => roundOf(pageIt), ROUND).toBe(round);
      expect(await pageEn.locator('[data-live-status]').textContent()).toMatch(
        new RegExp(tr('en', 'gamePlay.live.bettingCloses', { seconds: '\\d+' })),
      );
      expect(await pageIt.locator('[data-live-status]').textContent()).toMatch(
        new RegExp(tr('it', 'gamePlay.live.bettingCloses', { seconds: '\\d+' })),
      );
      // The wheel spins and the result comes to both pages.
      await expect.poll(async () => (await roundOf(pageEn)) === round && (await phaseOf(pageEn)) === 'result', ROUND).toBe(true);
      await expect.poll(async () => (await roundOf(pageIt)) === round && (await phaseOf(pageIt)) === 'result', ROUND).toBe(true);
      const pocketEn = await attributeOf(pageEn, '[data-live-result]', 'data-live-result');
      expect(pocketEn).toMatch(/^\d{1,2}$/);
      expect(await attributeOf(pageIt, '[data-live-result]', 'data-live-result')).toBe(pocketEn);
      await expect.poll(() => attributeOf(pageIt, '[data-history] li', 'data-history-round'), ROUND).toBe(round);
      expect(await attributeOf(pageEn, '[data-history] li', 'data-history-round')).toBe(round);
    } finally {
      await closeContext(english);
      await closeContext(italian);
    }
  }, 120_000);

  for (const locale of ['en', 'it'] as const) {
    it(`bets at crash and cashes out while the multiplier climbs; the fun balance follows (${locale}; issue 5 crash)`, async () => {
      const { context, page } = await newPlayer(locale);
      try {
        const frame = await openGame(page, locale, CRASH);
        expect(await frame.locator('[data-action="place-bet"]').textContent()).toBe(tr(locale, 'gamePlay.crash.bet'));
        // A round that crashes before the click is lost like at the table: play the next one.
        for (let attempt = 1; ; attempt++) {
          const round = await bettingWindow(frame, 4, CRASH_ROUND);
          await frame.fill('[data-crash] input[name="stake"]', '1.00');
          await frame.click('[data-action="place-bet"]');
          await expect.poll(() => attributeOf(frame, '[data-my-bet]', 'data-my-bet'), ROUND).toBe('open');
          const afterBet = Number(await attributeOf(frame, '[data-game-balance]', 'data-game-balance'));
          await expect
            .poll(async () => (await roundOf(frame)) !== round || (await phaseOf(frame)) !== 'betting', ROUND)
            .toBe(true);
          // Cash out while the multiplier climbs; a click that met a re-rendered button is tried
          // again, so the bet never waits for a late crash (a high crash point runs for minutes).
          const cashOut = frame.locator('[data-action="cash-out"]');
          // The settled status as the poll saw it: read again later, the next round may have cleared it.
          let status: string | null = 'open';
          await expect
            .poll(async () => {
              status = await attributeOf(frame, '[data-my-bet]', 'data-my-bet');
              if (status === 'open' && (await phaseOf(frame)) === 'running')
                await cashOut.click({ timeout: 1_000 }).catch(() => undefined);
              return status;
            }, CRASH_ROUND)
            .not.toBe('open');
          const bets = await apiCall<
            Array<{ status: string; payout: { amount: string; currency: string }; cash_out: string | null }>
          >(page, 'GET', 'games.getLiveBets', { sysname: CRASH, count: '1' });
          const mine = bets.data?.[0];
          expect(mine?.status).toBe(status);
          if (status === 'won') {
            expect(mine?.cash_out).toMatch(/^\d+\.\d{2}$/);
            // The stake is 1.00, so the payout is the cash-out multiplier in cents (as integers: 100 * 1.16 is 115.99… in floats).
            expect(mine?.payout.amount).toBe(minorToAmount(BigInt(mine!.cash_out!.replace('.', ''))));
            await expect
              .poll(async () => Number(await attributeOf(frame, '[data-game-balance]', 'data-game-balance')), ROUND)
              .toBeCloseTo(afterBet + Number(mine?.payout.amount), 2);
            expect(await frame.locator('[data-my-bet]').textContent()).toBe(
              tr(locale, 'gamePlay.crash.cashedOut', { multiplier: `${mine?.cash_out}×`, amount: formatMoney(mine!.payout) }),
            );
            break;
          }
          expect(Number(await attributeOf(frame, '[data-game-balance]', 'data-game-balance'))).toBeCloseTo(afterBet, 2);
          if (attempt >= 5) throw new Error('five crash rounds in a row crashed before the cash-out click');
        }
      } finally {
        await closeContext(context);
      }
    }, 300_000);
  }

  it('bets real money at live roulette, sees the result, the balance follow and a past round verified (en; issue 5 live roulette)', async () => {
    const { context, page } = await newPlayer('en');
    try {
      await depositBySandboxCalls(page, base, '50');

      const frame = await openGame(page, 'en', ROULETTE, '#real');
      await expect.poll(() => attributeOf(frame, '[data-game-balance]', 'data-game-balance'), ROUND).toBe('50.00');
      const round = await bettingWindow(frame, 5);
      await frame.click('[data-chip="1.00"]');
      await frame.click('[data-bet-kind="red"]');
      await frame.click('[data-bet-number="17"]');
      await frame.click('[data-action="place-bet"]');
      await expect.poll(() => attributeOf(frame, '[data-my-bet]', 'data-my-bet'), ROUND).toBe('open');
      expect(await attributeOf(frame, '[data-game-balance]', 'data-game-balance')).toBe('48.00');
      await expect.poll(async () => (await roundOf(frame)) === round && (await phaseOf(frame)) === 'result', ROUND).toBe(true);
      const pocket = Number(await attributeOf(frame, '[data-live-result]', 'data-live-result'));
      const isRed = [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36].includes(pocket);
      const won = (isRed ? 2 : 0) + (pocket === 17 ? 36 : 0);
      await expect.poll(() => attributeOf(frame, '[data-my-bet]', 'data-my-bet'), ROUND).toBe(won > 0 ? 'won' : 'lost');
      await expect.poll(() => attributeOf(frame, '[data-game-balance]', 'data-game-balance'), ROUND).toBe((48 + won).toFixed(2));
      // The finished round's seed is revealed and the browser recomputes its pocket.
      const past = frame.locator(`[data-live-past-round="${round}"]`);
      await past.locator('[data-action="verify-live"]').click();
      expect(await past.locator('[data-live-verified]').getAttribute('data-live-verified')).toBe('match');
      expect(await past.textContent()).toContain(tr('en', 'gamePlay.fair.match'));
    } finally {
      await closeContext(context);
    }
  }, 180_000);
});
