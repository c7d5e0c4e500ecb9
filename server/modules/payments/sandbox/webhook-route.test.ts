import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/api-harness';
import { testDatabaseKinds } from '../../../../test/databases';
import type { AppEnv } from '../../../web/app-env';
import { createPspWebhookRoutes, type ProviderEventSink } from '../../../web/psp-webhooks';
import { createJobHandlers } from '../../../job-handlers';
import type { ProviderEvent } from '../provider';
import { demoSecret } from '../../sites';
import { webhookHeaders } from './signature';

const ORIGIN = 'http://127.0.0.1';
/** The demo sites' published sandbox secrets (server/modules/sites/demo-trust.ts). */
const AURORA_SECRET = demoSecret('aurora', 'PSP_SANDBOX') ?? '';
const LAGOON_SECRET = demoSecret('lagoon', 'PSP_SANDBOX') ?? '';

function notification(overrides: { status?: string; id?: string } = {}) {
  return JSON.stringify({
    id: overrides.id ?? `evt_${randomBytes(6).toString('hex')}`,
    type: 'payment.updated',
    created_at: new Date().toISOString(),
    data: {
      object: 'payment',
      id: 'sbx_pay_x',
      reference: 'dep_x',
      status: overrides.status ?? 'succeeded',
      amount_minor: '2500',
      currency: 'EUR',
      method: 'card',
      failure_reason: null,
    },
  });
}

