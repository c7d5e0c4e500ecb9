import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { registeredPlayer, uniqueEmail } from '../../../test/player';
import { CookieBrowser } from '../../../test/cookie-browser';
import { oneTimeSecrets, users, sessions } from '../../db/schema';
import { generateTotpSecret, totpCode } from '../auth';
import { oauthStates, socialIdentities } from './tables';

const ORIGIN = 'http://127.0.0.1';

interface AuthorizeStep {
  /** The dev provider's authorize address the init answer sent the pop-up to. */
  authorize: URL;
  state: string;
}

async function init(browser: CookieBrowser, query: Record<string, string>): Promise<AuthorizeStep> {
  const response = await browser.request(`/oauth/init?${new URLSearchParams(query)}`);
  expect(response.status).toBe(302);
  expect(response.headers.get('cache-control')).toContain('no-store');
  const authorize = new URL(response.headers.get('location') ?? '');
  return { authorize, state: authorize.searchParams.get('state') ?? '' };
}

/** The person's answer on the dev provider's page: returns the callback address it redirects to. */
async function decide(
  browser: CookieBrowser,
  step: AuthorizeStep,
  decision: 'allow' | 'deny',
  person = { email: uniqueEmail(), name: 'Ada Lovelace' },
): Promise<URL> {
  const page = await browser.request(`${step.authorize.pathname}${step.authorize.search}`);
  expect(page.status).toBe(200);
  const form = new URLSearchParams(step.authorize.searchParams);
  form.set('email', person.email);
  form.set('name', person.name);
  form.set('decision', decision);
  const response = await browser.request('/oauth/dev/authorize', {
    method: 'POST',
    body: form,
    headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
  });
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location') ?? '');
}

async function callback(browser: CookieBrowser, target: URL): Promise<{ status: number; html: string }> {
  const response = await browser.request(`${target.pathname}${target.search}`);
  expect(response.headers.get('cache-control')).toContain('no-store');
  return { status: response.status, html: await response.text() };
}

/** The message the callback page posts to its opener. */
function postedMessage(html: string): Record<string, unknown> {
  const json = /var message = (\{.*?\});/.exec(html)?.[1];
  return JSON.parse(json ?? 'null') as Record<string, unknown>;
}

async function signInWithDev(
  app: TestApp,
  person = { email: uniqueEmail(), name: 'Ada Lovelace' },
  browser = new CookieBrowser(app),
  redirectUrl = '/promotions',
) {
  const step = await init(browser, { service: 'dev', redirect_url: redirectUrl, type_auth: 'register' });
  const target = await decide(browser, step, 'allow', person);
  const result = await callback(browser, target);
  return { browser, person, step, target, ...result };
}

