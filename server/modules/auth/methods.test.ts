import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { users } from '../../db/schema';
import { generateTotpSecret, totpCode } from './totp';
import { TWO_FACTOR_REQUIRED_MESSAGE } from './service';

/** The value of a Set-Cookie for one cookie name, and its attributes. */
function cookieOf(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
}

async function call(app: TestApp, name: string, params: Record<string, string>, cookie = '', method: 'GET' | 'POST' = 'POST') {
  const body = method === 'POST' ? new URLSearchParams(params) : undefined;
  const query = method === 'GET' ? `&${new URLSearchParams(params)}` : '';
  const response = await app.request(`/api/${name}?v=2.34&locale=en${query}`, {
    method,
    body,
    headers: cookie ? { cookie } : {},
  });
  const json = (await response.json()) as {
    data?: Record<string, unknown> | number;
    error?: { type: string; message: string; error_data?: Record<string, unknown> };
  };
  const sid = cookieOf(response, 'sid');
  return { status: response.status, json, sid, sessionCookie: sid ? (sid.split(';')[0] ?? '') : '' };
}

let sequence = 0;
const uniqueEmail = () => `player${Date.now()}${sequence++}@example.com`;

describe.each(testDatabaseKinds())('accounts and sessions on %s', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(kind);
  });
  afterAll(() => app?.close());

  describe('auth.register (spec §7; validators of §5)', () => {
    it('creates the account, signs it in with an HttpOnly SameSite=Lax session cookie and returns its info', async () => {
      const login = uniqueEmail();
      const result = await call(app, 'auth.register', { login, password: 'secret12', terms: '1', notify: '1', currency: 'USD' });
      expect(result.status).toBe(200);
      expect(result.json.data).toMatchObject({
        login,
        is_subscribed: true,
        balances: { balance_main: { currency: 'USD', amount: '0.00' } },
      });
      expect((result.json.data as { uid: number }).uid).toBeGreaterThan(0);
      expect(result.sid).toMatch(/HttpOnly/i);
      expect(result.sid).toMatch(/SameSite=Lax/i);
      const info = await call(app, 'account.getInfo', {}, result.sessionCookie, 'GET');
      expect(info.json.data).toMatchObject({ login, uid: (result.json.data as { uid: number }).uid });
    });

    it('names the field and rule of each wrong value', async () => {
      const cases: [Record<string, string>, string, string][] = [
        [{ login: 'not-an-email@', password: 'secret12', terms: '1' }, 'login', 'email'],
        [{ login: uniqueEmail(), password: '123', terms: '1' }, 'password', 'minLength'],
        [{ login: uniqueEmail(), password: 'x'.repeat(21), terms: '1' }, 'password', 'maxLength'],
        [{ login: uniqueEmail(), password: 'secret12' }, 'terms', 'truthyCheckbox'],
        [{ login: uniqueEmail(), password: 'secret12', terms: '1', currency: 'JPY' }, 'currency', ''],
      ];
      for (const [params, field, errorType] of cases) {
        const result = await call(app, 'auth.register', params);
        expect(result.status, JSON.stringify(params)).toBe(400);
        expect(result.json.error?.type).toBe('InvalidParameterException');
        expect(result.json.error?.error_data?.field).toBe(field);
        if (errorType) expect(result.json.error?.error_data?.errorType).toBe(errorType);
        expect(result.sid).toBeUndefined();
      }
    });

    it('refuses a login that is taken, also when written with capitals', async () => {
      const login = uniqueEmail();
      expect((await call(app, 'auth.register', { login, password: 'secret12', terms: '1' })).status).toBe(200);
      const again = await call(app, 'auth.register', { login: login.toUpperCase(), password: 'other123', terms: '1' });
      expect(again.json.error).toMatchObject({
        type: 'InvalidParameterException',
        error_data: { field: 'login', errorType: 'taken' },
      });
    });

    it('strips leading plus signs from a phone login (spec §5)', async () => {
      const phone = `39333${String(Date.now()).slice(-7)}`;
      const result = await call(app, 'auth.register', { login: `++${phone}`, password: 'secret12', terms: '1' });
      expect(result.json.data).toMatchObject({ login: phone });
    });
  });

  describe('auth.login and auth.logout (spec §4)', () => {
    it('a wrong password and an unknown login get the same answer', async () => {
      const login = uniqueEmail();
      await call(app, 'auth.register', { login, password: 'secret12', terms: '1' });
      const wrong = await call(app, 'auth.login', { login, password: 'wrong-password' });
      const unknown = await call(app, 'auth.login', { login: uniqueEmail(), password: 'wrong-password' });
      expect(wrong.status).toBe(401);
      expect(wrong.json).toEqual(unknown.json);
      expect(wrong.status).toBe(unknown.status);
    });

    it('rotates the session on sign-in and makes the old token useless after sign-out', async () => {
      const login = uniqueEmail();
      const registered = await call(app, 'auth.register', { login, password: 'secret12', terms: '1' });
      const signedIn = await call(app, 'auth.login', { login, password: 'secret12' }, registered.sessionCookie);
      expect(signedIn.sessionCookie).not.toBe(registered.sessionCookie);
      const oldInfo = await call(app, 'account.getInfo', {}, registered.sessionCookie, 'GET');
      expect((oldInfo.json.data as { uid: number }).uid).toBe(0);
      expect((await call(app, 'auth.logout', {}, signedIn.sessionCookie, 'GET')).json.data).toBe(1);
      const afterLogout = await call(app, 'account.getInfo', {}, signedIn.sessionCookie, 'GET');
      expect((afterLogout.json.data as { uid: number }).uid).toBe(0);
    });

    it('slows repeated wrong passwords per account with TooManyRequestsException (architecture §4, issue 11)', async () => {
      const login = uniqueEmail();
      await call(app, 'auth.register', { login, password: 'secret12', terms: '1' });
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 11; attempt++)
        statuses.push((await call(app, 'auth.login', { login, password: `wrong${attempt}` })).status);
      // Five free attempts; after them each waits twice as long as the last (1 s, 2 s, … 32 s).
      expect(statuses.slice(0, 5).every((status) => status === 401)).toBe(true);
      expect(statuses).toContain(429);
      const blocked = await call(app, 'auth.login', { login, password: 'secret12' });
      expect(blocked.json.error?.type).toBe('TooManyRequestsException');
      expect(Number(blocked.json.error?.error_data?.retry_after)).toBeGreaterThan(0);
    });

    it('refuses a cross-site sign-in form post', async () => {
      const response = await app.request('/api/auth.login?v=2.34&locale=en', {
        method: 'POST',
        body: new URLSearchParams({ login: uniqueEmail(), password: 'secret12' }),
        headers: { origin: 'https://evil.example' },
      });
      expect(response.status).toBe(403);
    });
  });

  describe('two-factor sign-in (spec §4: code step; architecture §4: TOTP, a code works once)', () => {
    it('asks for the code, accepts a valid one once, and refuses a replay', async () => {
      const login = uniqueEmail();
      const registered = await call(app, 'auth.register', { login, password: 'secret12', terms: '1' });
      const uid = (registered.json.data as { uid: number }).uid;
      const secret = generateTotpSecret();
      await app.db.update(users).set({ twoFactorSecret: secret, twoFactorEnabledAt: new Date() }).where(eq(users.id, uid));

      const first = await call(app, 'auth.login', { login, password: 'secret12' });
      expect(first.json.error).toMatchObject({
        type: 'AuthorizationException',
        message: TWO_FACTOR_REQUIRED_MESSAGE,
        error_data: { two_factor: 'required' },
      });
      expect(first.sid).toBeUndefined();

      const code = totpCode(secret, Date.now());
      const second = await call(app, 'auth.login', { login, password: 'secret12', code });
      expect((second.json.data as { uid: number; two_factor_auth: boolean }).two_factor_auth).toBe(true);
      expect(second.sid).toBeDefined();

      const replay = await call(app, 'auth.login', { login, password: 'secret12', code });
      expect(replay.json.error?.error_data?.two_factor).toBe('invalid');
    });
  });

  describe('banned player (spec §6, §8: UserBannedException, forced sign-out)', () => {
    it('answers UserBannedException and ends the session', async () => {
      const login = uniqueEmail();
      const registered = await call(app, 'auth.register', { login, password: 'secret12', terms: '1' });
      const uid = (registered.json.data as { uid: number }).uid;
      await app.db.update(users).set({ status: 'banned' }).where(eq(users.id, uid));
      const banned = await call(app, 'account.getInfo', {}, registered.sessionCookie, 'GET');
      expect(banned.status).toBe(403);
      expect(banned.json.error?.type).toBe('UserBannedException');
      const after = await call(app, 'account.getInfo', {}, registered.sessionCookie, 'GET');
      expect((after.json.data as { uid: number }).uid).toBe(0);
      expect((await call(app, 'auth.login', { login, password: 'secret12' })).json.error?.type).toBe('UserBannedException');
    });
  });
});
