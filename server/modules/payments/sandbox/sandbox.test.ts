import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/api-harness';
import { testDatabaseKinds } from '../../../../test/databases';
import { siteSeed } from '../../../../test/fixtures';
import { WebhookRejectedError, type CreatePaymentInput } from '../provider';
import { createJobHandlers } from '../../../job-handlers';
import { jobBackoffMs } from '../../jobs';
import { createSandboxPsp, SandboxPaymentNotFoundError, type SandboxPsp } from './service';
import { readSandboxSettings, isPicked, type SandboxSettings } from './settings';
import { MAX_SIGNATURE_AGE_S, SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER, webhookHeaders } from './signature';
import { cardProblems, isDeclinedPayout, isLuhnValid, PAYOUT_DECLINE_IBAN } from './test-cards';
import { crc16, pixPayload } from './pix';
import { createTestReceiver } from './test-receiver';
import { demoSecret } from '../../sites';

const SITE = 'aurora';
const ORIGIN = 'http://127.0.0.1';
const SECRET = 'test-only-sandbox-psp-secret';
const CARD = { holder: 'Ada Lovelace', expiry: '12/39', cvc: '123' };
const MINUTE = 60_000;

describe('sandbox settings and rules', () => {
  it('reads payments.sandbox from a site’s settings with defaults, and refuses a missing or short secret', () => {
    expect(readSandboxSettings({ payments: { sandbox: { secret: SECRET } } })).toEqual({
      secret: SECRET,
      duplicateRate: 0,
      outOfOrder: false,
      settleDelayMs: 3000,
    });
    expect(readSandboxSettings({ payments: { sandbox: { secret: 'short' } } })).toBeUndefined();
    expect(readSandboxSettings({})).toBeUndefined();
  });

  it('every demo site has its own published sandbox secret, and content carries none (issue 11)', () => {
    const secrets = ['aurora', 'lagoon', 'sprint'].map((id) => demoSecret(id, 'PSP_SANDBOX'));
    expect(secrets.every((secret) => secret?.startsWith('sandbox-only-not-a-secret'))).toBe(true);
    expect(new Set(secrets).size).toBe(3);
    for (const id of ['aurora', 'lagoon', 'sprint']) expect(readSandboxSettings(siteSeed(id).settings)).toBeUndefined();
  });

  it('chaos picks are deterministic per event id and follow the rate', () => {
    expect(isPicked('evt_a', 0)).toBe(false);
    expect(isPicked('evt_a', 1)).toBe(true);
    expect(isPicked('evt_a', 0.5)).toBe(isPicked('evt_a', 0.5));
    const picked = Array.from({ length: 2000 }, (_, n) => isPicked(`evt_${n}`, 0.25)).filter(Boolean).length;
    expect(picked).toBeGreaterThan(400);
    expect(picked).toBeLessThan(600);
  });

  it('card form: Luhn, holder, MM/YY expiry not in the past, 3-4 digit CVC, test cards only', () => {
    const now = new Date('2030-06-15T00:00:00Z');
    expect(isLuhnValid('4242424242424242')).toBe(true);
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(cardProblems({ number: '4242 4242 4242 4242', holder: 'Ada Lovelace', expiry: '06/30', cvc: '123' }, now)).toEqual({});
    expect(cardProblems({ number: '', holder: '', expiry: '', cvc: '' }, now)).toEqual({
      number: 'required',
      holder: 'required',
      expiry: 'required',
      cvc: 'required',
    });
    expect(cardProblems({ number: '4242424242424241', holder: '1', expiry: '13/30', cvc: '12' }, now)).toEqual({
      number: 'invalid',
      holder: 'invalid',
      expiry: 'invalid',
      cvc: 'invalid',
    });
    expect(cardProblems({ number: '5555555555554444', holder: 'Ada', expiry: '05/30', cvc: '1234' }, now)).toEqual({
      number: 'unknownCard',
      expiry: 'expired',
    });
  });

  it('payouts to an IBAN, account or card ending in 0002 are declined; the documented IBAN is a valid one', () => {
    expect(isDeclinedPayout({ iban: PAYOUT_DECLINE_IBAN, account_holder: 'Ada' })).toBe(true);
    expect(isDeclinedPayout({ card_number: '4000 0000 0000 0002' })).toBe(true);
    expect(isDeclinedPayout({ iban: 'DE89370400440532013000' })).toBe(false);
    expect(isDeclinedPayout({ account_holder: 'Ada 0002' })).toBe(false);
    const compact = PAYOUT_DECLINE_IBAN.slice(4) + PAYOUT_DECLINE_IBAN.slice(0, 4);
    const numeric = compact.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
    expect(BigInt(numeric) % 97n).toBe(1n);
  });

  it('the PIX copy-and-paste payload ends in the CRC16 of everything before it', () => {
    expect(crc16('123456789')).toBe('29B1');
    const payload = pixPayload({
      key: 'pix@sandbox-psp.example',
      merchantName: 'Aurora Casino',
      amountMinor: 12345n,
      currency: 'BRL',
      txid: 'sbx_pay_abc',
    });
    expect(payload.startsWith('000201')).toBe(true);
    expect(payload).toContain('5406123.45');
    expect(payload.slice(-4)).toBe(crc16(payload.slice(0, -4)));
  });
});

