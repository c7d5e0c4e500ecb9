/**
 * The cashier with the real sandbox provider end to end (money issue: "a forged, replayed,
 * duplicated or out-of-order webhook … a crash between provider confirmation and our commit.
 * Each gets a clear error or is absorbed, and the ledger check passes afterwards").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { registeredPlayer, type Browser } from '../../../test/player';
import { createJobHandlers } from '../../job-handlers';
import { sites } from '../../db/schema';
import { checkLedger } from '../wallet';

describe.each(testDatabaseKinds())('cashier with the sandbox provider on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    // Every notification twice, and an instant payment's "pending" after its "success".
    await t.db
      .update(sites)
      .set({
        settings: sql`jsonb_set(jsonb_set(${sites.settings}, '{payments,sandbox,duplicateRate}', '1'), '{payments,sandbox,outOfOrder}', 'true')`,
      })
      .where(eq(sites.id, 'aurora'));
    t.services.sites.invalidate();
  });
  afterAll(() => t.close());

  const later = (ms: number) => ({ now: new Date(Date.now() + ms) });
  const deliver = (ms = 0) =>
    t.services.jobs.drain(
      createJobHandlers(t.services, (request) => t.app.fetch(request)),
      later(ms),
    );
  const balance = async (browser: Browser) =>
    browser.data<{ balance_main: { amount: string } }>(await browser.call('account.getBalance', {}, 'GET')).balance_main.amount;
  const status = async (browser: Browser, id: string) =>
    browser.data<{ status: string }>(await browser.call('cashier.getdepositinfo', { id }, 'GET')).status;

  it('an instant payment notified twice and out of order is credited once and stays successful', async () => {
    const { browser } = await registeredPlayer(t);
    const start = browser.data<{ id: string; redirect_url: string }>(
      await browser.call('cashier.makedeposit', { method: 'pix', amount: '40', 'requisites[document_number]': '12345678909' }),
    );
    const ref = start.redirect_url.split('/').pop() ?? '';
    await t.services.payments.sandbox.confirmInstant(ref);
    await deliver(60_000);
    await deliver(120_000);
    expect(await status(browser, start.id)).toBe('success');
    expect(await balance(browser)).toBe('40.00');
    expect((await checkLedger(t.db)).isSound).toBe(true);
  });

  it('a crash before our commit leaves the notification unacknowledged; the retry credits it, once', async () => {
    const { browser } = await registeredPlayer(t);
    const start = browser.data<{ id: string; redirect_url: string }>(
      await browser.call('cashier.makedeposit', { method: 'card', amount: '25' }),
    );
    await t.request(`${start.redirect_url}/card`, {
      method: 'POST',
      body: new URLSearchParams({ number: '4242 4242 4242 4242', holder: 'Ada Lovelace', expiry: '12/39', cvc: '123' }),
    });
    const cashier = t.services.cashier;
    const apply = cashier.applyProviderEvent;
    let crashes = 0;
    // The process "dies" inside our handling: nothing committed, the provider sees a 5xx.
    cashier.applyProviderEvent = async () => {
      crashes++;
      throw new Error('process crashed before commit');
    };
    try {
      await deliver();
    } finally {
      cashier.applyProviderEvent = apply;
    }
    expect(crashes).toBeGreaterThan(0);
    expect(await status(browser, start.id)).toBe('new');
    await deliver(10 * 60_000);
    expect(await status(browser, start.id)).toBe('success');
    expect(await balance(browser)).toBe('25.00');
    expect((await checkLedger(t.db)).isSound).toBe(true);
  });
});