describe.each(testDatabaseKinds())('social sign-in through the pop-up on %s', (kind) => {
  let app: TestApp;
  const countOf = async (table: typeof users | typeof socialIdentities) =>
    (await app.db.select({ n: count() }).from(table))[0]?.n ?? 0;

  beforeAll(async () => {
    app = await createTestApp(kind);
  });
  afterAll(() => app?.close());

  describe('OAuth 2.0 code flow with PKCE through /oauth/init, the dev provider and /oauth/callback (spec §3 social sign-in parameters, §7 pop-up)', () => {
    it('sends the pop-up to the provider with a state and an S256 code challenge, storing only a hash of the state', async () => {
      const browser = new CookieBrowser(app);
      const step = await init(browser, { service: 'dev', redirect_url: '/promotions', type_auth: 'login' });
      expect(step.authorize.origin).toBe(ORIGIN);
      expect(step.authorize.pathname).toBe('/oauth/dev/authorize');
      expect(Object.fromEntries(step.authorize.searchParams)).toMatchObject({
        response_type: 'code',
        client_id: 'casino-dev-client',
        redirect_uri: `${ORIGIN}/oauth/callback/dev`,
        code_challenge_method: 'S256',
      });
      expect(step.authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const [row] = await app.db
        .select()
        .from(oauthStates)
        .where(eq(oauthStates.stateHash, createHash('sha256').update(step.state).digest('hex')));
      expect(row).toMatchObject({ service: 'dev', typeAuth: 'login', redirectUrl: '/promotions' });
      // The challenge sent is the S256 of the verifier kept with the state.
      expect(
        createHash('sha256')
          .update(row?.codeVerifier ?? '')
          .digest('base64url'),
      ).toBe(step.authorize.searchParams.get('code_challenge'));
      expect(await app.db.select().from(oauthStates).where(eq(oauthStates.stateHash, step.state))).toHaveLength(0);
    });

    it('creates the player (provider e-mail as login, registration not complete), opens a session and notifies the opener on the same origin only', async () => {
      const usersBefore = await countOf(users);
      const { browser, person, status, html } = await signInWithDev(app);
      expect(status).toBe(200);
      expect(postedMessage(html)).toEqual({
        type: 'social-auth',
        status: 'success',
        redirectUrl: '/promotions',
        isNew: true,
        typeAuth: 'register',
      });
      expect(html).toContain('postMessage(message, window.location.origin)');
      expect(html).not.toMatch(/postMessage\([^)]*'\*'/);
      expect(html).toContain('window.close()');
      expect(browser.cookies.get('sid')).toBeTruthy();

      const info = await browser.api<{ uid: number; login: string; is_registration_completed: boolean }>(
        'account.getInfo',
        {},
        'GET',
      );
      expect(info.data).toMatchObject({ login: person.email, is_registration_completed: false });
      expect(info.data?.uid).toBeGreaterThan(0);
      expect(await countOf(users)).toBe(usersBefore + 1);
      const [identity] = await app.db
        .select()
        .from(socialIdentities)
        .where(eq(socialIdentities.userId, info.data?.uid ?? 0));
      expect(identity).toMatchObject({ provider: 'dev', email: person.email, displayName: 'Ada Lovelace' });
    });

    it('signs an existing identity in as the same player again, rotating the session the browser had', async () => {
      const person = { email: uniqueEmail(), name: 'Grace Hopper' };
      const first = await signInWithDev(app, person);
      const firstInfo = await first.browser.api<{ uid: number }>('account.getInfo', {}, 'GET');
      const oldSid = first.browser.cookies.get('sid') ?? '';
      const usersBefore = await countOf(users);

      const again = await signInWithDev(app, person, first.browser);
      expect(postedMessage(again.html)).toMatchObject({ status: 'success', isNew: false });
      expect(await countOf(users)).toBe(usersBefore);
      const newSid = again.browser.cookies.get('sid') ?? '';
      expect(newSid).not.toBe(oldSid);
      const info = await again.browser.api<{ uid: number }>('account.getInfo', {}, 'GET');
      expect(info.data?.uid).toBe(firstInfo.data?.uid);
      const [old] = await app.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, createHash('sha256').update(oldSid).digest('hex')));
      expect(old?.revokedAt).toBeInstanceOf(Date);
    });

    it('never takes over an account registered with the same e-mail: a new player gets a login of its own', async () => {
      const registered = await registeredPlayer(app);
      const { browser, status } = await signInWithDev(app, { email: registered.login, name: 'Impostor' });
      expect(status).toBe(200);
      const info = await browser.api<{ uid: number; login: string }>('account.getInfo', {}, 'GET');
      expect(info.data?.uid).not.toBe(registered.uid);
      expect(info.data?.login).toMatch(/^dev:dev-[0-9a-f]{32}$/);
    });

    it('refuses a replayed state: the second callback signs nobody in and creates nothing', async () => {
      const browser = new CookieBrowser(app);
      const step = await init(browser, { service: 'dev', redirect_url: '/', type_auth: 'register' });
      const target = await decide(browser, step, 'allow');
      expect((await callback(browser, target)).status).toBe(200);

      const replayer = new CookieBrowser(app);
      replayer.cookies.set('vid', browser.cookies.get('vid') ?? '');
      const usersBefore = await countOf(users);
      const replay = await callback(replayer, target);
      expect(replay.status).toBe(400);
      expect(replay.html).toContain('data-reason="expired"');
      expect(postedMessage(replay.html)).toEqual({ type: 'social-auth', status: 'error', reason: 'expired' });
      expect(replayer.cookies.has('sid')).toBe(false);
      expect(await countOf(users)).toBe(usersBefore);
    });

    it('refuses a callback opened in another browser than the one that started the flow (login CSRF)', async () => {
      const attacker = new CookieBrowser(app);
      const step = await init(attacker, { service: 'dev', redirect_url: '/', type_auth: 'register' });
      const target = await decide(attacker, step, 'allow');
      const victim = new CookieBrowser(app);
      const usersBefore = await countOf(users);
      const result = await callback(victim, target);
      expect(result.status).toBe(400);
      expect(victim.cookies.has('sid')).toBe(false);
      expect(await countOf(users)).toBe(usersBefore);
    });

    it('shows the refusal in the pop-up and creates nothing when the person denies', async () => {
      const browser = new CookieBrowser(app);
      const usersBefore = await countOf(users);
      const identitiesBefore = await countOf(socialIdentities);
      const step = await init(browser, { service: 'dev', redirect_url: '/', type_auth: 'login' });
      const target = await decide(browser, step, 'deny');
      expect(target.searchParams.get('error')).toBe('access_denied');
      expect(target.searchParams.get('state')).toBe(step.state);
      const result = await callback(browser, target);
      expect(result.status).toBe(403);
      expect(result.html).toContain('role="alert"');
      expect(postedMessage(result.html)).toEqual({ type: 'social-auth', status: 'error', reason: 'denied' });
      expect(browser.cookies.has('sid')).toBe(false);
      expect(await countOf(users)).toBe(usersBefore);
      expect(await countOf(socialIdentities)).toBe(identitiesBefore);
    });

    it('answers an unknown service or type_auth with an error page and no flow', async () => {
      const browser = new CookieBrowser(app);
      const unknown = await browser.request('/oauth/init?service=nope&redirect_url=/&type_auth=login');
      expect(unknown.status).toBe(404);
      expect(await unknown.text()).toContain('data-reason="unavailable"');
      expect((await browser.request('/oauth/init?service=dev&redirect_url=/&type_auth=admin')).status).toBe(400);
    });

    it('refuses a banned player in the pop-up without a session', async () => {
      const person = { email: uniqueEmail(), name: 'Banned' };
      const first = await signInWithDev(app, person);
      const info = await first.browser.api<{ uid: number }>('account.getInfo', {}, 'GET');
      await app.db
        .update(users)
        .set({ status: 'banned' })
        .where(eq(users.id, info.data?.uid ?? 0));
      const fresh = new CookieBrowser(app);
      const again = await signInWithDev(app, person, fresh);
      expect(again.status).toBe(403);
      expect(again.html).toContain('data-reason="blocked"');
      expect(fresh.cookies.has('sid')).toBe(false);
    });
  });

  describe('two-factor after social sign-in (issue 3: sign-in with two-factor; spec §4 two-factor step)', () => {
    /** A player who signed in socially once and then turned two-factor on. */
    async function playerWithTwoFactor() {
      const person = { email: uniqueEmail(), name: 'Grace Hopper' };
      const first = await signInWithDev(app, person);
      const uid = (await first.browser.api<{ uid: number }>('account.getInfo', {}, 'GET')).data?.uid ?? 0;
      const secret = generateTotpSecret();
      await app.db.update(users).set({ twoFactorSecret: secret, twoFactorEnabledAt: new Date() }).where(eq(users.id, uid));
      return { person, uid, secret };
    }

    it('the pop-up hands the opener a ticket instead of a session; the code step then signs the player in, once', async () => {
      const { person, uid, secret } = await playerWithTwoFactor();
      const browser = new CookieBrowser(app);
      const { status, html } = await signInWithDev(app, person, browser);
      expect(status).toBe(200);
      const message = postedMessage(html);
      expect(message).toMatchObject({ type: 'social-auth', status: 'two_factor', redirectUrl: '/promotions' });
      expect(message.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(browser.cookies.has('sid')).toBe(false);
      expect((await browser.api<{ uid: number }>('account.getInfo', {}, 'GET')).data?.uid).toBe(0);

      const ticket = String(message.ticket);
      expect((await browser.api('auth.confirmSecondFactor', { ticket, code: '12345' })).error).toMatchObject({
        type: 'InvalidParameterException',
        error_data: { field: 'code' },
      });
      const wrong = String((Number(totpCode(secret, Date.now())) + 1) % 1_000_000).padStart(6, '0');
      expect((await browser.api('auth.confirmSecondFactor', { ticket, code: wrong })).error).toMatchObject({
        type: 'AuthorizationException',
        error_data: { two_factor: 'invalid' },
      });
      // A wrong code keeps the ticket: the right one still works.
      const signedIn = await browser.api<{ uid: number }>('auth.confirmSecondFactor', {
        ticket,
        code: totpCode(secret, Date.now()),
      });
      expect(signedIn.data?.uid).toBe(uid);
      expect(browser.cookies.get('sid')).toBeTruthy();
      expect((await browser.api<{ uid: number }>('account.getInfo', {}, 'GET')).data?.uid).toBe(uid);
      // Used once: the ticket is spent even with the next valid code.
      expect(
        (await browser.api('auth.confirmSecondFactor', { ticket, code: totpCode(secret, Date.now() + 30_000) })).error,
      ).toMatchObject({ type: 'AuthorizationException', error_data: { two_factor: 'expired' } });
    });

    it('a ticket is useless in another browser, and after it expires', async () => {
      const { person, secret } = await playerWithTwoFactor();
      const browser = new CookieBrowser(app);
      const ticket = String(postedMessage((await signInWithDev(app, person, browser)).html).ticket);
      const thief = new CookieBrowser(app);
      await thief.request('/');
      expect((await thief.api('auth.confirmSecondFactor', { ticket, code: totpCode(secret, Date.now()) })).error).toMatchObject({
        type: 'AuthorizationException',
        error_data: { two_factor: 'expired' },
      });
      expect(thief.cookies.has('sid')).toBe(false);
      await app.db
        .update(oneTimeSecrets)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(and(eq(oneTimeSecrets.purpose, 'second_factor'), isNull(oneTimeSecrets.usedAt)));
      expect((await browser.api('auth.confirmSecondFactor', { ticket, code: totpCode(secret, Date.now()) })).error).toMatchObject(
        { type: 'AuthorizationException', error_data: { two_factor: 'expired' } },
      );
      expect(browser.cookies.has('sid')).toBe(false);
    });
  });

  describe('redirect_url is a same-origin path only (architecture §4: redirect targets)', () => {
    it.each([
      'https://evil.example/steal',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/\r\n//evil.example',
      'http://127.0.0.1.evil.example/',
      // Issue 11 reproducers: dot segments, also percent-encoded, that resolve to //evil.example.
      '/.//evil.example',
      '/..//evil.example',
      '/%2e//evil.example',
      '/%2e%2e//evil.example',
    ])('neutralises %j to the locale home', async (redirectUrl) => {
      const browser = new CookieBrowser(app);
      const step = await init(browser, { service: 'dev', redirect_url: redirectUrl, type_auth: 'login' });
      const [row] = await app.db
        .select()
        .from(oauthStates)
        .where(eq(oauthStates.stateHash, createHash('sha256').update(step.state).digest('hex')));
      expect(row?.redirectUrl.startsWith('/')).toBe(true);
      expect(row?.redirectUrl.startsWith('//')).toBe(false);
      expect(row?.redirectUrl).not.toContain('evil.example');
    });

    it('the pop-up never ends off the site for /.//evil.example, and decides a stored row again (issue 11)', async () => {
      for (const redirectUrl of ['/.//evil.example', '/..//evil.example', '/%2e//evil.example']) {
        const { html } = await signInWithDev(app, undefined, undefined, redirectUrl);
        const target = String(postedMessage(html).redirectUrl);
        expect(new URL(target, `${ORIGIN}/oauth/callback/dev`).origin, redirectUrl).toBe(ORIGIN);
      }
      // A row written by older code (or by hand) is no safer than what wrote it.
      const browser = new CookieBrowser(app);
      const step = await init(browser, { service: 'dev', redirect_url: '/promotions', type_auth: 'register' });
      const stateHash = createHash('sha256').update(step.state).digest('hex');
      await app.db.update(oauthStates).set({ redirectUrl: '//evil.example' }).where(eq(oauthStates.stateHash, stateHash));
      const { html } = await callback(browser, await decide(browser, step, 'allow'));
      expect(postedMessage(html).redirectUrl).toBe('/');
    });

    it('keeps a same-origin path and hands it to the pop-up page as the return address', async () => {
      const { html } = await signInWithDev(app, undefined, undefined, '/it/promotions?tab=2');
      expect(postedMessage(html).redirectUrl).toBe('/it/promotions?tab=2');
      const evil = await signInWithDev(app, undefined, undefined, 'https://evil.example/');
      expect(postedMessage(evil.html).redirectUrl).toBe('/');
    });
  });

  describe('the development identity provider token endpoint (RFC 6749 §4.1.3, RFC 7636 §4.6)', () => {
    async function codeFor(browser: CookieBrowser): Promise<{ code: string; verifier: string }> {
      const step = await init(browser, { service: 'dev', redirect_url: '/', type_auth: 'login' });
      const target = await decide(browser, step, 'allow');
      const [row] = await app.db
        .select()
        .from(oauthStates)
        .where(eq(oauthStates.stateHash, createHash('sha256').update(step.state).digest('hex')));
      return { code: target.searchParams.get('code') ?? '', verifier: row?.codeVerifier ?? '' };
    }

    function token(browser: CookieBrowser, form: Record<string, string>) {
      const body = new URLSearchParams({
        grant_type: 'authorization_code',
        redirect_uri: `${ORIGIN}/oauth/callback/dev`,
        client_id: 'casino-dev-client',
        client_secret: 'dev-only-client-secret-not-for-production',
        ...form,
      });
      return browser.request('/oauth/dev/token', { method: 'POST', body });
    }

    it('exchanges a code with the right verifier once, and userinfo answers for the bearer token', async () => {
      const browser = new CookieBrowser(app);
      const { code, verifier } = await codeFor(browser);
      const answer = await token(browser, { code, code_verifier: verifier });
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { access_token: string; token_type: string };
      expect(body.token_type).toBe('Bearer');
      const userinfo = await browser.request('/oauth/dev/userinfo', {
        headers: { authorization: `Bearer ${body.access_token}` },
      });
      expect(userinfo.status).toBe(200);
      expect(await userinfo.json()).toMatchObject({ sub: expect.stringMatching(/^dev-/) });
      expect(
        (await browser.request('/oauth/dev/userinfo', { headers: { authorization: 'Bearer not-a-token-not-a-token' } })).status,
      ).toBe(401);
      const second = await token(browser, { code, code_verifier: verifier });
      expect(second.status).toBe(400);
      expect(await second.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('refuses a wrong PKCE verifier, and the code is spent', async () => {
      const browser = new CookieBrowser(app);
      const { code, verifier } = await codeFor(browser);
      const wrong = await token(browser, {
        code,
        code_verifier: `${verifier.slice(0, -1)}${verifier.endsWith('A') ? 'B' : 'A'}`,
      });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toMatchObject({ error: 'invalid_grant', error_description: 'PKCE verification failed' });
      expect((await token(browser, { code, code_verifier: verifier })).status).toBe(400);
    });

    it('refuses a wrong client secret and a redirect_uri other than the one authorized', async () => {
      const browser = new CookieBrowser(app);
      const first = await codeFor(browser);
      const badClient = await token(browser, { code: first.code, code_verifier: first.verifier, client_secret: 'guess' });
      expect(badClient.status).toBe(401);
      expect(await badClient.json()).toMatchObject({ error: 'invalid_client' });
      const second = await codeFor(browser);
      const badRedirect = await token(browser, {
        code: second.code,
        code_verifier: second.verifier,
        redirect_uri: 'https://evil.example/cb',
      });
      expect(await badRedirect.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('never redirects to an unregistered redirect_uri from the authorize page', async () => {
      const browser = new CookieBrowser(app);
      const step = await init(browser, { service: 'dev', redirect_url: '/', type_auth: 'login' });
      const tampered = new URLSearchParams(step.authorize.searchParams);
      tampered.set('redirect_uri', 'https://evil.example/oauth/callback/dev');
      const page = await browser.request(`/oauth/dev/authorize?${tampered}`);
      expect(page.status).toBe(400);
      tampered.set('email', uniqueEmail());
      tampered.set('decision', 'allow');
      const post = await browser.request('/oauth/dev/authorize', { method: 'POST', body: tampered, headers: { origin: ORIGIN } });
      expect(post.status).toBe(400);
      expect(post.headers.get('location')).toBeNull();
    });
  });

  describe('auth.completeRegistration (spec §2: the socialRegistration popup)', () => {
    it('needs the terms (active in the auth configuration) and a site currency, then completes once', async () => {
      const { browser } = await signInWithDev(app);
      const noTerms = await browser.api('auth.completeRegistration', { currency: 'USD' });
      expect(noTerms.error).toMatchObject({
        type: 'InvalidParameterException',
        error_data: { field: 'terms', errorType: 'truthyCheckbox' },
      });
      const badCurrency = await browser.api('auth.completeRegistration', { terms: '1', currency: 'JPY' });
      expect(badCurrency.error).toMatchObject({ type: 'InvalidParameterException', error_data: { field: 'currency' } });
      const before = await browser.api<{ is_registration_completed: boolean }>('account.getInfo', {}, 'GET');
      expect(before.data?.is_registration_completed).toBe(false);

      const done = await browser.api<{ is_registration_completed: boolean; balances: { balance_main: { currency: string } } }>(
        'auth.completeRegistration',
        { terms: '1', currency: 'USD' },
      );
      expect(done.data).toMatchObject({ is_registration_completed: true, balances: { balance_main: { currency: 'USD' } } });
      const after = await browser.api<{ is_registration_completed: boolean }>('account.getInfo', {}, 'GET');
      expect(after.data?.is_registration_completed).toBe(true);
      const again = await browser.api('auth.completeRegistration', { terms: '1', currency: 'EUR' });
      expect(again.error?.type).toBe('InvalidRequestException');
    });

    it('needs a signed-in player', async () => {
      const anonymous = new CookieBrowser(app);
      const answer = await anonymous.api('auth.completeRegistration', { terms: '1' });
      expect(answer.status).toBe(401);
      expect(answer.error?.type).toBe('AuthorizationException');
    });
  });

  it('keeps at most one identity per (site, provider, subject) when two first sign-ins race', async () => {
    const identity = {
      siteId: 'aurora',
      provider: 'dev',
      subject: `race-${Date.now()}`,
      email: uniqueEmail(),
      isEmailVerified: false,
      displayName: null,
      currency: 'EUR',
      locale: 'en' as const,
      isRegistrationCompleted: false,
    };
    const results = await Promise.all([
      app.services.social.findOrCreatePlayer(identity),
      app.services.social.findOrCreatePlayer(identity),
    ]);
    expect(results[0].user.id).toBe(results[1].user.id);
    const rows = await app.db
      .select()
      .from(socialIdentities)
      .where(and(eq(socialIdentities.provider, 'dev'), eq(socialIdentities.subject, identity.subject)));
    expect(rows).toHaveLength(1);
  });
});
