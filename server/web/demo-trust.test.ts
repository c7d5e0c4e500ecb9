/**
 * Issue 11, point 1: the sandboxes and their published demo values act for a site marked demo
 * only. Each reproducer of the issue runs against a site whose `is_demo` flag a test takes away
 * (or whose provider it changes), and is checked to change nothing there, next to the same
 * request on a demo site, which works (so each test can fail).
 */
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pino from 'pino';
import type { ServerBuild } from 'react-router';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { hostPlayer } from '../../test/host-player';
import { sites } from '../db/schema';
import { demoSecret } from '../modules/sites';
import { DEMO_PROVIDER, signBody } from '../modules/provider-wallet';
import { signPayload, SIGNATURE_HEADER, type ReviewEvent } from '../modules/verification';
import { demoTrustProblemsOf } from '../demo-trust-check';
import { createHttpApp } from '../http';
import { NO_PROXY } from './client-address';

/** The React Router build `npm test` makes before this project runs: pages are rendered by it. */
const SERVER_BUILD = fileURLToPath(new URL('../../build/server/index.js', import.meta.url));

const LAGOON = 'lagoon.localhost';
const REAL_BOT_TOKEN = '123456789:a-real-token-from-the-environment';
const REAL_KYC_SECRET = 'a-real-kyc-provider-secret-of-lagoon';
const REAL_PROVIDER = { name: 'acme', secret: 'a-real-provider-secret-0123456789', currencies: ['USD'], studios: ['redfox'] };

/** Init data signed as the messenger does (its published steps, not the code under test). */
function signInitData(fields: Record<string, string>, botToken: string): string {
  const checkString = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  return new URLSearchParams({ ...fields, hash: createHmac('sha256', secret).update(checkString).digest('hex') }).toString();
}

/** A sandbox PSP notification's headers, signed as docs/sandbox-psp.md says: HMAC of `{timestamp}.{body}`. */
function pspHeaders(secret: string, body: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { 'content-type': 'application/json', 'x-sandbox-timestamp': timestamp, 'x-sandbox-signature': signature };
}

