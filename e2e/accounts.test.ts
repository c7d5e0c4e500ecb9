/**
 * Player accounts as a person uses them (accounts issue): sign-up, sign-in with and without the
 * two-factor step, sign-out, password restore through the e-mailed link, contact confirmation
 * through the outbox, identity verification in the sandbox, idle logout and self-exclusion, in
 * English and Italian.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { closeContext, useBrowser, waitForHydration } from './browser';
import { closeCampaignPopupAfterSignIn } from './page-api';
import { configSection, tr, type Locale } from './site-facts';
import { totpCode } from '../server/modules/auth';

let sequence = 0;
const newLogin = () => `e2e${Date.now()}${sequence++}@example.com`;
const PASSWORD = 'secret12';
/** UI changes after an API call and a data reload; a loaded machine may take seconds. */
const POLL = { timeout: 10_000 };

interface OutboxMessage {
  recipient: string;
  subject: string;
  body: string;
}

/** The newest mail to a recipient; waits for it, since the click that sends it returns before the API call ends. */
async function lastMail(base: string, recipient: string): Promise<OutboxMessage> {
  const deadline = Date.now() + POLL.timeout;
  for (;;) {
    const address = `${base}/dev/outbox?recipient=${encodeURIComponent(recipient)}`;
    const response = await fetch(address, { headers: { accept: 'application/json' } });
    const { data } = (await response.json()) as { data: OutboxMessage[] };
    if (data[0]) return data[0];
    if (Date.now() > deadline) throw new Error(`no mail to ${recipient}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Registers from inside the page (a same-origin fetch, as the sign-up form does), so the session
 * cookie lands in the browser for that host, *.localhost hosts included.
 */
async function registerThroughApi(page: Page, origin: string, login = newLogin()): Promise<string> {
  if (!page.url().startsWith(origin)) await page.goto(`${origin}/forms/sign_up`);
  const status = await page.evaluate(
    async ({ login, password }) => {
      const body = new URLSearchParams({ login, password, terms: '1' });
      return (await fetch('/api/auth.register?v=2.34&locale=en', { method: 'POST', body, signal: AbortSignal.timeout(15_000) }))
        .status;
    },
    { login, password: PASSWORD },
  );
  expect(status).toBe(200);
  return login;
}

const signedInMarker = (page: Page) => page.locator('[data-account-login]').first();

/** Fills and sends the open registration popup with a new login; resolves on register=success. */
async function signUpInPopup(page: Page): Promise<string> {
  const popup = page.locator('[data-dialog="auth"]');
  const login = newLogin();
  await popup.locator('input[name="login"]').fill(login);
  await popup.locator('input[name="password"]').fill(PASSWORD);
  await popup.locator('[data-field="terms"] input').check();
  await popup.locator('button[type="submit"]').click();
  await page.waitForURL(/register=success/);
  return login;
}

describe('accounts in the browser', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  async function freshPage(host?: string): Promise<{ context: BrowserContext; page: Page; origin: string }> {
    // Service workers are tested in pwa.test.ts; here one mid-install can keep a closing context waiting.
    const { context, page } = await browser.newPage({ serviceWorkers: 'block', stepTimeoutMs: 20_000 });
    const origin = host ? base.replace('127.0.0.1', host) : base;
    return { context, page, origin };
  }

  for (const locale of ['en', 'it'] as Locale[]) {
    const prefix = locale === 'en' ? '' : '/it';

    it(`signs up in the registration popup and lands signed in with register=success (${locale}, spec §4)`, async () => {
      const { context, page } = await freshPage();
      await page.goto(`${base}${prefix}/?show_popup_reg=1`);
      await waitForHydration(page);
      const popup = page.locator('[data-dialog="auth"]');
      await popup.locator('button[type="submit"]').click();
      const required = configSection<{ validationDict: Record<string, string> }>('forms-config', locale).validationDict.required;
      await expect.poll(() => popup.locator('[data-field="login"] .field__error').textContent(), POLL).toBe(required);
      const login = await signUpInPopup(page);
      await expect.poll(() => signedInMarker(page).getAttribute('data-account-login'), POLL).toBe(login);
      expect(new URL(page.url()).pathname).toBe(prefix || '/');
      await closeContext(context);
    });

    it(`signs in on /forms/sign_in, signs out, and a wrong password gets the translated message (${locale})`, async () => {
      const { context, page } = await freshPage();
      const login = await registerThroughApi(page, base);
      await context.clearCookies();
      await page.goto(`${base}${prefix}/forms/sign_in`);
      await waitForHydration(page);
      await page.fill('input[name="login"]', login);
      await page.fill('input[name="password"]', 'wrong-password');
      await page.click('button[type="submit"]');
      await expect
        .poll(() => page.locator('.auth-form [role="alert"]').first().textContent(), POLL)
        .toBe(tr(locale, 'auth.error.credentials'));
      await page.fill('input[name="password"]', PASSWORD);
      await page.click('button[type="submit"]');
      await expect.poll(() => signedInMarker(page).getAttribute('data-account-login'), { timeout: 15_000 }).toBe(login);
      // Sign-in loads the index afresh: a click before hydration would meet a button with no handler yet.
      await page.waitForURL((url) => !url.pathname.includes('/forms/sign_in'));
      await waitForHydration(page);
      await closeCampaignPopupAfterSignIn(page, locale);
      // Sign-out reloads the index (spec §4); let that navigation finish before closing the context.
      const reloaded = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
      await page
        .locator('.site-header')
        .getByRole('button', { name: tr(locale, 'header.logout') })
        .first()
        .click();
      await reloaded;
      await waitForHydration(page);
      await expect.poll(() => signedInMarker(page).count(), POLL).toBe(0);
      await closeContext(context);
    });
  }

  it('turns on two-factor with the QR set-up and then asks for the code at sign-in (spec §4)', async () => {
    const { context, page } = await freshPage();
    const login = await registerThroughApi(page, base);
    await page.goto(`${base}/it/profile/security`);
    await waitForHydration(page);
    await page.locator('[data-form="two-factor"] button').click();
    const secret = (await page.locator('[data-secret]').textContent()) ?? '';
    expect(await page.locator('.qr svg').count()).toBe(1);
    await page.locator('[data-form="two-factor"] input[name="code"]').fill(totpCode(secret, Date.now()));
    await page.locator('[data-form="two-factor"] button[type="submit"]').click();
    await expect.poll(() => page.locator('[data-form="two-factor"]').getAttribute('data-enabled'), POLL).toBe('true');

    await context.clearCookies();
    await page.goto(`${base}/forms/sign_in`);
    await waitForHydration(page);
    await page.fill('input[name="login"]', login);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.locator('[data-step="two-factor"]').waitFor();
    await page.fill('input[name="code"]', '000000');
    await page.click('button[type="submit"]');
    await expect
      .poll(() => page.locator('[data-field="code"] .field__error').textContent(), POLL)
      .toBe(tr('en', 'auth.twoFactor.invalid'));
    await page.fill('input[name="code"]', totpCode(secret, Date.now() + 30_000));
    await page.click('button[type="submit"]');
    await expect.poll(() => signedInMarker(page).getAttribute('data-account-login'), { timeout: 15_000 }).toBe(login);
    await closeContext(context);
  });

  it('restores a forgotten password through the e-mailed link (accounts issue)', async () => {
    const { context, page } = await freshPage();
    const login = await registerThroughApi(page, base);
    await context.clearCookies();
    await page.goto(`${base}/it/forms/sign_in`);
    await waitForHydration(page);
    await page.getByRole('button', { name: tr('it', 'auth.restore.open') }).click();
    await page.fill('[data-step="restore"] input[name="login"]', login);
    await page.click('[data-step="restore"] button[type="submit"]');
    await expect
      .poll(() => page.locator('[data-step="restore"] [role="status"]').textContent(), POLL)
      .toBe(tr('it', 'auth.restore.sent'));
    const link = /(http\S+reset_token=\S+)/.exec((await lastMail(base, login)).body)?.[1] ?? '';
    expect(new URL(link).pathname).toBe('/it/forms/sign_in');
    await page.goto(link);
    await waitForHydration(page);
    await page.fill('input[name="password"]', 'newpass12');
    await page.fill('input[name="password_repeated"]', 'newpass12');
    await page.click('[data-step="reset"] button[type="submit"]');
    await page.locator('[data-step="reset-done"]').waitFor();
    await page.click('[data-step="reset-done"] button');
    await page.fill('input[name="login"]', login);
    await page.fill('input[name="password"]', 'newpass12');
    await page.click('button[type="submit"]');
    await expect.poll(() => signedInMarker(page).getAttribute('data-account-login'), { timeout: 15_000 }).toBe(login);
    await closeContext(context);
  });

  it('confirms the sign-up e-mail with the 6-digit code from the outbox (spec §4: contact saving)', async () => {
    const { context, page } = await freshPage();
    const login = await registerThroughApi(page, base);
    await page.goto(`${base}/profile/settings`);
    await waitForHydration(page);
    const row = page.locator(`[data-contact="${login}"]`);
    await row.getByRole('button', { name: tr('en', 'profile.contact.sendCode') }).click();
    const code = /\b(\d{6})\b/.exec((await lastMail(base, login)).body)?.[1] ?? '';
    // The mail can arrive before React shows the code form: wait for the named field itself.
    await row.locator('input[name="code"]').fill(code);
    await row.getByRole('button', { name: tr('en', 'profile.contact.confirm') }).click();
    await expect.poll(() => row.locator('.badge').textContent(), POLL).toBe(tr('en', 'profile.contact.confirmed'));
    await closeContext(context);
  });

  for (const decision of ['approve', 'reject'] as const) {
    it(`identity verification in the sandbox: ${decision} (accounts issue)`, async () => {
      const { context, page } = await freshPage();
      await registerThroughApi(page, base);
      await page.goto(`${base}/profile/verification`);
      await waitForHydration(page);
      await page.locator('[data-verification] button').click();
      const frame = page.frameLocator('.verification-dialog__frame');
      await frame.locator('input[name="document_number"]').fill('AB123456');
      await frame.locator(`button[value="${decision}"]`).click();
      const expected = decision === 'approve' ? 'verified' : 'rejected';
      await expect
        .poll(() => page.locator('[data-verification]').getAttribute('data-verification'), { timeout: 15_000 })
        .toBe(expected);
      await closeContext(context);
    });
  }

  for (const locale of ['en', 'it'] as const) {
    it(`a promo code from the address is stored and activated at sign-up: its bonus is on the balance (${locale}, spec §4 promo code, registration)`, async () => {
      const prefix = locale === 'en' ? '' : '/it';
      // Its own address for the load balancer header: sign-ups are limited per address.
      const { context, page } = await browser.newPage({
        serviceWorkers: 'block',
        extraHTTPHeaders: { 'x-forwarded-for': `10.77.0.${locale === 'en' ? 1 : 2}` },
        stepTimeoutMs: 20_000,
      });
      await page.goto(`${base}${prefix}/?promo_code=WELCOME10`);
      await waitForHydration(page);
      await expect.poll(() => page.evaluate(() => localStorage.getItem('promo_code')), POLL).toBe('WELCOME10');
      await page.goto(`${base}${prefix}/?show_popup_reg=1`);
      await waitForHydration(page);
      await signUpInPopup(page);
      const balance = await page.evaluate(
        async () =>
          (await (await fetch('/api/account.getBalance?v=2.34&locale=en')).json()) as {
            data: { balance_bonus: { amount: string } };
          },
      );
      expect(balance.data.balance_bonus.amount).toBe('10.00');
      expect(await page.evaluate(() => localStorage.getItem('promo_code'))).toBeNull();
      await closeContext(context);
    });
  }

  it('self-exclusion signs the player out and sign-in is refused afterwards (accounts issue)', async () => {
    const { context, page } = await freshPage();
    const login = await registerThroughApi(page, base);
    await page.goto(`${base}/profile/responsible-game`);
    await waitForHydration(page);
    const form = page.locator('[data-form="self-exclusion"]');
    await form.locator('select[name="duration"]').selectOption('6m');
    await form.locator('input[name="password"]').fill(PASSWORD);
    await form.locator('button[type="submit"]').click();
    await page
      .locator('[data-dialog="confirm"]')
      .getByRole('button', { name: tr('en', 'dialog.agree') })
      .click();
    await page.waitForURL(`${base}/`);
    await expect.poll(() => signedInMarker(page).count(), POLL).toBe(0);
    const answer = await page.request.post(`${base}/api/auth.login?v=2.34&locale=en`, { form: { login, password: PASSWORD } });
    expect(((await answer.json()) as { error?: { type: string } }).error?.type).toBe('AccessDeniedException');
    await closeContext(context);
  });

  it('idle logout: a warning without a close button at 80 %, activity closes it, 100 % signs out (spec §4)', async () => {
    // Sprint Casino forces logout after 20 s without activity: the warning comes at 16 s. The
    // page's clock is stopped and moved on by hand, instead of the test waiting those seconds out.
    const { context, page, origin } = await freshPage('sprint.localhost');
    await page.clock.install();
    await registerThroughApi(page, origin);
    await page.goto(`${origin}/promotions`);
    await waitForHydration(page);
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
    // Activity restarts the idle timers, so they now run from this moment of the stopped clock.
    await page.keyboard.press('Shift');
    const warning = page.locator('[data-dialog="idleWarning"]');
    await page.clock.runFor(15_000);
    expect(await warning.count()).toBe(0);
    await page.clock.runFor(1_000);
    await warning.waitFor({ state: 'visible' });
    expect(await warning.locator('.dialog__close').count()).toBe(0);
    const seconds = Number(await warning.locator('[data-seconds]').getAttribute('data-seconds'));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(4);
    await page.keyboard.press('Escape');
    await warning.waitFor({ state: 'detached' });
    await page.clock.runFor(16_000);
    await warning.waitFor({ state: 'visible' });
    await page.clock.runFor(4_000);
    // Sign-out calls the API and loads the home page: real time from here.
    await page.clock.resume();
    await page.waitForURL(`${origin}/`, { timeout: 15_000 });
    await expect.poll(() => signedInMarker(page).count(), POLL).toBe(0);
    await closeContext(context);
  });
});
