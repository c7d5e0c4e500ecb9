/**
 * What browser tests do through a page rather than its controls: call the product API with the
 * page's own cookies (as the site's scripts would), and sign a new player up.
 */
import { expect, inject } from 'vitest';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { amountToMinor } from '#common/money';
import { browserLocale, type BrowserFixture, type ContextOptions } from './browser';
import { campaignPopup, tr, type Locale } from './site-facts';

export async function apiCall<T>(
  page: Page | Frame,
  verb: 'GET' | 'POST',
  name: string,
  params: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<{ data?: T; error?: { type: string; error_data?: Record<string, unknown> } }> {
  return page.evaluate(
    async ({ verb, name, params, headers }) => {
      const query = new URLSearchParams({ v: '2.34', locale: 'en', ...(verb === 'GET' ? params : {}) });
      const init: RequestInit = { method: verb, headers, signal: AbortSignal.timeout(15_000) };
      if (verb === 'POST') init.body = new URLSearchParams(params);
      return (await fetch(`/api/${name}?${query}`, init)).json();
    },
    { verb, name, params, headers },
  );
}

let signUps = 0;

/**
 * A document of the site without the app in it (no render, no scripts): enough for `apiCall`,
 * whose fetch needs the site's origin, at a small part of a page's cost (issue 12: the suite's time).
 */
export const BARE_DOCUMENT = '/robots.txt';

/**
 * A player signed up through the API in a fresh browser context (desktop unless told, the locale's
 * language, no service worker), left on a bare document of the site: the caller opens the page it
 * tests. Sign-up is rate-limited per address, so each player comes from an address of its own under
 * `addressPrefix` (one per test file).
 */
export async function signedUpPlayer(
  browser: BrowserFixture,
  locale: Locale,
  options: { addressPrefix: string; password?: string; acceptDownloads?: boolean; viewport?: ContextOptions['viewport'] },
): Promise<{ context: BrowserContext; page: Page; uid: number; login: string }> {
  const { context, page } = await browser.newPage({
    viewport: options.viewport,
    locale: browserLocale(locale),
    serviceWorkers: 'block',
    acceptDownloads: options.acceptDownloads ?? false,
    stepTimeoutMs: 20_000,
  });
  await page.goto(`${browser.baseUrl}${BARE_DOCUMENT}`);
  const sequence = signUps++;
  const login = `player${Date.now()}${sequence}@example.com`;
  const address = `${options.addressPrefix}.${Math.floor(sequence / 250) % 250}.${(sequence % 250) + 1}`;
  const answer = await apiCall<{ uid: number }>(
    page,
    'POST',
    'auth.register',
    { login, password: options.password ?? 'secret12', terms: '1' },
    { 'x-forwarded-for': address },
  );
  expect(answer.error).toBeUndefined();
  expect(answer.data?.uid).toBeGreaterThan(0);
  return { context, page, uid: answer.data?.uid ?? 0, login };
}

/**
 * Spec §4: after a sign-in through the site the campaign popup is queued on the page it lands on;
 * a player who has not deposited meets the welcome popup (signed_in, no_deposit) and closes it.
 */
export async function closeCampaignPopupAfterSignIn(page: Page, locale: Locale): Promise<void> {
  const campaign = page.locator('[data-dialog="campaign"]');
  await expect
    .poll(() => campaign.locator('.dialog__title').textContent(), { timeout: 10_000 })
    .toBe(campaignPopup(locale, 'welcome-popup').title);
  await page
    .getByRole('button', { name: tr(locale, 'dialog.close') })
    .first()
    .click();
  await expect.poll(() => campaign.count(), { timeout: 10_000 }).toBe(0);
}

/** The back office's answer to a cashback it gave (server/web/backoffice-cashbacks.ts). */
export interface OperatorCashback {
  id: number;
  amount: string;
  currency: string;
}

/**
 * A cashback for the player as an operator gives one (POST /backoffice/cashbacks): the last
 * period's, for an assessed net loss. Browser tests have no clock to wind to the period job's
 * next run, and never write to the database.
 */
export async function operatorCashback(page: Page, uid: number, netLoss: string): Promise<OperatorCashback> {
  const answer = await page.request.post(`${inject('baseUrl')}/backoffice/cashbacks`, {
    headers: { authorization: `Bearer ${inject('backofficeToken')}`, 'content-type': 'application/json' },
    data: { user_id: uid, net_loss: netLoss, reason: 'browser test' },
  });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { data: OperatorCashback }).data;
}

/** The player's main balance in minor units, from account.getBalance. */
export async function mainBalanceMinor(page: Page): Promise<bigint> {
  const answer = await apiCall<{ balance_main: { amount: string } }>(page, 'GET', 'account.getBalance');
  expect(answer.error).toBeUndefined();
  return amountToMinor(answer.data!.balance_main.amount);
}
