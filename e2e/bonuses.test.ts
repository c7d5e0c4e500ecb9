/**
 * /profile/bonuses as a player meets it (issue 13 "Pages, in both languages and on a phone";
 * spec §2 bonus remove or activate confirm dialog, betting bonus activated dialog), in English and
 * Italian: the sign-up bonus waits to be activated; activating asks first, then shows it active
 * with its wagering bar and the bonus balance; removing asks, then moves it to the history. An
 * opt-in free bet activates through the betting-bonus-activated dialog.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { closeContext, screenshot, useBrowser, waitForHydration } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { inLocale, SITE, tr, type Locale } from './site-facts';

const POLL = { timeout: 10_000 };
const ADDRESS_PREFIX = '10.86';

interface Template {
  id: string;
  texts?: Record<string, { title: string }>;
}
const BONUSES = (SITE.settings as { bonuses: { templates: Template[]; registration_template_id: string } }).bonuses;
const SIGN_UP = BONUSES.templates.find((template) => template.id === BONUSES.registration_template_id)!;

const card = (page: Page, status: string) => page.locator(`.bonus-card[data-bonus-status="${status}"]`);

async function confirmDialog(page: Page) {
  const dialog = page.locator('.confirm');
  await expect.poll(() => dialog.count(), POLL).toBe(1);
  await dialog.locator('.button--primary').click();
}

describe('bonuses in the browser', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  for (const locale of ['en', 'it'] as Locale[]) {
    it(`the sign-up bonus is activated after the confirm, shows its wagering, and is removed into the history (${locale})`, async () => {
      const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: ADDRESS_PREFIX });
      await page.goto(`${base}${inLocale('/profile/bonuses', locale)}`);
      await waitForHydration(page);
      const waiting = card(page, 'available');
      await expect.poll(() => waiting.locator('.bonus-card__title').textContent(), POLL).toBe(SIGN_UP.texts?.[locale]?.title);
      expect(await page.locator('.bonus-section').first().textContent()).toContain(tr(locale, 'bonus.section.active.none'));

      await waiting.locator('[data-action="activate"]').click();
      expect(await page.locator('.confirm .dialog__title').textContent()).toBe(tr(locale, 'bonus.confirm.activate.title'));
      await confirmDialog(page);
      const active = card(page, 'active');
      await expect.poll(() => active.count(), POLL).toBe(1);
      expect(await active.locator('.bonus-wagering').getAttribute('data-wagering-percent')).toBe('0');
      expect(await active.locator('[role="progressbar"]').getAttribute('aria-valuenow')).toBe('0');
      const balances = await apiCall<{ balance_bonus: { amount: string } }>(page, 'GET', 'account.getBalance');
      expect(Number(balances.data?.balance_bonus.amount)).toBeGreaterThan(0);
      await screenshot(page, `bonuses-active-desktop-${locale}`);

      await page.setViewportSize({ width: 375, height: 812 });
      await screenshot(page, `bonuses-active-phone-${locale}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      await active.locator('[data-action="remove"]').click();
      expect(await page.locator('.confirm .dialog__title').textContent()).toBe(tr(locale, 'bonus.confirm.remove.title'));
      await confirmDialog(page);
      const history = page.locator('.bonus-history__row[data-bonus-status="forfeited"]');
      await expect.poll(() => history.count(), POLL).toBe(1);
      expect(await history.locator('.bonus-history__status').textContent()).toBe(tr(locale, 'bonus.status.forfeited'));
      const after = await apiCall<{ balance_bonus: { amount: string } }>(page, 'GET', 'account.getBalance');
      expect(after.data?.balance_bonus.amount).toBe('0.00');
      await closeContext(context);
    });
  }

  it('a free bet waiting behind a casino bonus (no mixing on lagoon) is activated from the profile with the betting-bonus-activated dialog (it)', async () => {
    const { context, page } = await browser.newPage({ serviceWorkers: 'block', stepTimeoutMs: 20_000, locale: 'it-IT' });
    const origin = base.replace('127.0.0.1', 'lagoon.localhost');
    await page.goto(`${origin}/it/forms/sign_up`);
    const login = `freebet${Date.now()}@example.com`;
    const registered = await apiCall(
      page,
      'POST',
      'auth.register',
      { login, password: 'secret12', terms: '1' },
      {
        'x-forwarded-for': `${ADDRESS_PREFIX}.201.1`,
      },
    );
    expect(registered.error).toBeUndefined();
    const signUp = await apiCall<{ items: { id: number }[] }>(page, 'GET', 'bonuses.get');
    const signUpId = String(signUp.data?.items[0]?.id);
    expect((await apiCall(page, 'POST', 'bonuses.activate', { bonus_id: signUpId })).error).toBeUndefined();
    const taken = await apiCall<{ bonus_status: string }>(page, 'POST', 'campaigns.takepromotions', { offer_id: '4' });
    expect(taken.data?.bonus_status).toBe('available');
    expect((await apiCall(page, 'POST', 'bonuses.remove', { bonus_id: signUpId })).error).toBeUndefined();

    await page.goto(`${origin}/it/profile/bonuses`);
    await waitForHydration(page);
    const freeBet = page.locator('.bonus-section', { hasText: tr('it', 'bonus.section.betting') }).locator('.bonus-card');
    await expect.poll(() => freeBet.getAttribute('data-bonus-status'), POLL).toBe('available');
    await freeBet.locator('[data-action="activate"]').click();
    await confirmDialog(page);
    const activated = page.locator('[data-dialog="betting-bonus-activated"]');
    await expect.poll(() => activated.count(), POLL).toBe(1);
    expect(await activated.locator('.dialog__title').textContent()).toBe(tr('it', 'bonus.betting.activated.title'));
    await screenshot(page, 'bonuses-betting-activated-it');
    await closeContext(context);
  });

  it('a player without bonuses sees the empty state with the way to the promotions (sprint gives no sign-up bonus)', async () => {
    const { context, page } = await browser.newPage({ serviceWorkers: 'block', stepTimeoutMs: 20_000 });
    const origin = base.replace('127.0.0.1', 'sprint.localhost');
    await page.goto(`${origin}/forms/sign_up`);
    const registered = await apiCall<{ uid: number }>(
      page,
      'POST',
      'auth.register',
      { login: `nobonus${Date.now()}@example.com`, password: 'secret12', terms: '1' },
      { 'x-forwarded-for': `${ADDRESS_PREFIX}.200.1` },
    );
    expect(registered.error).toBeUndefined();
    await page.goto(`${origin}/profile/bonuses`);
    await waitForHydration(page);
    const empty = page.locator('[data-bonus-empty]');
    await expect.poll(() => empty.count(), POLL).toBe(1);
    expect(await empty.locator('svg.bonus-art').count()).toBe(1);
    expect(await empty.locator('a').getAttribute('href')).toBe('/promotions');
    await closeContext(context);
  });

  for (const locale of ['en', 'it'] as Locale[]) {
    it(`/profile/cashback without a cashback shows its empty state and fits a phone (${locale})`, async () => {
      const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: ADDRESS_PREFIX });
      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto(`${base}${inLocale('/profile/cashback', locale)}`);
      await waitForHydration(page);
      const empty = page.locator('[data-cashback-empty]');
      await expect.poll(() => empty.locator('p').textContent(), POLL).toBe(tr(locale, 'cashback.empty'));
      expect(await page.locator('h1').textContent()).toBe(tr(locale, 'page.profile-index-cashback.title'));
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);
      await screenshot(page, `cashback-empty-phone-${locale}`);
      await closeContext(context);
    });
  }
});
