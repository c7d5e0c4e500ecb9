/**
 * The cashier as a player uses it (money issue), in English and Italian, against the sandbox
 * payment provider's hosted pages: deposits that succeed, fail, wait then succeed, are cancelled,
 * or run in a new window; withdrawals refused without identity verification or a confirmed
 * contact, requested, cancelled and approved by an operator; history tabs, wallet and receipt.
 * Test cards are the sandbox's (docs/sandbox-psp.md).
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatMoney } from '#common/money';
import { validateSum, validationMessage } from '#common/validators';
import { closeContext, useBrowser, waitForHydration, type VIEWPORTS } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { depositBySandboxCalls } from './sandbox-deposit';
import { verifyIdentityByCalls } from './sandbox-kyc';
import { configSection, inLocale, tr, type Locale } from './site-facts';

const CARDS = {
  success: '4242424242424242',
  decline: '4000000000000002',
  challenge: '4000000000003220',
  pending: '4000000000000077',
} as const;
const CHALLENGE_CODE = '123456';
const PASSWORD = 'secret12';
/** Payments settle through queued provider notifications: allow a loaded machine some seconds. */
const POLL = { timeout: 20_000 };
const LOCALES: Locale[] = ['en', 'it'];
/** The e2e site (127.0.0.1) keeps accounts in EUR. */
const eur = (units: number) => formatMoney({ amount: `${units}.00`, currency: 'EUR' });

const headerBalance = (page: Page) => page.locator('[data-balance]').first().textContent();

