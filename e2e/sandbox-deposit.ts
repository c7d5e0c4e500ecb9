/**
 * A deposit as a player makes it in the browser: the cashier's card method, then the sandbox
 * PSP's card page with a card the sandbox approves (docs: sandbox PSP test cards), ending on the
 * payment success page. For browser tests that need real money on the balance, and with a
 * deposit offer chosen on the deposit page (spec §3 campaign_offer_id) for those that need its bonus.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { waitForHydration } from './browser';

export const APPROVED_CARD = '4242424242424242';

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
  await page.fill('input[name="holder"]', 'Test Player');
  await page.fill('input[name="expiry"]', '12/39');
  await page.fill('input[name="cvc"]', '123');
  await page.click('[data-action="pay"]');
  await page.waitForURL(/\/cashier\/paysuccess\//);
  await expect
    .poll(() => page.locator('[data-payment-summary]').getAttribute('data-status'), { timeout: 20_000 })
    .toBe('success');
}
