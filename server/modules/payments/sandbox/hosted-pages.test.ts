import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/api-harness';
import { testDatabaseKinds } from '../../../../test/databases';
import { registeredPlayer } from '../../../../test/player';
import { createJobHandlers } from '../../../job-handlers';
import type { CreatePaymentInput } from '../provider';
import { crc16 } from './pix';

const SITE = 'aurora';
const ORIGIN = 'http://127.0.0.1';
const CARD = { holder: 'Ada Lovelace', expiry: '12/39', cvc: '123' };

describe.each(testDatabaseKinds())('sandbox PSP hosted pages on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  async function created(overrides: Partial<CreatePaymentInput> = {}) {
    const reference = `dep_${randomBytes(6).toString('hex')}`;
    const returnUrls = {
      success: `${ORIGIN}/cashier/paysuccess/${reference}`,
      fail: `${ORIGIN}/cashier/payfail/${reference}`,
      pending: `${ORIGIN}/cashier/paypending/${reference}`,
      cancel: `${ORIGIN}/cashier/paycancel`,
    };
    const payment = await t.services.payments.sandbox.createPayment({
      reference,
      amountMinor: 2500n,
      currency: 'EUR',
      method: 'card',
      returnUrls,
      notificationUrl: `${ORIGIN}/psp/sandbox/webhook`,
      customer: { id: 1, email: null, country: 'IT' },
      locale: 'en',
      siteId: SITE,
      ...overrides,
    });
    return { ...payment, returnUrls };
  }

  const page = async (path: string, host?: string) => {
    const response = await t.request(path, { host });
    return { status: response.status, html: await response.text(), location: response.headers.get('location') };
  };
  const post = async (path: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) => {
    const response = await t.request(path, { method: 'POST', body: new URLSearchParams(fields), headers });
    return { status: response.status, html: await response.text(), location: response.headers.get('location') };
  };
  const pay = (redirectUrl: string, number: string, card = CARD) => post(`${redirectUrl}/card`, { number, ...card });
  /** Runs the queue as if `ms` had passed, delivering notifications to a receiver that accepts them. */
  const runJobs = (ms = 0) =>
    t.services.jobs.drain(
      createJobHandlers(t.services, async () => new Response('ok')),
      { now: new Date(Date.now() + ms) },
    );

  it('the card page shows the merchant, the amount, the form and the test cards, in English', async () => {
    const { redirectUrl } = await created();
    const { status, html } = await page(redirectUrl);
    expect(status).toBe(200);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Pay by card');
    expect(html).toContain('Aurora Casino');
    expect(html).toContain('€25.00');
    for (const number of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0000 0000 3220', '4000 0000 0000 0077'])
      expect(html).toContain(number);
    expect(html).toMatch(/name="number"[^>]*autocomplete="cc-number"/);
    expect(html).toContain('Cancel and go back to Aurora Casino');
    expect(html).toContain('noindex');
  });

  it('the card page is in Italian when the payment was created in Italian', async () => {
    const { redirectUrl } = await created({ locale: 'it' });
    const { html } = await page(redirectUrl);
    expect(html).toContain('<html lang="it">');
    expect(html).toContain('Paga con carta');
    expect(html).toContain('Carte di prova');
    expect(html).toContain('Annulla e torna a Aurora Casino');
  });

  it('validation messages name each wrong field (en and it) and nothing is charged; the CVC is not echoed', async () => {
    const { redirectUrl, providerRef } = await created();
    const en = await pay(redirectUrl, '4242 4242 4242 4241', { holder: '', expiry: '13/30', cvc: '98' });
    expect(en.status).toBe(400);
    expect(en.html).toContain('This card number is not valid');
    expect(en.html).toContain('Enter the name on the card');
    expect(en.html).toContain('Use the MM/YY format');
    expect(en.html).toContain('The CVC has 3 or 4 digits');
    expect(en.html).toContain('value="4242 4242 4242 4241"');
    expect(en.html).not.toContain('value="98"');
    expect((await t.services.payments.sandbox.queryStatus('payment', providerRef, SITE)).status).toBe('pending');

    const it_ = await created({ locale: 'it' });
    const italian = await pay(it_.redirectUrl, '5555 5555 5555 4444', { ...CARD, expiry: '01/20' });
    expect(italian.html).toContain('Non è una carta di prova della sandbox');
    expect(italian.html).toContain('Questa carta è scaduta');
  });

  it('4242… redirects the browser to the success return URL (the webhook is queued, not yet sent)', async () => {
    const { redirectUrl, providerRef, returnUrls } = await created();
    const answer = await pay(redirectUrl, '4242 4242 4242 4242');
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(returnUrls.success);
    const [event] = await t.services.payments.sandbox.listEvents(providerRef);
    expect(event?.status).toBe('succeeded');
    expect(await t.services.jobs.findByKey(`psp-sandbox:deliver:${event?.id}:1`)).toMatchObject({ doneAt: null });
    // Coming back to the page shows the outcome and leads on to the same address.
    const again = await page(redirectUrl);
    expect(again.html).toContain('Payment successful');
    expect(again.html).toContain(`url=${returnUrls.success}`);
  });

  it('a stored return URL off the merchant site is never followed: the page itself shows the outcome (issue 11: payment returns)', async () => {
    const evil = {
      success: 'https://evil.example/paysuccess',
      fail: 'http://127.0.0.1.evil.example/payfail',
      pending: `${ORIGIN}/.//evil.example`,
      cancel: 'https://user@evil.example/',
    };
    const { redirectUrl } = await created({ returnUrls: evil });
    const answer = await pay(redirectUrl, '4242 4242 4242 4242');
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(redirectUrl);
    const shown = await page(redirectUrl);
    expect(shown.html).toContain('Payment successful');
    expect(shown.html).not.toContain('evil.example');
    expect(shown.html).not.toContain('http-equiv="refresh"');
    const pending = await created({ returnUrls: evil, method: 'bank_transfer' });
    const waiting = await post(`${pending.redirectUrl}/bank`, { arrives: '1' });
    expect(new URL(waiting.location ?? '', ORIGIN).origin).toBe(ORIGIN);
    expect(waiting.location).not.toContain('evil.example');
  });

  it('4000 0000 0000 0002 redirects to the fail return URL', async () => {
    const { redirectUrl, returnUrls } = await created();
    expect((await pay(redirectUrl, '4000000000000002')).location).toBe(returnUrls.fail);
    expect((await page(redirectUrl)).html).toContain('The bank declined the card.');
  });

  it('4000 0000 0000 3220 goes to the 3-D Secure page, which shows its code; 123456 leads to success', async () => {
    const { redirectUrl, returnUrls } = await created();
    const answer = await pay(redirectUrl, '4000 0000 0000 3220');
    expect(answer.location).toBe(`${redirectUrl}/3ds`);
    const challenge = await page(`${redirectUrl}/3ds`);
    expect(challenge.html).toContain('3-D Secure verification');
    expect(challenge.html).toContain('the code is 123456');
    expect(challenge.html).toContain('ending in 3220');
    expect((await post(`${redirectUrl}/3ds`, { code: '123456' })).location).toBe(returnUrls.success);
  });

  it('a wrong 3-D Secure code leads to the fail return URL (Italian page shown before)', async () => {
    const { redirectUrl, returnUrls } = await created({ locale: 'it' });
    await pay(redirectUrl, '4000000000003220');
    expect((await page(`${redirectUrl}/3ds`)).html).toContain('Verifica 3-D Secure');
    expect((await post(`${redirectUrl}/3ds`, { code: '654321' })).location).toBe(returnUrls.fail);
  });

  it('4000 0000 0000 0077 redirects to the pending return URL', async () => {
    const { redirectUrl, returnUrls } = await created();
    expect((await pay(redirectUrl, '4000000000000077')).location).toBe(returnUrls.pending);
  });

  it('instant payment: a QR code of a PIX payload; "the bank confirms" → the page waits (polls), then shows success and leads to the success URL', async () => {
    const { redirectUrl, returnUrls } = await created({ method: 'instant', currency: 'BRL', amountMinor: 10000n });
    const first = await page(redirectUrl);
    expect(first.html).toContain('Instant payment (PIX)');
    expect(first.html).toContain('<svg');
    const payload = /data-pix-payload>([^<]+)</.exec(first.html)?.[1] ?? '';
    expect(payload).toContain('br.gov.bcb.pix');
    expect(payload).toContain('5406100.00');
    expect(payload.slice(-4)).toBe(crc16(payload.slice(0, -4)));

    expect((await post(`${redirectUrl}/instant/confirm`)).location).toBe(redirectUrl);
    const waiting = await page(redirectUrl);
    expect(waiting.html).toContain('Waiting for your bank to confirm');
    expect(waiting.html).toMatch(/http-equiv="refresh" content="2"/);

    await runJobs(60_000);
    const done = await page(redirectUrl);
    expect(done.html).toContain('Payment successful');
    expect(done.html).toContain(`content="3;url=${returnUrls.success}"`);
  });

  it('instant payment page in Italian', async () => {
    const { redirectUrl } = await created({ method: 'instant', locale: 'it' });
    const { html } = await page(redirectUrl);
    expect(html).toContain('Pagamento istantaneo (PIX)');
    expect(html).toContain('Simula: la banca conferma');
  });

  it('bank transfer: the reference and bank details; "the transfer arrives" returns the player as pending at once', async () => {
    const { redirectUrl, returnUrls, providerRef } = await created({ method: 'bank_transfer' });
    const details = await page(redirectUrl);
    expect(details.html).toContain('Bank transfer');
    expect(details.html).toContain('GB33 BUKB 2020 1555 5555 55');
    expect(details.html).toContain(`SBX-${providerRef.slice(-10).toUpperCase()}`);
    expect((await post(`${redirectUrl}/bank`, { arrives: '1' })).location).toBe(returnUrls.pending);
    expect((await t.services.payments.sandbox.queryStatus('payment', providerRef, SITE)).status).toBe('pending');
    await runJobs(60_000);
    expect((await t.services.payments.sandbox.queryStatus('payment', providerRef, SITE)).status).toBe('success');
  });

  it('bank transfer page in Italian', async () => {
    const { redirectUrl } = await created({ method: 'bank_transfer', locale: 'it' });
    const { html } = await page(redirectUrl);
    expect(html).toContain('Bonifico bancario');
    expect(html).toContain('Causale');
  });

  it('every page has a cancel button leading to the cancel return URL', async () => {
    for (const method of ['card', 'instant', 'bank_transfer'] as const) {
      const { redirectUrl, returnUrls, providerRef } = await created({ method });
      expect((await page(redirectUrl)).html).toContain(`action="${redirectUrl}/cancel"`);
      expect((await post(`${redirectUrl}/cancel`)).location).toBe(returnUrls.cancel);
      expect((await t.services.payments.sandbox.queryStatus('payment', providerRef, SITE)).status).toBe('cancel');
    }
    const { redirectUrl } = await created();
    await pay(redirectUrl, '4000000000003220');
    expect((await page(`${redirectUrl}/3ds`)).html).toContain(`action="${redirectUrl}/cancel"`);
  });

  it('an unknown payment, or one of another site, is "not valid" (404)', async () => {
    expect((await page('/psp/sandbox/pay/sbx_pay_unknown')).status).toBe(404);
    const { redirectUrl } = await created();
    const elsewhere = await page(redirectUrl, 'lagoon.localhost');
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.html).toContain('This payment link is not valid.');
  });

  it('a form posted from another site is refused (CSRF)', async () => {
    const { redirectUrl, providerRef } = await created();
    const answer = await post(
      `${redirectUrl}/card`,
      { number: '4242424242424242', ...CARD },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(answer.status).toBe(403);
    expect((await t.services.payments.sandbox.queryStatus('payment', providerRef, SITE)).status).toBe('pending');
  });

  it('a deposit made through the cashier is credited by the webhook only, never by the redirect', async () => {
    const player = await registeredPlayer(t);
    const start = player.browser.data<{ id: string; redirect_url: string }>(
      await player.browser.call('cashier.makedeposit', { method: 'card', amount: '25' }),
    );
    const answer = await pay(start.redirect_url, '4242 4242 4242 4242');
    expect(answer.location).toBe(`${ORIGIN}/cashier/paysuccess/${start.id}`);
    const info = async () =>
      player.browser.data<{ status: string }>(await player.browser.call('cashier.getdepositinfo', { id: start.id }, 'GET'));
    expect((await info()).status).not.toBe('success');

    // The sandbox's webhook reaches our /psp/sandbox/webhook through the app itself.
    await t.services.jobs.drain(createJobHandlers(t.services, (request) => t.app.fetch(request)));
    expect((await info()).status).toBe('success');
    const balance = player.browser.data<{ balance_main: { amount: string } }>(
      await player.browser.call('account.getBalance', {}, 'GET'),
    );
    expect(balance.balance_main.amount).toBe('25.00');
  });
});
