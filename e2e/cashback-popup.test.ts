/**
 * The unseen-cashback popup as a player meets it (spec §4 "after login the unseen-cashback popup
 * and the campaign popup are queued" and the cashback popup rule: the newest cashback, active,
 * with an id other than the last seen; on close its id is saved), in English and Italian. The
 * cashback is an operator's (POST /backoffice/cashbacks): there is no clock to wind to the job.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { amountToMinor, formatMoney } from '#common/money';
import { closeContext, screenshot, useBrowser, waitForHydration } from './browser';
import { closeCampaignPopupAfterSignIn, mainBalanceMinor, operatorCashback, signedUpPlayer } from './page-api';
import { inLocale, tr, type Locale } from './site-facts';

const POLL = { timeout: 15_000 };
const ADDRESS_PREFIX = '10.92';
const PASSWORD = 'secret12';

describe('the unseen-cashback popup after sign-in', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  async function signInThroughForm(page: Page, locale: Locale, login: string): Promise<void> {
    await page.context().clearCookies();
    await page.goto(`${base}${inLocale('/forms/sign_in', locale)}`);
    await waitForHydration(page);
    await page.fill('input[name="login"]', login);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
  }

  async function claimOnProfile(page: Page, locale: Locale, cashbackId: number): Promise<void> {
    await page.waitForURL((url) => url.pathname === inLocale('/profile/cashback', locale));
    await waitForHydration(page);
    const card = page.locator(`.bonus-card[data-cashback-id="${cashbackId}"]`);
    await card.locator('[data-action="claim"]').click();
    await expect.poll(() => card.count(), POLL).toBe(0);
  }

  /** Spec §4: the cashback popup first; the campaign popup waits in the queue behind it. */
  async function seeCashbackPopup(page: Page, locale: Locale, cashback: { id: number; amount: string; currency: string }) {
    const dialog = page.locator('[data-dialog="unseen-cashback"]');
    await expect.poll(() => dialog.getAttribute('data-cashback-id'), POLL).toBe(String(cashback.id));
    expect(await dialog.locator('.dialog__title').textContent()).toBe(tr(locale, 'cashback.popup.title'));
    expect(await dialog.locator('p').textContent()).toContain(
      formatMoney({ amount: cashback.amount, currency: cashback.currency }),
    );
    expect(await page.locator('[data-dialog="campaign"]').count()).toBe(0);
    return dialog;
  }

  it('§4 (en): signing in shows the active cashback queued before the campaign popup; claiming from it pays once, and it does not show again', async () => {
    const locale: Locale = 'en';
    const { context, page, uid, login } = await signedUpPlayer(browser, locale, { addressPrefix: ADDRESS_PREFIX });
    const before = await mainBalanceMinor(page);
    const cashback = await operatorCashback(page, uid, '50.00');

    await signInThroughForm(page, locale, login);
    const dialog = await seeCashbackPopup(page, locale, cashback);
    await screenshot(page, `cashback-popup-desktop-${locale}`);
    await dialog.getByRole('link', { name: tr(locale, 'cashback.popup.open') }).click();
    await claimOnProfile(page, locale, cashback.id);
    await expect.poll(() => mainBalanceMinor(page), POLL).toBe(before + amountToMinor(cashback.amount));

    // Paid out (with its receiving window) and seen: the next sign-in queues the campaign popup alone.
    await signInThroughForm(page, locale, login);
    await closeCampaignPopupAfterSignIn(page, locale);
    expect(await page.locator('[data-dialog="unseen-cashback"]').count()).toBe(0);
    expect(await mainBalanceMinor(page)).toBe(before + amountToMinor(cashback.amount));
    await closeContext(context);
  });

  it('§4 (it): closing the cashback popup brings the queued campaign popup; the seen cashback is claimed on /it/profile/cashback and not shown again', async () => {
    const locale: Locale = 'it';
    const { context, page, uid, login } = await signedUpPlayer(browser, locale, { addressPrefix: ADDRESS_PREFIX });
    const before = await mainBalanceMinor(page);
    const cashback = await operatorCashback(page, uid, '50.00');

    await signInThroughForm(page, locale, login);
    const dialog = await seeCashbackPopup(page, locale, cashback);
    await screenshot(page, `cashback-popup-desktop-${locale}`);
    await dialog
      .getByRole('button', { name: tr(locale, 'dialog.close') })
      .first()
      .click();
    await closeCampaignPopupAfterSignIn(page, locale);

    // Still active but seen (its id saved on close): the next sign-in does not show it.
    await signInThroughForm(page, locale, login);
    await closeCampaignPopupAfterSignIn(page, locale);
    expect(await page.locator('[data-dialog="unseen-cashback"]').count()).toBe(0);

    await page.goto(`${base}${inLocale('/profile/cashback', locale)}`);
    await claimOnProfile(page, locale, cashback.id);
    await expect.poll(() => mainBalanceMinor(page), POLL).toBe(before + amountToMinor(cashback.amount));
    await closeContext(context);
  });
});
