/**
 * The cashier history's bonuses and cashbacks tabs as a player sees them (spec §2 /cashier/history
 * with tab bonuses or cashbacks; §4 history tabs; issue 13), in English and Italian, on a desktop
 * and on a phone: a promo code's bonus and a paid cashback (an operator's, POST
 * /backoffice/cashbacks) are rows with their amounts and a label in the page's language, not the
 * empty state.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatMoney, type Money } from '#common/money';
import { closeContext, screenshot, useBrowser, waitForHydration } from './browser';
import { apiCall, operatorCashback, signedUpPlayer } from './page-api';
import { inLocale, tr, type Locale } from './site-facts';

const POLL = { timeout: 10_000 };
const ADDRESS_PREFIX = '10.93';
const PHONE = { width: 390, height: 844 };

describe('cashier history of bonuses and cashbacks in the browser', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  /** The tab's rows: one row, with its label and amount, and no empty state. */
  async function expectRow(page: Page, locale: Locale, tab: 'bonuses' | 'cashbacks', kind: string, amount: Money) {
    const list = page.locator(`[data-history-tab="${tab}"]`);
    const rows = list.locator('[data-history-row]');
    await expect.poll(() => rows.count(), POLL).toBe(1);
    expect(await list.locator('[data-history-empty]').count()).toBe(0);
    expect(await rows.first().getAttribute('data-type')).toBe(tab);
    expect(await rows.first().locator('.history-row__method').textContent()).toBe(tr(locale, `cashier.history.kind.${kind}`));
    expect(await rows.first().locator('[data-amount]').textContent()).toBe(formatMoney(amount));
    expect(await rows.first().locator('.history-row__date').textContent()).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
  }

  const overflow = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  for (const locale of ['en', 'it'] as Locale[]) {
    it(`§2/§4: the bonuses and cashbacks tabs list the player's bonus and paid cashback with labels in ${locale}, on a desktop and a 390×844 phone`, async () => {
      const { context, page, uid } = await signedUpPlayer(browser, locale, { addressPrefix: ADDRESS_PREFIX });
      const promo = await apiCall<{ bonus: Money }>(page, 'POST', 'campaigns.activateOffer', { promo_code: 'WELCOME10' });
      expect(promo.error).toBeUndefined();
      const cashback = await operatorCashback(page, uid, '50.00');
      const paid = await apiCall<{ amount: Money }>(page, 'POST', 'cashbacks.payout', { cashback_id: String(cashback.id) });
      expect(paid.error).toBeUndefined();

      await page.goto(`${base}${inLocale('/cashier/history?tab=bonuses', locale)}`);
      await waitForHydration(page);
      await expectRow(page, locale, 'bonuses', 'bonus_grant', promo.data!.bonus);
      await screenshot(page, `history-bonuses-desktop-${locale}`);

      // Switching tabs in the page clears the list (spec §4): while the tab's data is held back, a
      // loader stands where the bonus rows were; released, the cashbacks tab is loaded.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/cashier/history.data*', async (route) => {
        await held;
        await route.continue();
      });
      await page.click('[data-history-tab-link="cashbacks"]');
      const loading = page.locator('[data-history-loading="cashbacks"]');
      await expect.poll(() => loading.getAttribute('aria-busy'), POLL).toBe('true');
      expect(await loading.locator('[role="progressbar"]').getAttribute('aria-label')).toBe(tr(locale, 'system.loading'));
      expect(await page.locator('[data-history-row]').count()).toBe(0);
      release();
      await page.waitForURL(/tab=cashbacks/);
      await page.unroute('**/cashier/history.data*');
      await expectRow(page, locale, 'cashbacks', 'cashback_payout', paid.data!.amount);
      expect(await page.locator('[data-history-tab="bonuses"]').count()).toBe(0);

      await page.setViewportSize(PHONE);
      for (const [tab, kind, amount] of [
        ['cashbacks', 'cashback_payout', paid.data!.amount],
        ['bonuses', 'bonus_grant', promo.data!.bonus],
      ] as const) {
        await page.goto(`${base}${inLocale(`/cashier/history?tab=${tab}`, locale)}`);
        await waitForHydration(page);
        await expectRow(page, locale, tab, kind, amount);
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await screenshot(page, `history-${tab}-phone-${locale}`);
      }
      await closeContext(context);
    });
  }
});
