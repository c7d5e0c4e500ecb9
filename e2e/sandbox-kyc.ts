/**
 * Identity verification by the calls the profile's verification page and the KYC sandbox's hosted
 * page make, without rendering them: the page's account.setUserOnVerification,
 * verification.createApplicant and verification.getAccessToken, then the sandbox form's approve
 * post (the sandbox then sends its signed review events to our webhook, as a real provider does).
 * For tests whose subject is what a verified player may do, such as a withdrawal: two page loads
 * fewer each (issue 12: the suite's time). The page and its dialog are accounts.test.ts's subject.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall } from './page-api';

export async function verifyIdentityByCalls(page: Page): Promise<void> {
  expect((await apiCall(page, 'POST', 'account.setUserOnVerification', {})).data).toBe(1);
  expect((await apiCall(page, 'POST', 'verification.createApplicant', {})).error).toBeUndefined();
  const access = await apiCall<{ token: string }>(page, 'POST', 'verification.getAccessToken', {});
  expect(access.error).toBeUndefined();
  const answer = await page.evaluate(async (token) => {
    const form = new URLSearchParams({ token, document_type: 'ID_CARD', document_number: 'AB123456', decision: 'approve' });
    const response = await fetch('/kyc/sandbox/decision', { method: 'POST', body: form });
    return `${response.status}: ${await response.text()}`;
  }, access.data!.token);
  // The sandbox answers once our webhook has taken its review events.
  expect(answer).toMatch(/^200: .*Approved/s);
  await expect
    .poll(async () => (await apiCall<{ is_verified: boolean }>(page, 'GET', 'account.getInfo', {})).data?.is_verified, {
      timeout: 20_000,
    })
    .toBe(true);
}