describe.each(testDatabaseKinds())('demo trust (issue 11, point 1) on %s', (kind) => {
  let app: TestApp;
  const original = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    app = await createTestApp(kind, {
      services: {
        siteSecrets: { SECRET_LAGOON_MESSENGER_BOT_TOKEN: REAL_BOT_TOKEN, SECRET_LAGOON_KYC: REAL_KYC_SECRET },
        providers: [DEMO_PROVIDER, REAL_PROVIDER],
      },
    });
    for (const site of await app.services.sites.listSites()) original.set(site.id, site.settings);
  });
  afterAll(() => app?.close());
  afterEach(async () => {
    for (const [id, settings] of original) await app.db.update(sites).set({ settings }).where(eq(sites.id, id));
    app.services.sites.invalidate();
  });

  /** Changes a site's settings as an operator would; afterEach puts the seeded ones back. */
  async function patchSite(id: string, change: (settings: Record<string, unknown>) => Record<string, unknown>) {
    await app.db
      .update(sites)
      .set({ settings: change({ ...original.get(id) }) })
      .where(eq(sites.id, id));
    app.services.sites.invalidate();
  }
  const unmarkDemo = (id: string) => patchSite(id, ({ is_demo: _, ...rest }) => rest);

  const flags = async (player: Awaited<ReturnType<typeof hostPlayer>>) =>
    player.browser.data<{ is_verified: boolean; is_on_verification: boolean }>(
      await player.browser.call('account.getInfo', {}, 'GET'),
    );

  describe('KYC sandbox', () => {
    async function playerWithToken() {
      const player = await hostPlayer(app, LAGOON);
      const applicant = player.browser.data<{ applicant_id: string }>(await player.browser.call('verification.createApplicant'));
      const access = player.browser.data<{ token: string }>(await player.browser.call('verification.getAccessToken'));
      return { ...player, applicantId: applicant.applicant_id, token: access.token };
    }
    const decide = (token: string) =>
      app.request('/kyc/sandbox/decision', {
        method: 'POST',
        host: LAGOON,
        body: new URLSearchParams({ token, decision: 'approve', document_number: 'X1' }),
      });

    it('a player’s own token approves on a demo site (the control)', async () => {
      const player = await playerWithToken();
      expect((await decide(player.token)).status).toBe(200);
      expect((await flags(player)).is_verified).toBe(true);
    });

    it('(issue 11 reproducer) the player’s own token changes nothing once the site is not marked demo, even sent 5 at once', async () => {
      const player = await playerWithToken();
      await unmarkDemo('lagoon');
      const answers = await Promise.all(Array.from({ length: 5 }, () => decide(player.token)));
      expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404]);
      expect((await flags(player)).is_verified).toBe(false);
      const again = await player.browser.call('verification.getAccessToken');
      expect(again.json.error?.type).toBe('ApplicationUnavailableException');
      expect((await app.request(`/kyc/sandbox?token=${encodeURIComponent(player.token)}`, { host: LAGOON })).status).toBe(404);
    });

    it('a webhook signed with the published demo secret is refused on a site not marked demo', async () => {
      const player = await playerWithToken();
      await unmarkDemo('lagoon');
      const event: ReviewEvent = {
        event_id: `evt-${Date.now()}`,
        type: 'applicantReviewed',
        applicant_id: player.applicantId,
        review: { answer: 'GREEN' },
      };
      const body = JSON.stringify(event);
      const answer = await app.request('/kyc/webhook', {
        method: 'POST',
        host: LAGOON,
        body,
        headers: { [SIGNATURE_HEADER]: signPayload(demoSecret('lagoon', 'KYC') ?? '', body) },
      });
      expect(answer.status).toBe(404);
      expect((await flags(player)).is_verified).toBe(false);
    });

    it('a real site’s webhook takes its provider’s secret from the environment, never the published one', async () => {
      const player = await playerWithToken();
      await patchSite('lagoon', ({ is_demo: _, ...settings }) => ({ ...settings, verification: { provider: 'acme-kyc' } }));
      const send = (secret: string) => {
        const body = JSON.stringify({
          event_id: `evt-real-${secret.length}-${Date.now()}`,
          type: 'applicantReviewed',
          applicant_id: player.applicantId,
          review: { answer: 'GREEN' },
        } satisfies ReviewEvent);
        return app.request('/kyc/webhook', {
          method: 'POST',
          host: LAGOON,
          body,
          headers: { [SIGNATURE_HEADER]: signPayload(secret, body) },
        });
      };
      expect((await send(demoSecret('lagoon', 'KYC') ?? '')).status).toBe(401);
      expect((await flags(player)).is_verified).toBe(false);
      expect((await send(REAL_KYC_SECRET)).status).toBe(200);
      expect((await flags(player)).is_verified).toBe(true);
      // The sandbox's own pages stay closed there.
      expect((await decide(player.token)).status).toBe(404);
    });

    it('acts only where the configured provider is the sandbox, demo site or not', async () => {
      const player = await playerWithToken();
      await patchSite('lagoon', (settings) => ({ ...settings, verification: { provider: 'acme-kyc' } }));
      expect((await decide(player.token)).status).toBe(404);
      expect((await flags(player)).is_verified).toBe(false);
    });

    it('one demo site’s secret cannot decide for another site’s applicant', async () => {
      const player = await playerWithToken();
      const event: ReviewEvent = {
        event_id: `evt-x-${Date.now()}`,
        type: 'applicantReviewed',
        applicant_id: player.applicantId,
        review: { answer: 'GREEN' },
      };
      const body = JSON.stringify(event);
      const answer = await app.request('/kyc/webhook', {
        method: 'POST',
        body,
        headers: { [SIGNATURE_HEADER]: signPayload(demoSecret('aurora', 'KYC') ?? '', body) },
      });
      expect(answer.status).toBe(200);
      expect((await flags(player)).is_verified).toBe(false);
      // And a forged token for that applicant on the aurora host is not read with lagoon's secret.
      const claims = Buffer.from(JSON.stringify({ a: player.applicantId, x: null, exp: Date.now() + 60_000 })).toString(
        'base64url',
      );
      const forged = `${claims}.${signPayload(demoSecret('aurora', 'KYC') ?? '', claims)}`;
      expect((await decide(forged)).status).toBe(401);
    });
  });

  describe('PSP sandbox', () => {
    /** A pending card deposit of 25 on the default site, and the notification that would settle it. */
    async function pendingDeposit() {
      const player = await hostPlayer(app, '127.0.0.1');
      const start = player.browser.data<{ id: string; redirect_url: string }>(
        await player.browser.call('cashier.makedeposit', { method: 'card', amount: '25' }),
      );
      const providerRef = start.redirect_url.split('/').pop() ?? '';
      const payment = await app.services.payments.sandbox.findPayment(providerRef);
      if (!payment) throw new Error('no sandbox payment');
      const body = JSON.stringify({
        id: `evt_forged_${providerRef}`,
        type: 'payment.updated',
        created_at: new Date().toISOString(),
        data: {
          object: 'payment',
          id: payment.id,
          reference: payment.reference,
          status: 'succeeded',
          amount_minor: payment.amountMinor.toString(),
          currency: payment.currency,
          method: payment.method,
          failure_reason: null,
        },
      });
      const status = async () =>
        player.browser.data<{ status: string }>(await player.browser.call('cashier.getdepositinfo', { id: start.id }, 'GET'))
          .status;
      const balance = async () =>
        player.browser.data<{ balance_main: { amount: string } }>(await player.browser.call('account.getBalance', {}, 'GET'))
          .balance_main.amount;
      return { player, start, providerRef, body, status, balance };
    }
    const sendWebhook = (body: string) =>
      app.request('/psp/sandbox/webhook', {
        method: 'POST',
        body,
        headers: pspHeaders(demoSecret('aurora', 'PSP_SANDBOX') ?? '', body),
      });

    it('(issue 11 reproducer) a webhook signed with the published secret credits nothing on a site not marked demo; on the demo site it does', async () => {
      const deposit = await pendingDeposit();
      await unmarkDemo('aurora');
      const refused = await Promise.all(Array.from({ length: 5 }, () => sendWebhook(deposit.body)));
      expect(refused.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400]);
      expect((await app.request(`/psp/sandbox/pay/${deposit.providerRef}`)).status).toBe(404);
      await patchSite('aurora', (settings) => settings);
      expect(await deposit.status()).not.toBe('success');
      expect(await deposit.balance()).toBe('0.00');
      // The control: the very same notification on the demo site is accepted and, sent 5 at once, credits once.
      const accepted = await Promise.all(Array.from({ length: 5 }, () => sendWebhook(deposit.body)));
      expect(accepted.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      expect(await deposit.status()).toBe('success');
      expect(await deposit.balance()).toBe('25.00');
    });

    it('a site not marked demo cannot start a sandbox payment', async () => {
      await unmarkDemo('aurora');
      const player = await hostPlayer(app, '127.0.0.1');
      const answer = await player.browser.call('cashier.makedeposit', { method: 'card', amount: '25' });
      expect(answer.json.error?.type).toBe('BillingUnavailableException');
    });
  });

  describe('messenger sign-in', () => {
    let sequence = 0;
    const person = () => ({ id: 8_000_000_000 + (Date.now() % 1_000_000) * 100 + sequence++, first_name: 'Ada' });
    const fields = (user: { id: number; first_name: string }) => ({
      auth_date: String(Math.floor(Date.now() / 1000)),
      query_id: 'AAE',
      user: JSON.stringify(user),
    });
    const enter = (initData: string) =>
      app.api('auth.messengerEntry', { method: 'POST', params: { init_data: initData }, host: LAGOON });

    it('(issue 11 reproducer) the demo bot token is refused on a site not marked demo; that site’s own token from the environment works', async () => {
      const demoToken = demoSecret('lagoon', 'MESSENGER_BOT_TOKEN') ?? '';
      expect((await enter(signInitData(fields(person()), demoToken))).status).toBe(200);
      await unmarkDemo('lagoon');
      const refused = await enter(signInitData(fields(person()), demoToken));
      expect(refused.status).toBe(401);
      expect(refused.body.error?.type).toBe('AuthorizationException');
      expect((await enter(signInitData(fields(person()), REAL_BOT_TOKEN))).status).toBe(200);
    });

    it('a demo site takes the published token only, never a configured one', async () => {
      expect((await enter(signInitData(fields(person()), REAL_BOT_TOKEN))).status).toBe(401);
    });
  });

  describe('OAuth development provider and the demo game provider', () => {
    it('the development identity provider answers on a demo site only', async () => {
      const authorize = '/oauth/dev/authorize?client_id=casino-dev-client&response_type=code';
      expect((await app.request(authorize, { host: LAGOON })).status).toBe(400);
      await unmarkDemo('lagoon');
      expect((await app.request(authorize, { host: LAGOON })).status).toBe(404);
      const token = await app.request('/oauth/dev/token', {
        method: 'POST',
        host: LAGOON,
        body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'casino-dev-client', code: 'x' }),
      });
      expect(token.status).toBe(404);
      const init = await app.request('/oauth/init?service=dev&type_auth=login', { host: LAGOON });
      expect(init.status).toBe(404);
    });

    const providerCall = async (provider: { name: string; secret: string }) => {
      const body = JSON.stringify({ token: 'no-such-session-token-0123' });
      const answer = await app.request(`/provider-api/${provider.name}/balance`, {
        method: 'POST',
        host: LAGOON,
        body,
        headers: { 'content-type': 'application/json', 'x-signature': signBody(provider.secret, body) },
      });
      return ((await answer.json()) as { code: string }).code;
    };

    it('the demo game provider’s published key speaks for demo sites only', async () => {
      expect(await providerCall(DEMO_PROVIDER)).toBe('SESSION_NOT_FOUND');
      await unmarkDemo('lagoon');
      expect(await providerCall(DEMO_PROVIDER)).toBe('UNKNOWN_PROVIDER');
    });

    it('a real game provider plays on real sites only, never on a demo site’s sandbox-funded balances', async () => {
      expect(await providerCall(REAL_PROVIDER)).toBe('UNKNOWN_PROVIDER');
      await unmarkDemo('lagoon');
      expect(await providerCall(REAL_PROVIDER)).toBe('SESSION_NOT_FOUND');
    });
  });

  describe.skipIf(!existsSync(SERVER_BUILD))('the demo ribbon on rendered pages', () => {
    /** The page as the production build renders it for a host, with the app's own services. */
    async function pageHtml(host: string, path: string): Promise<string> {
      const pages = createHttpApp({
        services: app.services,
        logger: pino({ level: 'silent' }),
        mode: 'production',
        maxBodyBytes: 64 * 1024,
        proxy: NO_PROXY,
        buildVersion: 'test',
        getBuild: async () => (await import(pathToFileURL(SERVER_BUILD).href)) as ServerBuild,
      });
      const response = await pages.request(`http://${host}${path}`, { headers: { host } });
      expect(response.status).toBe(200);
      return response.text();
    }

    it('shows on every page of a demo site in English and Italian, and not once the site is not marked demo', async () => {
      const english = await pageHtml(LAGOON, '/promotions');
      expect(english).toContain('data-demo-ribbon');
      expect(english).toContain('Demo site');
      const italian = await pageHtml(LAGOON, '/it/promotions');
      expect(italian).toContain('data-demo-ribbon');
      expect(italian).toContain('Sito demo');
      await unmarkDemo('lagoon');
      expect(await pageHtml(LAGOON, '/promotions')).not.toContain('data-demo-ribbon');
      expect(await pageHtml(LAGOON, '/it/promotions')).not.toContain('data-demo-ribbon');
    });
  });

  describe('the start-up check on the seeded sites', () => {
    it('passes the shipped demo content, and names each sandbox setting of a site not marked demo', async () => {
      expect(await demoTrustProblemsOf(app.services, { siteSecrets: {} })).toEqual([]);
      await unmarkDemo('lagoon');
      const problems = await demoTrustProblemsOf(app.services, { siteSecrets: {} });
      expect(problems).toHaveLength(3);
      expect(problems.join('\n')).toContain('site "lagoon": settings.verification.provider');
      expect(problems.join('\n')).toContain('site "lagoon": settings.payments.sandbox');
      expect(problems.join('\n')).toContain('site "lagoon": auth-config social.providers.dev');
    });
  });
});