describe.each(testDatabaseKinds())('POST /psp/{provider}/webhook on %s', (kind) => {
  let t: TestApp;
  /** Our webhook route in a small app, with a sink the tests control in place of the cashier. */
  let small: Hono<AppEnv>;
  let applied: Array<{ siteId: string; provider: string; event: ProviderEvent }>;
  let sinkFailure: Error | undefined;
  let hasSink: boolean;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const sink: ProviderEventSink = {
      async applyProviderEvent(siteId, provider, event) {
        if (sinkFailure) throw sinkFailure;
        const isDuplicate = applied.some((seen) => seen.event.eventId === event.eventId);
        if (!isDuplicate) applied.push({ siteId, provider, event });
        return isDuplicate ? 'duplicate' : 'applied';
      },
    };
    small = new Hono<AppEnv>();
    small.use('*', async (c, next) => {
      c.set('services', t.services);
      c.set('site', await t.services.sites.resolveSite(c.req.header('host')));
      await next();
    });
    small.route(
      '/psp',
      createPspWebhookRoutes(() => (hasSink ? sink : undefined)),
    );
  });
  afterAll(() => t?.close());
  beforeEach(() => {
    applied = [];
    sinkFailure = undefined;
    hasSink = true;
  });

  const send = (body: string, headers: Record<string, string>, host = '127.0.0.1', provider = 'sandbox') =>
    small.request(`http://${host}/psp/${provider}/webhook`, {
      method: 'POST',
      body,
      headers: { host, 'content-type': 'application/json', ...headers },
    });

  it('a genuine notification is applied for the site the Host names, and answered 200', async () => {
    const body = notification();
    const response = await send(body, webhookHeaders(AURORA_SECRET, body));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ data: { outcome: 'applied' } });
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({
      siteId: 'aurora',
      provider: 'sandbox',
      event: { status: 'success', reference: 'dep_x', amountMinor: 2500n },
    });
  });

  it('a duplicate delivery is answered 200 too (so the provider stops), and applied once', async () => {
    const body = notification();
    await send(body, webhookHeaders(AURORA_SECRET, body));
    const again = await send(body, webhookHeaders(AURORA_SECRET, body));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ data: { outcome: 'duplicate' } });
    expect(applied).toHaveLength(1);
  });

  it('a forged, tampered or stale notification gets 400 InvalidRequestException and is not applied', async () => {
    const body = notification();
    const forged = await send(body, webhookHeaders('someone-elses-secret-123', body));
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({
      error: { type: 'InvalidRequestException', error_data: { reason: 'signature mismatch' } },
    });
    expect((await send(body.replace('2500', '9999'), webhookHeaders(AURORA_SECRET, body))).status).toBe(400);
    expect((await send(body, webhookHeaders(AURORA_SECRET, body, Date.now() - 3600_000))).status).toBe(400);
    expect(applied).toEqual([]);
  });

  it('one site’s signature is refused on another site’s host (secrets are per site)', async () => {
    const body = notification();
    expect((await send(body, webhookHeaders(LAGOON_SECRET, body), '127.0.0.1')).status).toBe(400);
    expect((await send(body, webhookHeaders(LAGOON_SECRET, body), 'lagoon.localhost')).status).toBe(200);
    expect(applied[0]?.siteId).toBe('lagoon');
  });

  it('an unknown provider is 404 MethodNotFoundException', async () => {
    const body = notification();
    const response = await send(body, webhookHeaders(AURORA_SECRET, body), '127.0.0.1', 'nope');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: 'MethodNotFoundException' } });
  });

  it('when the sink fails the answer is 5xx, so the provider tries again', async () => {
    const body = notification();
    sinkFailure = new Error('database unavailable');
    const failed = await send(body, webhookHeaders(AURORA_SECRET, body));
    expect(failed.status).toBe(500);
    expect(JSON.stringify(await failed.json())).not.toContain('database unavailable');
    hasSink = false;
    sinkFailure = undefined;
    expect((await send(body, webhookHeaders(AURORA_SECRET, body))).status).toBe(503);
  });

  it('an oversized body is refused with 413', async () => {
    const body = 'x'.repeat(70 * 1024);
    expect((await send(body, webhookHeaders(AURORA_SECRET, body))).status).toBe(413);
  });

  it('the sandbox retries through our route until the sink accepts, then stops (end to end, signed with the seed secret)', async () => {
    const created = await t.services.payments.sandbox.createPayment({
      reference: `dep_${randomBytes(6).toString('hex')}`,
      amountMinor: 2500n,
      currency: 'EUR',
      method: 'card',
      returnUrls: { success: `${ORIGIN}/s`, fail: `${ORIGIN}/f`, pending: `${ORIGIN}/p`, cancel: `${ORIGIN}/c` },
      notificationUrl: `${ORIGIN}/psp/sandbox/webhook`,
      customer: { id: 1, email: null, country: null },
      locale: 'en',
      siteId: 'aurora',
    });
    await t.services.payments.sandbox.payByCard(created.providerRef, {
      number: '4000000000000002',
      holder: 'Ada Lovelace',
      expiry: '12/39',
      cvc: '123',
    });
    const handlers = createJobHandlers(t.services, (request) => small.fetch(request));
    const start = Date.now();
    sinkFailure = new Error('busy');
    await t.services.jobs.runDue(handlers, { now: new Date(start), limit: 50 });
    expect(applied).toEqual([]);
    sinkFailure = undefined;
    await t.services.jobs.runDue(handlers, { now: new Date(start + 2_500), limit: 50 });
    expect(applied.map((entry) => [entry.event.providerRef, entry.event.status])).toEqual([[created.providerRef, 'fail']]);
    const [event] = await t.services.payments.sandbox.listEvents(created.providerRef);
    expect((await t.services.payments.sandbox.listDeliveries(event?.id ?? '')).map((d) => d.responseStatus)).toEqual([500, 200]);
  });

  it('the real app routes /psp/sandbox/webhook to the cashier: a genuine notification of an unknown deposit is acknowledged, a forged one is 400; neither answer hands the PSP a visitor cookie', async () => {
    const body = notification();
    const genuine = await t.request('/psp/sandbox/webhook', {
      method: 'POST',
      body,
      headers: webhookHeaders(AURORA_SECRET, body),
    });
    expect(genuine.status).toBe(200);
    expect(await genuine.json()).toMatchObject({ data: { outcome: 'unknown_payment' } });
    const forged = await t.request('/psp/sandbox/webhook', {
      method: 'POST',
      body,
      headers: webhookHeaders('not-the-secret-at-all', body),
    });
    expect(forged.status).toBe(400);
    // A machine route has no visitor: the PSP's server is not issued one on every call.
    expect(genuine.headers.get('set-cookie')).toBeNull();
    expect(forged.headers.get('set-cookie')).toBeNull();
  });
});
