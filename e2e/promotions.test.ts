/**
 * /promotions and /offers as a visitor and a player meet them (issue 13 "Pages": the terms in
 * full, the opt-in button, the promo code field with the promocode-activated dialog; spec §4 promo
 * code errors from the code table; §8 route guard 404), in English and Italian and on a phone.
 */
import { describe, expect, it } from 'vitest';
import { closeContext, screenshot, useBrowser, waitForHydration } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { inLocale, SITE, tr, type Locale } from './site-facts';

const POLL = { timeout: 10_000 };
const ADDRESS_PREFIX = '10.87';
const OPT_IN_OFFER = 4;
const WELCOME_OFFER = 1;

interface Template {
  id: string;
  amount: { kind: string; percent?: number; caps?: Record<string, string> };
  texts?: Record<string, { title: string }>;
}
const TEMPLATES = (SITE.settings as { bonuses: { templates: Template[] } }).bonuses.templates;
const WELCOME = TEMPLATES.find((template) => template.id === 'welcome')!;

describe('promotions in the browser', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  for (const locale of ['en', 'it'] as Locale[]) {
    it(`lists every offer with what its template pays; a player opts in from the detail page (${locale})`, async () => {
      const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: ADDRESS_PREFIX });
      await page.goto(`${base}${inLocale('/promotions', locale)}`);
      await waitForHydration(page);
      const welcome = page.locator(`.promotion-card[data-offer-id="${WELCOME_OFFER}"]`);
      await expect.poll(() => welcome.locator('.promotion-card__title').textContent(), POLL).toBe(WELCOME.texts?.[locale]?.title);
      expect(await welcome.locator('.promotion-card__headline').textContent()).toBe(
        tr(locale, 'promotions.headline.match', { percent: WELCOME.amount.percent!, amount: `${WELCOME.amount.caps!.EUR} EUR` }),
      );
      expect(
        await page.locator('.promotion-card').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-offer-action'))),
      ).toEqual(expect.arrayContaining(['deposit', 'opt_in', 'promo_code']));
      await page.setViewportSize({ width: 375, height: 812 });
      await screenshot(page, `promotions-phone-${locale}`);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);
      await page.setViewportSize({ width: 1440, height: 900 });

      await page.locator(`.promotion-card[data-offer-id="${OPT_IN_OFFER}"] a`).click();
      await page.waitForURL(new RegExp(`/promotions/${OPT_IN_OFFER}$`));
      await waitForHydration(page);
      await page.locator('[data-action="opt-in"]').click();
      await expect.poll(() => page.locator('[data-action="opt-in"]').textContent(), POLL).toBe(tr(locale, 'promotions.optedIn'));
      const betting = await apiCall<{ items: { status: string }[] }>(page, 'GET', 'BettingBonuses.get');
      expect(betting.data?.items.map((item) => item.status)).toEqual(['active']);
      await screenshot(page, `promotion-detail-${locale}`);
      await closeContext(context);
    });

    it(`the promo code field shows the code table's message, then the promocode-activated dialog (${locale})`, async () => {
      const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: ADDRESS_PREFIX });
      await page.goto(`${base}${inLocale('/promotions', locale)}`);
      await waitForHydration(page);
      const form = page.locator('.promo-form');
      await form.locator('input[name="promo_code"]').fill('NOT-A-CODE');
      await form.locator('button[type="submit"]').click();
      await expect.poll(() => form.locator('.field__error').textContent(), POLL).toBe(tr(locale, 'promo_code.error.INVALID'));
      await form.locator('input[name="promo_code"]').fill('welcome10');
      await form.locator('button[type="submit"]').click();
      const dialog = page.locator('[data-dialog="promocode-activated"]');
      await expect.poll(() => dialog.getAttribute('data-bonus-status'), POLL).toBe('active');
      expect(await dialog.locator('.dialog__title').textContent()).toBe(tr(locale, 'promocode.activated.title'));
      await dialog.locator('.button--ghost').click();
      await form.locator('input[name="promo_code"]').fill('WELCOME10');
      await form.locator('button[type="submit"]').click();
      await expect
        .poll(() => form.locator('.field__error').textContent(), POLL)
        .toBe(tr(locale, 'promo_code.error.ALREADY_ACTIVATED'));
      await closeContext(context);
    });
  }

  it('/offers lists deposit offers only; "Deposit with this offer" preselects it in the cashier (en)', async () => {
    const { context, page } = await signedUpPlayer(browser, 'en', { addressPrefix: ADDRESS_PREFIX });
    await page.goto(`${base}/offers`);
    await waitForHydration(page);
    const actions = await page
      .locator('.promotion-card')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-offer-action')));
    expect(actions.length).toBeGreaterThan(0);
    expect(new Set(actions)).toEqual(new Set(['deposit']));
    await page.goto(`${base}/offers/${WELCOME_OFFER}`);
    await waitForHydration(page);
    await page.locator('[data-action="deposit"]').click();
    await page.waitForURL(new RegExp(`/cashier/deposit\\?offer=${WELCOME_OFFER}`));
    await waitForHydration(page);
    const choice = page.locator(`.offer-choice__item[data-offer="${WELCOME_OFFER}"] input`);
    await expect.poll(() => choice.isChecked(), POLL).toBe(true);
    await closeContext(context);
  });

  it('an unknown promotion is a 404, and a visitor is asked to sign up to take one (en)', async () => {
    const { context, page } = await browser.newPage({ serviceWorkers: 'block', stepTimeoutMs: 20_000 });
    const missing = await page.goto(`${base}/promotions/99999`);
    expect(missing?.status()).toBe(404);
    await page.goto(`${base}/promotions/${OPT_IN_OFFER}`);
    await waitForHydration(page);
    expect(await page.locator('[data-action="sign-up"]').textContent()).toBe(tr('en', 'promotions.signUp'));
    await closeContext(context);
  });
});
