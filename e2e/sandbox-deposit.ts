/**
 * A deposit as a player makes it in the browser: the cashier's card method, then the sandbox
 * PSP's card page with a card the sandbox approves (docs: sandbox PSP test cards), ending on the
 * payment success page. For browser tests that need real money on the balance, and with a
 * deposit offer chosen on the deposit page (spec §3 campaign_offer_id) for those that need its bonus.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { waitForHydration } from './browser';
import { apiCall, BARE_DOCUMENT } from './page-api';

export const APPROVED_CARD = '4242424242424242';
/** The rest of the card form, as a player fills it in. */
const CARD_DETAILS = { holder: 'Test Player', expiry: '12/39', cvc: '123' };

export async function depositWithSandboxCard(
  page: Page,
  base: string,
  amount: string,
  prefix = '',
  offerId?: number,
): Promise<void> {
  await page.goto(`${base}${prefix}/cashier/deposit/card`);
  await waitForHydration(page);
  if (offerId !== undefined) await page.locator(`[data-field="campaign_offer_id"] [data-offer="${offerId}"] input`).check();
  await page.locator('[data-form="deposit"] input[name="amount"]').fill(amount);
  await page.click('[data-action="deposit"]');
  await page.waitForURL(/\/psp\/sandbox\/pay\//);
  await page.fill('input[name="number"]', APPROVED_CARD);
  for (const [name, value] of Object.entries(CARD_DETAILS)) await page.fill(`input[name="${name}"]`, value);
  await page.click('[data-action="pay"]');
  await page.waitForURL(/\/cashier\/paysuccess\//);
  await expect
    .poll(() => page.locator('[data-payment-summary]').getAttribute('data-status'), { timeout: 20_000 })
    .toBe('success');
}

/**
 * The same deposit by the calls those pages make, without rendering them: cashier.makedeposit as
 * the deposit page sends it, the sandbox card form's post as its page sends it (the sandbox PSP
 * then notifies the site by its signed webhook, as for any payment), and cashier.getdepositinfo as
 * the result page polls it, until the deposit is credited. For tests whose subject is what the
 * money is for: three page loads fewer each (issue 12: the suite's time). The pages themselves are
 * cashier.test.ts's subject, and content-security-policy.test.ts goes through them above.
 */
export async function depositBySandboxCalls(page: Page, base: string, amount: string, offerId?: number): Promise<void> {
  // The calls go from a document of the site, as the cashier's would: a bare one if the page is elsewhere.
  if (new URL(page.url()).origin !== new URL(base).origin) await page.goto(`${base}${BARE_DOCUMENT}`);
  const start = await apiCall<{ id: string; redirect_url: string }>(page, 'POST', 'cashier.makedeposit', {
    method: 'card',
    amount,
    ...(offerId === undefined ? {} : { campaign_offer_id: String(offerId) }),
  });
  expect(start.error).toBeUndefined();
  const { id, redirect_url: cardPage } = start.data!;
  const answer = await page.evaluate(
    async ({ cardPage, fields }) => {
      const card = new URLSearchParams(fields);
      const response = await fetch(`${cardPage}/card`, { method: 'POST', body: card, redirect: 'manual' });
      return response.type === 'opaqueredirect' ? 'redirected' : `${response.status}: ${await response.text()}`;
    },
    { cardPage, fields: { number: APPROVED_CARD, ...CARD_DETAILS } },
  );
  // The card page answers an approved card by sending the browser on to the result page.
  expect(answer).toBe('redirected');
  await expect
    .poll(async () => (await apiCall<{ status: string }>(page, 'GET', 'cashier.getdepositinfo', { id })).data?.status, {
      timeout: 20_000,
    })
    .toBe('success');
}