describe('cashier in the browser', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  /** A new signed-in player in a fresh browser context, registered as the sign-up form does. */
  const newPlayer = (locale: Locale, viewport: keyof typeof VIEWPORTS = 'desktop') =>
    signedUpPlayer(browser, locale, { addressPrefix: '10.77', password: PASSWORD, viewport });

  async function openCashier(page: Page, locale: Locale, path: string): Promise<void> {
    await page.goto(`${base}${inLocale(path, locale)}`);
    await waitForHydration(page);
  }

  /** Starts a card deposit of `units` from the deposit page and lands on the sandbox's card page. */
  async function startCardDeposit(page: Page, locale: Locale, units: number): Promise<void> {
    await openCashier(page, locale, '/cashier/deposit/card');
    await page.locator('[data-form="deposit"] input[name="amount"]').fill(String(units));
    await page.click('[data-action="deposit"]');
    await page.waitForURL(/\/psp\/sandbox\/pay\//);
  }

  async function payByCard(page: Page, number: string): Promise<void> {
    await page.fill('input[name="number"]', number);
    await page.fill('input[name="holder"]', 'Test Player');
    await page.fill('input[name="expiry"]', '12/39');
    await page.fill('input[name="cvc"]', '123');
    await page.click('[data-action="pay"]');
  }

  /** A successful card deposit through the pages; returns its id. */
  async function deposit(page: Page, locale: Locale, units: number): Promise<string> {
    await startCardDeposit(page, locale, units);
    await payByCard(page, CARDS.success);
    await page.waitForURL(/\/cashier\/paysuccess\//);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    await expect.poll(() => page.locator('[data-payment-summary]').getAttribute('data-status'), POLL).toBe('success');
    return id;
  }

  function expectResultScreen(page: Page, type: string) {
    return expect.poll(() => page.locator(`[data-system-page="${type}"]`).count(), POLL).toBe(1);
  }

  for (const locale of LOCALES) {
    describe(`deposits (${locale})`, () => {
      it('shows the methods, the presets of the player currency and the method bounds (spec §3 deposit state)', async () => {
        const { context, page } = await newPlayer(locale);
        await openCashier(page, locale, '/cashier/deposit');
        expect(await page.locator('[data-method]').count()).toBeGreaterThan(0);
        const card = page.locator('[data-method="card"]');
        expect(await card.getAttribute('href')).toBe(inLocale('/cashier/deposit/card', locale));
        const presets =
          configSection<{ amountList: { currency: string; amounts: number[] }[] }>('cashier-config').amountList.find(
            (list) => list.currency === 'EUR',
          )?.amounts ?? [];
        const shown = await page
          .locator('[data-preset]')
          .evaluateAll((chips) => chips.map((chip) => Number(chip.getAttribute('data-preset'))));
        expect(shown.length).toBeGreaterThan(0);
        for (const amount of shown) expect(presets).toContain(amount);
        await page.locator('[data-preset]').nth(1).click();
        expect(await page.inputValue('[data-form="deposit"] input[name="amount"]')).toBe(String(shown[1]));
        // Below the method minimum: the sum message of the form dictionary with both bounds as money (spec §5).
        await page.fill('[data-form="deposit"] input[name="amount"]', '1');
        await page.click('[data-action="deposit"]');
        const dictionary = configSection<{ validationDict: Record<string, string> }>('forms-config', locale).validationDict;
        const expected = validationMessage(validateSum('1', { min: 10, max: 5000, currency: 'EUR' }), dictionary);
        await expect.poll(() => page.locator('[data-field="amount"] .field__error').textContent(), POLL).toBe(expected);
        // An unknown method address still answers, with the list and a notice.
        await openCashier(page, locale, '/cashier/deposit/no-such-method');
        await expect
          .poll(() => page.locator('[data-method-missing]').textContent())
          .toBe(tr(locale, 'cashier.deposit.methodMissing'));
        await closeContext(context);
      });

      it('a successful card deposit lands on /cashier/paysuccess/{id} and the header balance is refreshed', async () => {
        const { context, page } = await newPlayer(locale);
        await openCashier(page, locale, '/cashier/deposit');
        expect(await headerBalance(page)).toBe(eur(0));
        const id = await deposit(page, locale, 50);
        expect(new URL(page.url()).pathname).toBe(inLocale(`/cashier/paysuccess/${id}`, locale));
        expect(await page.locator('.system-page__header').textContent()).toBe(tr(locale, 'system.paymentSuccess.header'));
        expect(await page.locator('[data-status-label]').textContent()).toBe(tr(locale, 'cashier.status.deposit.success'));
        await expect.poll(() => headerBalance(page), POLL).toBe(eur(50));
        // The receipt of the deposit.
        await page.click('[data-receipt-link]');
        await page.waitForURL(/\/cashier\/receipt\?id=/);
        await expect.poll(() => page.locator('[data-receipt-id]').textContent()).toBe(id);
        expect(await page.locator('[data-receipt] [data-amount]').textContent()).toBe(eur(50));
        await closeContext(context);
      });

      it('a declined card lands on /cashier/payfail/{id} and nothing is credited', async () => {
        const { context, page } = await newPlayer(locale);
        await startCardDeposit(page, locale, 20);
        await payByCard(page, CARDS.decline);
        await page.waitForURL(/\/cashier\/payfail\//);
        await expectResultScreen(page, 'paymentFail');
        expect(await page.locator('.system-page__description').textContent()).toBe(tr(locale, 'system.paymentFail.description'));
        expect(await page.locator('[data-system-page] a.button').getAttribute('href')).toBe(inLocale('/cashier/deposit', locale));
        await expect.poll(() => page.locator('[data-payment-summary]').getAttribute('data-status'), POLL).toBe('fail');
        expect(await headerBalance(page)).toBe(eur(0));
        await closeContext(context);
      });

      it('a pending payment shows the loader on /cashier/paypending/{id}, then switches to success by itself', async () => {
        const { context, page } = await newPlayer(locale);
        await startCardDeposit(page, locale, 30);
        await payByCard(page, CARDS.pending);
        await page.waitForURL(/\/cashier\/paypending\//);
        const pendingPath = new URL(page.url()).pathname;
        await expectResultScreen(page, 'paymentPending');
        expect(await page.locator('[data-system-page="paymentPending"] [role="progressbar"]').count()).toBe(1);
        await page.waitForURL(/\/cashier\/paysuccess\//, { timeout: 30_000 });
        expect(new URL(page.url()).pathname).toBe(pendingPath.replace('/paypending/', '/paysuccess/'));
        await expect.poll(() => headerBalance(page), POLL).toBe(eur(30));
        await closeContext(context);
      });

      it('cancelling on the provider page lands on /cashier/paycancel and the deposit is cancelled', async () => {
        const { context, page } = await newPlayer(locale);
        await startCardDeposit(page, locale, 25);
        await page.click('[data-action="cancel"]');
        await page.waitForURL(/\/cashier\/paycancel/);
        await expectResultScreen(page, 'paymentCancel');
        expect(await page.locator('.system-page__header').textContent()).toBe(tr(locale, 'system.paymentCancel.header'));
        await openCashier(page, locale, '/cashier/history?tab=deposit');
        await expect
          .poll(async () => {
            await page.reload();
            return page.locator('[data-history-row]').first().getAttribute('data-status');
          }, POLL)
          .toBe('cancel');
        expect(await headerBalance(page)).toBe(eur(0));
        await closeContext(context);
      });

      it('the new-window flow opens the provider in a new window and this one follows on /cashier/paynewwindow', async () => {
        const { context, page } = await newPlayer(locale);
        await openCashier(page, locale, '/cashier/deposit/card');
        await page.locator('[data-form="deposit"] input[name="amount"]').fill('40');
        await page.check('[data-field="new_window"] input');
        const opened = context.waitForEvent('page');
        await page.click('[data-action="deposit"]');
        const provider = await opened;
        await provider.waitForURL(/\/psp\/sandbox\/pay\//);
        await page.waitForURL(/\/cashier\/paynewwindow\?id=/);
        const id = new URL(page.url()).searchParams.get('id');
        await expectResultScreen(page, 'paymentNewWindow');
        expect(await page.locator('[data-waiting]').count()).toBe(1);
        await payByCard(provider, CARDS.success);
        await page.waitForURL(/\/cashier\/paysuccess\//);
        expect(new URL(page.url()).pathname).toBe(inLocale(`/cashier/paysuccess/${id}`, locale));
        await expect.poll(() => headerBalance(page), POLL).toBe(eur(40));
        await closeContext(context);
      });
    });
  }

  it('a 3-D Secure card asks for the code, then succeeds (en)', async () => {
    const { context, page } = await newPlayer('en');
    await startCardDeposit(page, 'en', 15);
    await payByCard(page, CARDS.challenge);
    await page.waitForURL(/\/3ds/);
    await page.fill('input[name="code"]', CHALLENGE_CODE);
    await page.click('[data-action="confirm-code"]');
    await page.waitForURL(/\/cashier\/paysuccess\//);
    await expect.poll(() => headerBalance(page), POLL).toBe(eur(15));
    await closeContext(context);
  });

  it('on a phone the mobile flow returns to /cashier/paymobile, which follows the deposit to success (it)', async () => {
    const { context, page } = await newPlayer('it', 'mobile');
    await openCashier(page, 'it', '/cashier/deposit/card');
    // A phone gets no new-window choice: the provider's page opens in place and returns to /cashier/paymobile.
    expect(await page.locator('[data-field="new_window"]').count()).toBe(0);
    await page.locator('[data-form="deposit"] input[name="amount"]').fill('20');
    await page.click('[data-action="deposit"]');
    await page.waitForURL(/\/psp\/sandbox\/pay\//);
    await payByCard(page, CARDS.pending);
    await page.waitForURL(/\/cashier\/paymobile\?id=/);
    const id = new URL(page.url()).searchParams.get('id');
    await page.waitForURL(/\/cashier\/paysuccess\//, { timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe(inLocale(`/cashier/paysuccess/${id}`, 'it'));
    await expect.poll(() => page.locator('[data-payment-summary]').getAttribute('data-status'), POLL).toBe('success');
    await closeContext(context);
  });

  it('the wallet switches the account currency and the balances follow (en)', async () => {
    const { context, page } = await newPlayer('en');
    await openCashier(page, 'en', '/cashier/wallet');
    expect(await page.locator('[data-currency-rates] [data-rate]').count()).toBeGreaterThan(0);
    await page.selectOption('[data-field="currency"] select', 'USD');
    await expect.poll(() => headerBalance(page), POLL).toBe(formatMoney({ amount: '0.00', currency: 'USD' }));
    expect(await page.locator('[data-wallet-balances] [data-balance-row="main"] dd').textContent()).toBe('$0.00');
    await closeContext(context);
  });

  it('after success a stored backUrl is followed once (spec §3)', async () => {
    const { context, page } = await newPlayer('en');
    await page.goto(`${base}/cashier/deposit/card?backUrl=${encodeURIComponent('/promotions')}`);
    await waitForHydration(page);
    await page.locator('[data-form="deposit"] input[name="amount"]').fill('10');
    await page.click('[data-action="deposit"]');
    await page.waitForURL(/\/psp\/sandbox\/pay\//);
    await payByCard(page, CARDS.success);
    await page.waitForURL(`${base}/promotions`, { timeout: 20_000 });
    expect(await page.evaluate(() => window.localStorage.getItem('backUrl'))).toBeNull();
    await closeContext(context);
  });

  async function confirmContact(page: Page, login: string): Promise<void> {
    expect((await apiCall(page, 'POST', 'account.sendconfirmationtocontact', { contact: login })).data).toBe(1);
    const deadline = Date.now() + POLL.timeout;
    let code = '';
    while (!code) {
      const response = await fetch(`${base}/dev/outbox?recipient=${encodeURIComponent(login)}`, {
        headers: { accept: 'application/json' },
      });
      const { data } = (await response.json()) as { data: { body: string }[] };
      code = /\b(\d{6})\b/.exec(data[0]?.body ?? '')?.[1] ?? '';
      if (!code && Date.now() > deadline) throw new Error(`no code mailed to ${login}`);
      if (!code) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await apiCall(page, 'POST', 'account.confirmContact', { contact: login, code })).data).toBe(1);
  }

  async function requestWithdrawal(page: Page, locale: Locale, units: number): Promise<void> {
    await openCashier(page, locale, '/cashier/withdraw');
    await page.click('[data-method="card"]');
    const form = page.locator('[data-form="withdraw"]');
    await form.locator('input[name="amount"]').fill(String(units));
    await form.locator('input[name="requisites[card_holder]"]').fill('Test Player');
    await form.locator('input[name="requisites[card_number]"]').fill(CARDS.success);
    await page.click('[data-action="withdraw"]');
  }

  for (const locale of LOCALES) {
    describe(`withdrawals (${locale})`, () => {
      it('without identity verification: the KYC message and a button to /profile/verification (spec §8)', async () => {
        const { context, page } = await newPlayer(locale);
        await depositBySandboxCalls(page, base, '50');
        await requestWithdrawal(page, locale, 20);
        const error = page.locator('[data-form="withdraw"] [data-error-type="KycWithdrawalException"]');
        await expect.poll(() => error.count(), POLL).toBe(1);
        expect(await error.locator('span').first().textContent()).toBe(tr(locale, 'error.KycWithdrawalException'));
        expect(await error.locator('a[data-error-link]').getAttribute('href')).toBe(inLocale('/profile/verification', locale));
        expect(await error.locator('a[data-error-link]').textContent()).toBe(
          tr(locale, 'cashier.error.button.KycWithdrawalException'),
        );
        expect(await headerBalance(page)).toBe(eur(50));
        await closeContext(context);
      });

      it('verified but with no confirmed contact: the confirm-contact message and a button to /profile/settings (spec §8)', async () => {
        const { context, page } = await newPlayer(locale);
        await depositBySandboxCalls(page, base, '50');
        await verifyIdentityByCalls(page);
        await requestWithdrawal(page, locale, 20);
        const error = page.locator('[data-form="withdraw"] [data-error-type="UserNeedConfirmContactException"]');
        await expect.poll(() => error.count(), POLL).toBe(1);
        expect(await error.locator('a[data-error-link]').getAttribute('href')).toBe(inLocale('/profile/settings', locale));
        await closeContext(context);
      });

      it('verified with a confirmed contact: the withdrawal is reserved, listed as pending, and cancelling returns the money', async () => {
        const { context, page, login } = await newPlayer(locale);
        await depositBySandboxCalls(page, base, '50');
        await verifyIdentityByCalls(page);
        await confirmContact(page, login);
        // More than the balance: refused by the form with the sum bounds, nothing sent.
        await requestWithdrawal(page, locale, 60);
        const dictionary = configSection<{ validationDict: Record<string, string> }>('forms-config', locale).validationDict;
        await expect
          .poll(() => page.locator('[data-form="withdraw"] [data-field="amount"] .field__error').textContent(), POLL)
          .toBe(validationMessage(validateSum('60', { min: 20, max: 50, currency: 'EUR' }), dictionary));
        await page.locator('[data-form="withdraw"] input[name="amount"]').fill('20');
        await page.click('[data-action="withdraw"]');
        const row = page.locator('[data-pending-withdrawals] [data-withdrawal]');
        await expect.poll(() => row.count(), POLL).toBe(1);
        expect(await row.getAttribute('data-status')).toBe('pending');
        await expect.poll(() => headerBalance(page), POLL).toBe(eur(30));
        expect(await page.locator('[data-available]').textContent()).toBe(eur(30));
        await row.locator('[data-action="cancel-withdrawal"]').click();
        await expect.poll(() => row.count(), POLL).toBe(0);
        await expect.poll(() => headerBalance(page), POLL).toBe(eur(50));
        await openCashier(page, locale, '/cashier/history?tab=withdrawal');
        await expect.poll(() => page.locator('[data-history-row]').first().getAttribute('data-status')).toBe('cancelled');
        await closeContext(context);
      });

      it('with a bonus from the deposit page’s promo code field active, the burn-bonuses dialog asks first: cancelled, nothing moves; agreed, the bonus is forfeited and the money reserved (issue 13)', async () => {
        const { context, page, login } = await newPlayer(locale);
        await depositBySandboxCalls(page, base, '50');
        await verifyIdentityByCalls(page);
        await confirmContact(page, login);
        // The promo code field of the deposit page (issue 13: promo code in the cashier) activates the code's bonus.
        await openCashier(page, locale, '/cashier/deposit');
        const promo = page.locator('[data-form="promo-code"]');
        await promo.locator('input[name="promo_code"]').fill('WELCOME10');
        await promo.locator('button[type="submit"]').click();
        const activated = page.locator('[data-dialog="promocode-activated"]');
        await expect.poll(() => activated.getAttribute('data-bonus-status'), POLL).toBe('active');
        await activated.locator('.button--ghost').click();
        await requestWithdrawal(page, locale, 20);
        const dialog = page.locator('.confirm');
        await expect
          .poll(() => dialog.locator('.dialog__title').textContent(), POLL)
          .toBe(tr(locale, 'cashier.withdraw.burn.title'));
        await dialog.locator('.button--ghost').click();
        const row = page.locator('[data-pending-withdrawals] [data-withdrawal]');
        expect(await row.count()).toBe(0);
        await expect.poll(() => headerBalance(page), POLL).toBe(eur(60));

        await page.click('[data-action="withdraw"]');
        await expect.poll(() => dialog.count(), POLL).toBe(1);
        await dialog.locator('.button--primary').click();
        await expect.poll(() => row.count(), POLL).toBe(1);
        await expect.poll(() => headerBalance(page), POLL).toBe(eur(30));
        const bonuses = await apiCall<{ items: { status: string }[] }>(page, 'GET', 'bonuses.get', {
          status: 'active,forfeited',
        });
        expect(bonuses.data?.items.map((item) => item.status)).toEqual(['forfeited']);
        await closeContext(context);
      });
    });
  }

  for (const locale of LOCALES) {
    it(`a deposit offer chosen on the deposit page pays its bonus with the deposit; bank transfer does not offer it (${locale}, spec §3 campaign_offer_id)`, async () => {
      const { context, page } = await newPlayer(locale);
      await openCashier(page, locale, '/cashier/deposit/bank-transfer');
      const offers = page.locator('[data-field="campaign_offer_id"] [data-offer]');
      // The welcome offer excludes bank transfer; the reload offer remains.
      await expect.poll(() => offers.count(), POLL).toBe(1);
      await openCashier(page, locale, '/cashier/deposit/card');
      await expect.poll(() => offers.count(), POLL).toBe(2);
      await offers.first().locator('input').check();
      await page.locator('[data-form="deposit"] input[name="amount"]').fill('40');
      await page.click('[data-action="deposit"]');
      await page.waitForURL(/\/psp\/sandbox\/pay\//);
      await payByCard(page, CARDS.success);
      await page.waitForURL(/\/cashier\/paysuccess\//);
      await expect.poll(() => page.locator('[data-payment-summary]').getAttribute('data-status'), POLL).toBe('success');
      await openCashier(page, locale, '/cashier/wallet');
      expect(await page.locator('[data-wallet-balances] [data-balance-row="bonus"] dd').textContent()).toBe(eur(40));
      expect(await page.locator('[data-wallet-balances] [data-balance-row="total"] dd').textContent()).toBe(eur(80));
      await closeContext(context);
    });
  }

  // The back office answers operators by token; the e2e server has one (e2e/global-setup.ts).
  const decide = (id: string, decision: 'approve' | 'decline') =>
    fetch(`${base}/backoffice/withdrawals/${encodeURIComponent(id)}/${decision}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${inject('backofficeToken')}`, 'content-type': 'application/json' },
      body: JSON.stringify(decision === 'decline' ? { reason: 'Documents do not match' } : {}),
    });

  for (const [locale, decision] of [
    ['en', 'approve'],
    ['it', 'decline'],
  ] as const) {
    it(`an operator ${decision}s a withdrawal: the player sees it ${decision === 'approve' ? 'paid out' : 'declined with the money back'} (${locale})`, async () => {
      const { context, page, login } = await newPlayer(locale);
      await depositBySandboxCalls(page, base, '50');
      await verifyIdentityByCalls(page);
      await confirmContact(page, login);
      await requestWithdrawal(page, locale, 25);
      const row = page.locator('[data-pending-withdrawals] [data-withdrawal]');
      await expect.poll(() => row.count(), POLL).toBe(1);
      const id = (await row.getAttribute('data-withdrawal')) ?? '';
      expect((await decide(id, decision)).status).toBe(200);
      await openCashier(page, locale, '/cashier/history?tab=withdrawal');
      await expect
        .poll(async () => {
          await page.reload();
          return page.locator(`[data-history-row="${id}"]`).getAttribute('data-status');
        }, POLL)
        .toBe(decision === 'approve' ? 'success' : 'declined');
      expect(await headerBalance(page)).toBe(eur(decision === 'approve' ? 25 : 50));
      await closeContext(context);
    });
  }

  for (const locale of LOCALES) {
    it(`history tabs: 4 rows a page, Load more appends, the tab is in the address and switching clears the list (${locale}, spec §4, §9)`, async () => {
      const { context, page } = await newPlayer(locale);
      // Five started deposits (not paid) are five rows of the deposit tab.
      for (let index = 0; index < 5; index++) {
        const started = await apiCall<{ id: string }>(page, 'POST', 'cashier.makedeposit', {
          method: 'card',
          amount: String(10 + index),
          flow: 'same_window',
        });
        expect(started.data?.id).toBeTruthy();
      }
      await openCashier(page, locale, '/cashier/history');
      const rows = page.locator('[data-history-tab="deposit"] [data-history-row]');
      await expect.poll(() => rows.count()).toBe(4);
      expect(await page.locator('[data-history-tab-link="deposit"]').getAttribute('aria-current')).toBe('page');
      // Newest first, dates as dd.mm.yyyy hh:mm, amounts as money, statuses in words.
      expect(await rows.first().locator('[data-amount]').textContent()).toBe(eur(14));
      expect(await rows.first().locator('.history-row__date').textContent()).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
      expect(await rows.first().locator('.history-row__status').textContent()).toBe(tr(locale, 'cashier.status.deposit.new'));
      await page.click('[data-action="load-more"]');
      await expect.poll(() => rows.count()).toBe(5);
      expect(await page.locator('[data-action="load-more"]').count()).toBe(0);
      expect(new Set(await rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-history-row')))).size).toBe(5);
      await page.click('[data-history-tab-link="withdrawal"]');
      await page.waitForURL(/tab=withdrawal/);
      await expect
        .poll(() => page.locator('[data-history-tab="withdrawal"] [data-history-empty]').textContent())
        .toBe(tr(locale, 'cashier.history.empty'));
      await page.click('[data-history-tab-link="deposit"]');
      await expect.poll(() => rows.count()).toBe(4);
      for (const tab of ['bonuses', 'cashbacks']) {
        await page.click(`[data-history-tab-link="${tab}"]`);
        await expect.poll(() => page.locator(`[data-history-tab="${tab}"]`).count()).toBe(1);
        expect(await page.locator(`[data-history-tab-link="${tab}"]`).textContent()).toBe(
          tr(locale, `cashier.history.tab.${tab}`),
        );
      }
      // The wallet: balances with their total, and the 4 most recent transactions.
      await openCashier(page, locale, '/cashier/wallet');
      expect(await page.locator('[data-wallet-balances] [data-balance-row="total"] dd').textContent()).toBe(eur(0));
      expect(await page.locator('[data-recent-transactions] [data-history-row]').count()).toBe(4);
      expect(await page.locator('[data-cashier-tab="wallet"]').textContent()).toBe(tr(locale, 'cashier.nav.wallet'));
      await closeContext(context);
    });
  }
});
