/**
 * Social sign-in through the 640×480 pop-up with the built-in development identity provider,
 * the registration-completion popup, and the messenger mini-app entry (accounts issue), as a
 * person meets them in the browser.
 */
import { createHmac } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { useBrowser, waitForHydration } from './browser';
import { SITE, tr, type Locale } from './site-facts';
import { totpCode } from '../server/modules/auth';
import { demoSecret } from '../server/modules/sites';

const POLL = { timeout: 10_000 };
/** The default demo site's published bot token (server/modules/sites/demo-trust.ts). */
const botToken = demoSecret(SITE.id, 'MESSENGER_BOT_TOKEN') ?? '';

/** Init data signed with the messenger's published algorithm (HMAC of "WebAppData" and the bot token). */
function signedInitData(fields: Record<string, string>, token = botToken): string {
  const checkString = Object.entries(fields)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(token).digest();
  const hash = createHmac('sha256', secret).update(checkString).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}

const signedInLogin = (page: Page) => page.locator('[data-account-login]').first().getAttribute('data-account-login');

describe('social and messenger sign-in in the browser', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
  });

  async function freshPage(): Promise<Page> {
    const context = await browser.newContext({ serviceWorkers: 'block', stepTimeoutMs: 20_000 });
    contexts.push(context);
    return context.newPage();
  }

  for (const locale of ['en', 'it'] as Locale[]) {
    it(`signs up through the provider pop-up, then completes the registration (${locale}, spec §1, §2)`, async () => {
      const page = await freshPage();
      await page.goto(`${base}${locale === 'en' ? '' : '/it'}/forms/sign_up`);
      await waitForHydration(page);
      const popupOpened = page.context().waitForEvent('page');
      await page.locator('[data-social-buttons] button').first().click();
      const popup = await popupOpened;
      await popup.waitForLoadState();
      expect(new URL(popup.url()).pathname).toBe('/oauth/dev/authorize');
      expect(popup.viewportSize()).toEqual({ width: 640, height: 480 });
      const email = `social${Date.now()}${locale}@example.com`;
      await popup.fill('input[name="email"]', email);
      await popup.fill('input[name="name"]', 'Ada Lovelace');
      const popupClosed = popup.waitForEvent('close');
      await popup.click('button[value="allow"]');
      await popupClosed;

      const completion = page.locator('[data-social-registration]');
      await completion.waitFor();
      await completion.locator('[data-field="terms"] input').check();
      await completion.locator('button[type="submit"]').click();
      await expect.poll(() => completion.count(), POLL).toBe(0);
      await expect.poll(() => signedInLogin(page), POLL).toBe(email);
    });
  }

  /** Signs in (or up) through the provider pop-up as `email`; resolves when the pop-up has closed. */
  async function throughPopup(page: Page, email: string): Promise<void> {
    const popupOpened = page.context().waitForEvent('page');
    await page.locator('[data-social-buttons] button').first().click();
    const popup = await popupOpened;
    await popup.waitForLoadState();
    await popup.fill('input[name="email"]', email);
    await popup.fill('input[name="name"]', 'Grace Hopper');
    const popupClosed = popup.waitForEvent('close');
    await popup.click('button[value="allow"]');
    await popupClosed;
  }

  it('a player with two-factor on is asked for the code after the provider pop-up too (it, issue 3: sign-in with two-factor)', async () => {
    const page = await freshPage();
    const email = `social2fa${Date.now()}@example.com`;
    await page.goto(`${base}/it/forms/sign_up`);
    await waitForHydration(page);
    await throughPopup(page, email);
    const completion = page.locator('[data-social-registration]');
    await completion.locator('[data-field="terms"] input').check();
    await completion.locator('button[type="submit"]').click();
    // The header shows the login from the pop-up on, before the completion is saved: leaving the
    // page while it is being saved met the completion dialog again on the next page.
    await expect.poll(() => completion.count(), POLL).toBe(0);
    await expect.poll(() => signedInLogin(page), POLL).toBe(email);

    await page.goto(`${base}/it/profile/security`);
    await waitForHydration(page);
    await page.locator('[data-form="two-factor"] button').click();
    const secret = (await page.locator('[data-secret]').textContent()) ?? '';
    await page.locator('[data-form="two-factor"] input[name="code"]').fill(totpCode(secret, Date.now()));
    await page.locator('[data-form="two-factor"] button[type="submit"]').click();
    await expect.poll(() => page.locator('[data-form="two-factor"]').getAttribute('data-enabled'), POLL).toBe('true');

    await page.context().clearCookies();
    await page.goto(`${base}/it/forms/sign_in`);
    await waitForHydration(page);
    await throughPopup(page, email);
    const codeStep = page.locator('[data-dialog="auth"] [data-step="two-factor"]');
    await expect.poll(() => codeStep.locator('.auth-form__title').textContent(), POLL).toBe(tr('it', 'auth.twoFactor.title'));
    expect(await page.locator('[data-account-login]').count()).toBe(0);
    await codeStep.locator('input[name="code"]').fill('000000');
    await codeStep.locator('button[type="submit"]').click();
    await expect
      .poll(() => codeStep.locator('[data-field="code"] .field__error').textContent(), POLL)
      .toBe(tr('it', 'auth.twoFactor.invalid'));
    // The set-up used the current step; the next one is a code not used yet.
    await codeStep.locator('input[name="code"]').fill(totpCode(secret, Date.now() + 30_000));
    await codeStep.locator('button[type="submit"]').click();
    await expect.poll(() => signedInLogin(page), { timeout: 15_000 }).toBe(email);
  });

  it('a denied request in the pop-up signs nobody in and explains why', async () => {
    const page = await freshPage();
    await page.goto(`${base}/forms/sign_in`);
    await waitForHydration(page);
    const popupOpened = page.context().waitForEvent('page');
    await page.locator('[data-social-buttons] button').first().click();
    const popup = await popupOpened;
    await popup.waitForLoadState();
    await popup.click('button[value="deny"]');
    await popup.locator('[data-social-result="error"]').waitFor();
    expect(await page.locator('[data-account-login]').count()).toBe(0);
  });

  it('the messenger mini-app entry registers and signs in the visitor, and again the same player (spec §4)', async () => {
    const telegramId = String(Date.now()).slice(-9);
    const initData = () =>
      signedInitData({
        auth_date: String(Math.floor(Date.now() / 1000)),
        user: JSON.stringify({ id: Number(telegramId), username: 'ada_tg', language_code: 'it' }),
      });
    const page = await freshPage();
    await page.goto(`${base}/#tgWebAppData=${encodeURIComponent(initData())}`);
    await expect.poll(() => page.locator('[data-account-login]').count(), POLL).toBe(1);
    const first = await signedInLogin(page);
    const again = await freshPage();
    await again.goto(`${base}/#tgWebAppData=${encodeURIComponent(initData())}`);
    await expect.poll(() => signedInLogin(again), POLL).toBe(first);
  });

  for (const locale of ['en', 'it'] as Locale[]) {
    it(`a forged messenger entry shows the wrong-registration toast and stays anonymous (${locale}, spec §8)`, async () => {
      const forged = signedInitData(
        { auth_date: String(Math.floor(Date.now() / 1000)), user: JSON.stringify({ id: 42 }) },
        '000:wrong-token',
      );
      const page = await freshPage();
      await page.goto(`${base}${locale === 'en' ? '' : '/it'}#tgWebAppData=${encodeURIComponent(forged)}`);
      await expect
        .poll(() => page.locator('.toast').first().textContent(), POLL)
        .toContain(tr(locale, 'messenger.wrongRegistration'));
      expect(await page.locator('[data-account-login]').count()).toBe(0);
    });
  }
});