describe.each(testDatabaseKinds())('sandbox PSP on %s', (kind) => {
  let t: TestApp;
  let settings: SandboxSettings;
  let sandbox: SandboxPsp;
  let receiver: ReturnType<typeof createTestReceiver>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    // The sandbox over the app's database and queue, with settings the tests turn.
    sandbox = createSandboxPsp({
      db: t.db,
      jobs: t.services.jobs,
      siteSettings: async (siteId) => (siteId === SITE ? { payments: { sandbox: settings } } : undefined),
    });
  });
  afterAll(() => t?.close());
  beforeEach(() => {
    settings = { secret: SECRET, duplicateRate: 0, outOfOrder: false, settleDelayMs: MINUTE };
    receiver = createTestReceiver(sandbox, SITE);
  });

  const later = (ms: number) => new Date(Date.now() + ms);
  /** Runs every due job (deliveries and settlements) as if `ms` had passed. */
  const runJobs = (ms = 0) =>
    t.services.jobs.drain(
      sandbox.jobHandlers((request) => receiver.fetch(request)),
      { now: later(ms) },
    );

  function paymentInput(overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput {
    const reference = `dep_${randomBytes(6).toString('hex')}`;
    return {
      reference,
      amountMinor: 2500n,
      currency: 'EUR',
      method: 'card',
      returnUrls: {
        success: `${ORIGIN}/cashier/paysuccess/${reference}`,
        fail: `${ORIGIN}/cashier/payfail/${reference}`,
        pending: `${ORIGIN}/cashier/paypending/${reference}`,
        cancel: `${ORIGIN}/cashier/paycancel`,
      },
      notificationUrl: `${ORIGIN}/psp/sandbox/webhook`,
      customer: { id: 1, email: null, country: 'IT' },
      locale: 'en',
      siteId: SITE,
      ...overrides,
    };
  }

  async function paidByCard(number: string) {
    const created = await sandbox.createPayment(paymentInput());
    const result = await sandbox.payByCard(created.providerRef, { number, ...CARD });
    expect(result?.problems).toBeUndefined();
    return { ...created, payment: result?.payment };
  }

  describe('webhook signature (HMAC-SHA256 over timestamp and raw body)', () => {
    const body = JSON.stringify({
      id: 'evt_sig',
      type: 'payment.updated',
      created_at: new Date().toISOString(),
      data: {
        object: 'payment',
        id: 'sbx_pay_1',
        reference: 'dep_1',
        status: 'succeeded',
        amount_minor: '2500',
        currency: 'EUR',
        method: 'card',
        failure_reason: null,
      },
    });
    const parse = (headers: Record<string, string>, rawBody = body) =>
      sandbox.parseWebhook({ headers: new Headers(headers), rawBody, siteId: SITE });

    it('accepts a notification signed with the site secret and maps it to our event', async () => {
      expect(await parse(webhookHeaders(SECRET, body))).toEqual({
        eventId: 'evt_sig',
        kind: 'payment',
        reference: 'dep_1',
        providerRef: 'sbx_pay_1',
        status: 'success',
        amountMinor: 2500n,
        currency: 'EUR',
        occurredAt: expect.any(Date),
      });
    });

    it('rejects a forged signature (another secret)', async () => {
      await expect(parse(webhookHeaders('another-secret-of-16+', body))).rejects.toThrow(
        new WebhookRejectedError('signature mismatch'),
      );
    });

    it('rejects a tampered body under a genuine signature', async () => {
      const headers = webhookHeaders(SECRET, body);
      await expect(parse(headers, body.replace('"2500"', '"250000"'))).rejects.toThrow('signature mismatch');
    });

    it('rejects a stale timestamp (a replay of an old signed body), and one from the future', async () => {
      const old = Date.now() - (MAX_SIGNATURE_AGE_S + 5) * 1000;
      await expect(parse(webhookHeaders(SECRET, body, old))).rejects.toThrow('signature stale');
      await expect(parse(webhookHeaders(SECRET, body, Date.now() + (MAX_SIGNATURE_AGE_S + 5) * 1000))).rejects.toThrow(
        'signature stale',
      );
      // Within the window it is fine.
      await expect(parse(webhookHeaders(SECRET, body, Date.now() - 60_000))).resolves.toMatchObject({ eventId: 'evt_sig' });
    });

    it('rejects a timestamp changed after signing', async () => {
      const headers = webhookHeaders(SECRET, body);
      await expect(parse({ ...headers, [TIMESTAMP_HEADER]: String(Number(headers[TIMESTAMP_HEADER]) - 1) })).rejects.toThrow(
        'signature mismatch',
      );
    });

    it('rejects missing or malformed signature headers', async () => {
      await expect(parse({})).rejects.toThrow('signature missing');
      await expect(parse({ [TIMESTAMP_HEADER]: 'yesterday', [SIGNATURE_HEADER]: 'abc' })).rejects.toThrow('signature malformed');
    });

    it('rejects a correctly signed body that is not a notification', async () => {
      const junk = '{"hello":"world"}';
      await expect(parse(webhookHeaders(SECRET, junk), junk)).rejects.toThrow('malformed notification');
      const timestampS = Math.floor(Date.now() / 1000);
      await expect(
        parse(
          { [TIMESTAMP_HEADER]: String(timestampS), [SIGNATURE_HEADER]: signWebhook(SECRET, timestampS, 'not json') },
          'not json',
        ),
      ).rejects.toThrow('malformed notification');
    });

    it('rejects every notification for a site without a sandbox secret', async () => {
      await expect(
        sandbox.parseWebhook({ headers: new Headers(webhookHeaders(SECRET, body)), rawBody: body, siteId: 'lagoon' }),
      ).rejects.toThrow(WebhookRejectedError);
    });
  });

  describe('createPayment', () => {
    it('returns the hosted page on this origin and the provider reference', async () => {
      const created = await sandbox.createPayment(paymentInput());
      expect(created.providerRef).toMatch(/^sbx_pay_[0-9a-f]{32}$/);
      expect(created.redirectUrl).toBe(`/psp/sandbox/pay/${created.providerRef}`);
      expect((await sandbox.queryStatus('payment', created.providerRef, SITE)).status).toBe('pending');
    });

    it('is idempotent by merchant reference: the same request gives the same payment, another amount is refused', async () => {
      const input = paymentInput();
      const first = await sandbox.createPayment(input);
      expect(await sandbox.createPayment(input)).toEqual(first);
      await expect(sandbox.createPayment({ ...input, amountMinor: 9999n })).rejects.toThrow('already used');
    });

    it('refuses a site without sandbox settings (BillingUnavailableException)', async () => {
      await expect(sandbox.createPayment(paymentInput({ siteId: 'lagoon' }))).rejects.toMatchObject({
        type: 'BillingUnavailableException',
      });
    });
  });

  describe('card payments produce the right notifications', () => {
    it('4242 4242 4242 4242 succeeds: one "success" notification, delivered to the notification URL on the site’s host', async () => {
      const { providerRef, payment } = await paidByCard('4242424242424242');
      expect(payment?.status).toBe('succeeded');
      expect(payment?.cardLast4).toBe('4242');
      await runJobs();
      expect(receiver.statusesOf(providerRef)).toEqual(['success']);
      const [delivery] = receiver.deliveries.filter((d) => d.event?.providerRef === providerRef);
      expect(delivery).toMatchObject({ url: `${ORIGIN}/psp/sandbox/webhook`, host: '127.0.0.1' });
      expect(delivery?.event).toMatchObject({ kind: 'payment', amountMinor: 2500n, currency: 'EUR' });
    });

    it('4000 0000 0000 0002 is declined: one "fail" notification', async () => {
      const { providerRef, payment } = await paidByCard('4000000000000002');
      expect(payment).toMatchObject({ status: 'failed', failureReason: 'card_declined' });
      await runJobs();
      expect(receiver.statusesOf(providerRef)).toEqual(['fail']);
    });

    it('4000 0000 0000 3220 asks for 3-D Secure; nothing is sent until the code is answered; 123456 passes', async () => {
      const { providerRef, payment } = await paidByCard('4000000000003220');
      expect(payment?.status).toBe('awaiting_3ds');
      await runJobs();
      expect(receiver.statusesOf(providerRef)).toEqual([]);
      expect((await sandbox.answerChallenge(providerRef, '123456'))?.status).toBe('succeeded');
      await runJobs();
      expect(receiver.statusesOf(providerRef)).toEqual(['success']);
    });

    it('3-D Secure with a wrong code fails the payment', async () => {
      const { providerRef } = await paidByCard('4000000000003220');
      expect(await sandbox.answerChallenge(providerRef, '000000')).toMatchObject({
        status: 'failed',
        failureReason: '3ds_failed',
      });
      // A second answer changes nothing: the outcome is final.
      expect((await sandbox.answerChallenge(providerRef, '123456'))?.status).toBe('failed');
      await runJobs();
      expect(receiver.statusesOf(providerRef)).toEqual(['fail']);
    });

    it('4000 0000 0000 0077 is pending, then settles to success after the delay (asynchronously)', async () => {
      const { providerRef, payment } = await paidByCard('4000000000000077');
      expect(payment?.status).toBe('processing');
      await runJobs();
      expect(receiver.statusesOf(providerRef)).toEqual(['pending']);
      await runJobs(MINUTE / 2);
      expect(receiver.statusesOf(providerRef)).toEqual(['pending']);
      await runJobs(MINUTE + 1000);
      expect(receiver.statusesOf(providerRef)).toEqual(['pending', 'success']);
      expect((await sandbox.queryStatus('payment', providerRef, SITE)).status).toBe('success');
    });

    it('a card form with problems changes nothing; a second submit of a paid payment changes nothing', async () => {
      const created = await sandbox.createPayment(paymentInput());
      const invalid = await sandbox.payByCard(created.providerRef, { number: '1234', ...CARD });
      expect(invalid?.problems).toEqual({ number: 'invalid' });
      expect(invalid?.payment.status).toBe('created');
      await sandbox.payByCard(created.providerRef, { number: '4242424242424242', ...CARD });
      const again = await sandbox.payByCard(created.providerRef, { number: '4000000000000002', ...CARD });
      expect(again?.payment.status).toBe('succeeded');
      await runJobs();
      expect(receiver.statusesOf(created.providerRef)).toEqual(['success']);
    });

    it('cancelling on the hosted page sends "cancel"', async () => {
      const created = await sandbox.createPayment(paymentInput());
      expect((await sandbox.cancel(created.providerRef))?.status).toBe('canceled');
      await runJobs();
      expect(receiver.statusesOf(created.providerRef)).toEqual(['cancel']);
    });
  });

  describe('instant payments and bank transfers settle asynchronously', () => {
    it('instant: "the bank confirms" sends pending now and success after the delay', async () => {
      const created = await sandbox.createPayment(paymentInput({ method: 'instant' }));
      expect((await sandbox.confirmInstant(created.providerRef))?.status).toBe('processing');
      await runJobs();
      expect(receiver.statusesOf(created.providerRef)).toEqual(['pending']);
      await runJobs(MINUTE + 1000);
      expect(receiver.statusesOf(created.providerRef)).toEqual(['pending', 'success']);
    });

    it('bank transfer: "I have sent it" stays pending; "the transfer arrives" settles to success', async () => {
      const waiting = await sandbox.createPayment(paymentInput({ method: 'bank_transfer' }));
      expect((await sandbox.announceTransfer(waiting.providerRef, false))?.status).toBe('processing');
      await runJobs(10 * MINUTE);
      expect(receiver.statusesOf(waiting.providerRef)).toEqual(['pending']);
      // The player comes back and the money does arrive.
      await sandbox.announceTransfer(waiting.providerRef, true);
      await runJobs(10 * MINUTE);
      expect(receiver.statusesOf(waiting.providerRef)).toEqual(['pending', 'success']);
    });
  });

  describe('chaos, as real providers show it', () => {
    it('with duplicateRate 1 every notification is sent twice, with the same event id', async () => {
      settings.duplicateRate = 1;
      const { providerRef } = await paidByCard('4242424242424242');
      await runJobs(10_000);
      const events = receiver.eventsOf(providerRef);
      expect(events.map((event) => event.status)).toEqual(['success', 'success']);
      expect(events[0]?.eventId).toBe(events[1]?.eventId);
    });

    it('with outOfOrder, the "pending" of an instant payment arrives after its "success"', async () => {
      settings.outOfOrder = true;
      const created = await sandbox.createPayment(paymentInput({ method: 'instant' }));
      await sandbox.confirmInstant(created.providerRef);
      await runJobs();
      expect(receiver.statusesOf(created.providerRef)).toEqual([]);
      await runJobs(MINUTE + 10_000);
      expect(receiver.statusesOf(created.providerRef)).toEqual(['success', 'pending']);
    });

    it('with both, a pending card gives success, pending, then the duplicates', async () => {
      Object.assign(settings, { outOfOrder: true, duplicateRate: 1 });
      const { providerRef } = await paidByCard('4000000000000077');
      await runJobs(MINUTE + 10_000);
      const statuses = receiver.statusesOf(providerRef);
      expect(statuses[0]).toBe('success');
      expect([...statuses].sort()).toEqual(['pending', 'pending', 'success', 'success']);
    });

    it('without chaos settings nothing is duplicated or reordered', async () => {
      const { providerRef } = await paidByCard('4000000000000077');
      await runJobs(MINUTE + 10_000);
      expect(receiver.statusesOf(providerRef)).toEqual(['pending', 'success']);
    });
  });

  describe('delivery retries', () => {
    it('retries with exponential backoff until the receiver answers 2xx, signing each attempt afresh', async () => {
      receiver.answerWith((attempt) => (attempt <= 2 ? 503 : 200));
      const { providerRef } = await paidByCard('4242424242424242');
      const start = Date.now();
      const at = (ms: number) =>
        t.services.jobs.runDue(
          sandbox.jobHandlers((request) => receiver.fetch(request)),
          { now: new Date(start + ms), limit: 50 },
        );

      await at(0);
      expect(receiver.deliveries.map((d) => d.answeredStatus)).toEqual([503]);
      // Not again before the backoff (2 s after attempt 1).
      await at(jobBackoffMs(1) - 500);
      expect(receiver.deliveries).toHaveLength(1);
      await at(jobBackoffMs(1) + 100);
      expect(receiver.deliveries.map((d) => d.answeredStatus)).toEqual([503, 503]);
      await at(jobBackoffMs(1) + jobBackoffMs(2) + 200);
      expect(receiver.deliveries.map((d) => d.answeredStatus)).toEqual([503, 503, 200]);
      expect(receiver.statusesOf(providerRef)).toEqual(['success']);
      // Acknowledged: no more attempts, however late.
      await at(24 * 60 * MINUTE);
      expect(receiver.deliveries).toHaveLength(3);

      const [event] = await sandbox.listEvents(providerRef);
      const log = await sandbox.listDeliveries(event?.id ?? '');
      expect(log.map((entry) => [entry.attempt, entry.responseStatus])).toEqual([
        [1, 503],
        [2, 503],
        [3, 200],
      ]);
      expect(receiver.deliveries.every((d) => d.rejection === undefined)).toBe(true);
      expect(new Set(receiver.deliveries.map((d) => d.rawBody)).size).toBe(1);
    });

    it('a receiver that cannot be reached counts as a failed attempt', async () => {
      const { providerRef } = await paidByCard('4242424242424242');
      const failing = sandbox.jobHandlers(async () => {
        throw new Error('connect ECONNREFUSED');
      });
      const result = await t.services.jobs.runDue(failing, { now: later(0), limit: 50 });
      expect(result.retried).toBeGreaterThanOrEqual(1);
      const [event] = await sandbox.listEvents(providerRef);
      expect((await sandbox.listDeliveries(event?.id ?? ''))[0]).toMatchObject({
        attempt: 1,
        responseStatus: null,
        error: 'connect ECONNREFUSED',
      });
      await runJobs(MINUTE);
      expect(receiver.statusesOf(providerRef)).toEqual(['success']);
    });
  });

  describe('payouts', () => {
    const payout = (requisites: Record<string, string>) => ({
      reference: `wd_${randomBytes(6).toString('hex')}`,
      amountMinor: 5000n,
      currency: 'EUR',
      method: 'bank_transfer' as const,
      requisites,
      notificationUrl: `${ORIGIN}/psp/sandbox/webhook`,
      siteId: SITE,
    });

    it('a payout is pending at first and settles to success by webhook after the delay', async () => {
      const input = payout({ bank: 'Sandbox Bank', account_holder: 'Ada Lovelace', iban: 'DE89370400440532013000' });
      const created = await sandbox.createPayout(input);
      expect(created).toMatchObject({ providerRef: expect.stringMatching(/^sbx_po_/), status: 'pending' });
      expect(await sandbox.createPayout(input)).toEqual(created);
      await runJobs();
      expect(receiver.statusesOf(created.providerRef)).toEqual([]);
      await runJobs(MINUTE + 1000);
      const [event] = receiver.eventsOf(created.providerRef);
      expect(event).toMatchObject({ kind: 'payout', status: 'success', reference: input.reference, amountMinor: 5000n });
      expect(await sandbox.queryStatus('payout', created.providerRef, SITE)).toEqual({
        status: 'success',
        amountMinor: 5000n,
        currency: 'EUR',
      });
    });

    it(`a payout to an IBAN ending in 0002 (${PAYOUT_DECLINE_IBAN}) fails`, async () => {
      const created = await sandbox.createPayout(payout({ account_holder: 'Ada Lovelace', iban: PAYOUT_DECLINE_IBAN }));
      await runJobs(MINUTE + 1000);
      expect(receiver.statusesOf(created.providerRef)).toEqual(['fail']);
      expect((await sandbox.queryStatus('payout', created.providerRef, SITE)).status).toBe('fail');
    });
  });

  describe('queryStatus', () => {
    it('answers the status, amount and currency of a payment of this site', async () => {
      const { providerRef } = await paidByCard('4000000000000002');
      expect(await sandbox.queryStatus('payment', providerRef, SITE)).toEqual({
        status: 'fail',
        amountMinor: 2500n,
        currency: 'EUR',
      });
    });

    it('knows nothing of an unknown reference, another site’s payment, or the wrong kind', async () => {
      const { providerRef } = await paidByCard('4242424242424242');
      await expect(sandbox.queryStatus('payment', 'sbx_pay_nope', SITE)).rejects.toThrow(SandboxPaymentNotFoundError);
      await expect(sandbox.queryStatus('payment', providerRef, 'lagoon')).rejects.toThrow(SandboxPaymentNotFoundError);
      await expect(sandbox.queryStatus('payout', providerRef, SITE)).rejects.toThrow(SandboxPaymentNotFoundError);
    });
  });

  describe('the services’ sandbox', () => {
    it('signs with the demo site’s published secret (not content’s) and delivers through the app’s own fetch', async () => {
      const services = t.services;
      const created = await services.payments.sandbox.createPayment(paymentInput());
      await services.payments.sandbox.payByCard(created.providerRef, { number: '4242424242424242', ...CARD });
      const seedSecret = demoSecret(SITE, 'PSP_SANDBOX') ?? '';
      const seen: Array<{ path: string; isSigned: boolean }> = [];
      await services.jobs.drain(
        createJobHandlers(services, async (request) => {
          const rawBody = await request.text();
          const timestampS = Number(request.headers.get(TIMESTAMP_HEADER));
          seen.push({
            path: new URL(request.url).pathname,
            isSigned: request.headers.get(SIGNATURE_HEADER) === signWebhook(seedSecret, timestampS, rawBody),
          });
          return new Response('ok');
        }),
      );
      expect(seen).toContainEqual({ path: '/psp/sandbox/webhook', isSigned: true });
      expect(services.payments.providerFor('sandbox')).toBe(services.payments.sandbox);
      expect(services.payments.providerFor('nope')).toBeUndefined();
    });
  });
});
