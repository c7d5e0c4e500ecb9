/**
 * Idle logout on a game page (spec §4; issue 15), on the Sprint site (forced logout after 20 s
 * without activity, the warning at 16 s), in English and Italian. One idle timer per tab: the
 * game frame runs none of its own and reports the player's activity to the page, so continuous
 * play in the frame never brings the page's "Are you still there?" overlay, activity on the page
 * never signs the player out inside the frame, and the one sign-out ends page and game together
 * and says why on the page the player lands on. The page's clock is stopped and moved on by hand.
 */
import { describe, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { browserLocale, closeContext, useBrowser, waitForHydration } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { depositBySandboxCalls } from './sandbox-deposit';
import { inLocale, tr, type Locale } from './site-facts';

const LOCALES: Locale[] = ['en', 'it'];
const DICE = 'dice-roll';

let signUps = 0;

/** A new player of the page's host, signed up from inside the page so the cookie is that host's. */
async function signUp(page: Page): Promise<void> {
  const sequence = signUps++;
  const answer = await apiCall<{ uid: number }>(
    page,
    'POST',
    'auth.register',
    { login: `idle${Date.now()}${sequence}@example.com`, password: 'secret12', terms: '1' },
    { 'x-forwarded-for': `10.103.0.${sequence + 1}` },
  );
  expect(answer.error).toBeUndefined();
}

async function demoFrame(page: Page): Promise<Frame> {
  const element = page.locator('iframe[data-game-frame="demo"]');
  await element.waitFor();
  const frame = (await (await element.elementHandle())!.contentFrame())!;
  await waitForHydration(frame);
  return frame;
}

describe('one idle timer for the game page and its frame (issue 15)', () => {
  const browser = useBrowser();
  const origin = browser.baseUrl.replace('127.0.0.1', 'sprint.localhost');

  it.each(LOCALES)(
    'play in the frame keeps the player signed in, page activity never signs the frame out, the sign-out ends both with a toast (%s)',
    async (locale) => {
      const { context, page } = await browser.newPage({
        serviceWorkers: 'block',
        locale: browserLocale(locale),
        stepTimeoutMs: 20_000,
      });
      await page.clock.install();
      await page.goto(`${origin}${inLocale('/forms/sign_up', locale)}`);
      await signUp(page);
      await page.goto(`${origin}${inLocale(`/game/${DICE}`, locale)}`);
      await waitForHydration(page);
      const frame = await demoFrame(page);
      await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
      const warning = page.locator('[data-dialog="idleWarning"]');
      const isSessionAlive = async () => (await apiCall(page, 'GET', 'account.getBalance')).error === undefined;

      // Continuous play in the frame for twice the idle time: a click in the game every 10 s.
      await page.locator('.game-page__title').click();
      for (let step = 0; step < 4; step++) {
        await page.clock.runFor(10_000);
        await frame.locator('.game-client__title').click();
      }
      expect(await warning.count()).toBe(0);
      expect(await isSessionAlive()).toBe(true);

      // Then activity on the page only, for longer than the idle time: the game stays signed in too.
      for (let step = 0; step < 3; step++) {
        await page.clock.runFor(10_000);
        await page.locator('.game-page__title').click();
      }
      expect(await warning.count()).toBe(0);
      expect(await isSessionAlive()).toBe(true);
      expect(await frame.locator('[data-game-client]').count()).toBe(1);
      // The frame is the game only: never a second copy of the site.
      expect(await frame.locator('.site-header, [data-layout="default"]').count()).toBe(0);

      // No activity anywhere: the page warns at 80 % and signs out at 100 %, page and game at once.
      await page.clock.runFor(16_000);
      await warning.waitFor({ state: 'visible' });
      await page.clock.runFor(4_000);
      await page.clock.resume();
      await page.waitForURL(`${origin}${inLocale('/', locale)}`, { timeout: 15_000 });
      expect(await isSessionAlive()).toBe(false);
      // The page the player lands on says why.
      await expect
        .poll(() => page.locator('.toast > span').allTextContents(), { timeout: 10_000 })
        .toContain(tr(locale, 'idle.signedOut'));
      await closeContext(context);
    },
  );

  it.each(LOCALES)(
    'a session ended elsewhere: the game’s next call signs the page out too, and the frame never shows the site (%s)',
    async (locale) => {
      const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: '10.108' });
      await depositBySandboxCalls(page, browser.baseUrl, '20');
      await page.goto(`${browser.baseUrl}${inLocale(`/game/${DICE}`, locale)}#real`);
      await waitForHydration(page);
      const element = page.locator('iframe[data-game-frame="real"]');
      await element.waitFor();
      const frame = (await (await element.elementHandle())!.contentFrame())!;
      await waitForHydration(frame);
      // Signed out from another tab of the same browser: the cookie is gone, the page does not know yet.
      expect((await apiCall(page, 'POST', 'auth.logout')).error).toBeUndefined();
      expect(await page.locator('[data-account-login]').count()).toBeGreaterThan(0);
      await frame.locator('[data-action="roll"]').click();
      await page.waitForURL(`${browser.baseUrl}${inLocale('/', locale)}`, { timeout: 15_000 });
      await waitForHydration(page);
      expect(await page.locator('[data-account-login]').count()).toBe(0);
      expect(await page.locator('iframe').count()).toBe(0);
      await closeContext(context);
    },
  );
});
