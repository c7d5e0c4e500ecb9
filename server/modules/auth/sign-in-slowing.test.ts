/**
 * Issue 11: ten wrong passwords used to lock a player out for 15 minutes, the right password
 * included. Now failed attempts slow the attacking address and the account progressively, and the
 * owner still gets in with the right password and a valid second factor, or from a device they
 * signed in on before; the slowed answers say nothing about the password. Races on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createHttpApp } from '../../http';
import { createServices } from '../../services';
import { createSeededTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { hashPassword } from './passwords';
import { generateTotpSecret, totpCode } from './totp';
import { ACCOUNT_SLOWING, ADDRESS_SLOWING, TRUSTED_DEVICE_TTL_MS, isDeviceTokenOf, signDeviceToken } from './sign-in-guard';

interface Answer {
  status: number;
  json: { data?: { uid?: number }; error?: { type: string; message: string; error_data?: Record<string, unknown> } };
  /** Cookie pairs the answer set, by name. */
  cookies: Map<string, string>;
}

let sequence = 0;
const uniqueEmail = () => `slowed${Date.now()}${sequence++}@example.com`;
/** A fresh address per test: the address's own slowing must not leak from one test into the next. */
let addressSequence = 0;
const freshAddress = () => `203.0.113.${++addressSequence}`;

describe.each(testDatabaseKinds())('sign-in slowing on %s (issue 11)', (kind) => {
  let database: TestDatabase;
  let services: ReturnType<typeof createServices>;
  let app: ReturnType<typeof createHttpApp>;
  let siteId: string;
  beforeAll(async () => {
    database = await createSeededTestDatabase(kind);
    services = createServices(database.handle.db, { notify: database.handle.notify });
    app = createHttpApp({
      services,
      logger: pino({ level: 'silent' }),
      mode: 'test',
      maxBodyBytes: 64 * 1024,
      // The client address comes from X-Forwarded-For, so each test plays from addresses of its own.
      proxy: { mode: 'hops', hops: 1 },
      buildVersion: 'test',
    });
    siteId = (await services.sites.resolveSite('127.0.0.1')).id;
  });
  afterAll(() => database?.drop());

  async function signIn(params: Record<string, string>, from: string, cookie = ''): Promise<Answer> {
    const response = await app.request('http://127.0.0.1/api/auth.login?v=2.34&locale=en', {
      method: 'POST',
      body: new URLSearchParams(params),
      headers: { host: '127.0.0.1', 'x-forwarded-for': from, ...(cookie ? { cookie } : {}) },
    });
    const cookies = new Map(
      response.headers.getSetCookie().map((line) => {
        const pair = line.split(';')[0] ?? '';
        return [pair.slice(0, pair.indexOf('=')), pair] as const;
      }),
    );
    return { status: response.status, json: (await response.json()) as Answer['json'], cookies };
  }

  async function player(options: { twoFactor?: boolean } = {}) {
    const login = uniqueEmail();
    const user = await services.accounts.createUser({
      siteId,
      login,
      passwordHash: await hashPassword('secret12'),
      currency: 'EUR',
      locale: 'en',
      isSubscribed: false,
    });
    if (!user) throw new Error('no player');
    const secret = generateTotpSecret();
    if (options.twoFactor) {
      await services.accounts.startTwoFactorSetup(user.id, secret);
      await services.accounts.enableTwoFactor(user.id, secret, 0);
    }
    return { login, uid: user.id, secret };
  }

  /** Wrong passwords on an account all at once, as an attacker's script would send them. */
  function guessInParallel(login: string, from: string, count: number): Promise<Answer[]> {
    return Promise.all(Array.from({ length: count }, (_, n) => signIn({ login, password: `guess${n}` }, from)));
  }

  it('counts every one of a burst of parallel wrong passwords and lets no more through than the free attempts', async () => {
    const { login } = await player();
    const answers = await guessInParallel(login, freshAddress(), 12);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(ACCOUNT_SLOWING.free);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(12 - ACCOUNT_SLOWING.free);
    expect(refused.every((answer) => answer.json.error?.type === 'TooManyRequestsException')).toBe(true);
    expect(refused.every((answer) => Number(answer.json.error?.error_data?.retry_after) > 0)).toBe(true);
    expect(await services.rateLimits.attemptsOf(`sign-in:account:${siteId}:${login}`)).toBe(12);
  });

  it('a slowed account refuses the right password from a new device without a second factor, like a wrong one', async () => {
    const { login } = await player();
    await guessInParallel(login, freshAddress(), 10);
    const owner = freshAddress();
    const right = await signIn({ login, password: 'secret12' }, owner);
    const wrong = await signIn({ login, password: 'not-it-12' }, owner);
    expect(right.status).toBe(429);
    expect(right.json.error?.type).toBe('TooManyRequestsException');
    expect({ ...right.json.error, error_data: undefined }).toEqual({ ...wrong.json.error, error_data: undefined });
    expect(right.cookies.has('sid')).toBe(false);
  });

  it('the owner gets past the slowing with the right password and a valid second factor; nothing less passes', async () => {
    const { login, uid, secret } = await player({ twoFactor: true });
    await guessInParallel(login, freshAddress(), 10);
    const owner = freshAddress();
    const code = totpCode(secret, Date.now());
    const wrongPasswordRightCode = await signIn({ login, password: 'not-it-12', code }, owner);
    const rightPasswordWrongCode = await signIn(
      { login, password: 'secret12', code: code === '000000' ? '111111' : '000000' },
      owner,
    );
    const rightPasswordNoCode = await signIn({ login, password: 'secret12' }, owner);
    for (const refused of [wrongPasswordRightCode, rightPasswordWrongCode, rightPasswordNoCode]) {
      expect(refused.status).toBe(429);
      expect(refused.json.error?.message).toBe(wrongPasswordRightCode.json.error?.message);
    }
    const passed = await signIn({ login, password: 'secret12', code }, owner);
    expect(passed.status).toBe(200);
    expect(passed.json.data?.uid).toBe(uid);
    expect(passed.cookies.has('sid')).toBe(true);
    // The success ends the account's streak: the attacker starts again from the free attempts.
    expect(await services.rateLimits.attemptsOf(`sign-in:account:${siteId}:${login}`)).toBe(0);
  });

  it('the owner gets past the slowing from a device they signed in on before; another player’s device does not', async () => {
    const { login, uid } = await player();
    const other = await player();
    const owner = freshAddress();
    const first = await signIn({ login, password: 'secret12' }, owner);
    const device = first.cookies.get('did');
    expect(device).toMatch(/^did=/);
    const otherDevice = (await signIn({ login: other.login, password: 'secret12' }, owner)).cookies.get('did') ?? '';
    await guessInParallel(login, freshAddress(), 10);
    expect((await signIn({ login, password: 'secret12' }, owner, otherDevice)).status).toBe(429);
    expect((await signIn({ login, password: 'secret12' }, owner, 'did=1.2.forged')).status).toBe(429);
    const fromDevice = await signIn({ login, password: 'secret12' }, owner, device);
    expect(fromDevice.status).toBe(200);
    expect(fromDevice.json.data?.uid).toBe(uid);
    // The known device still needs the password.
    await guessInParallel(login, freshAddress(), 10);
    expect((await signIn({ login, password: 'not-it-12' }, owner, device)).status).toBe(401);
  });

  it('a device cookie is the server’s own: signed for this player and site, refused when forged or expired', async () => {
    const { uid } = await player();
    const key = await services.storage.getOrCreate('system', 'trusted_device_key', () => 'unused');
    const token = signDeviceToken(key, siteId, uid);
    expect(isDeviceTokenOf(key, token, siteId, uid)).toBe(true);
    expect(isDeviceTokenOf(key, token, siteId, uid + 1)).toBe(false);
    expect(isDeviceTokenOf(key, token, 'another-site', uid)).toBe(false);
    expect(isDeviceTokenOf('another-key', token, siteId, uid)).toBe(false);
    expect(isDeviceTokenOf(key, token, siteId, uid, Date.now() + TRUSTED_DEVICE_TTL_MS + 1000)).toBe(false);
  });

  it('slows an address guessing across many accounts, while a player on a known device from it still gets in', async () => {
    const attacker = freshAddress();
    const { login, uid } = await player();
    const device = (await signIn({ login, password: 'secret12' }, attacker)).cookies.get('did') ?? '';
    const guesses = ADDRESS_SLOWING.free + 10;
    const answers = await Promise.all(
      Array.from({ length: guesses }, (_, n) =>
        signIn({ login: `nobody${n}.${Date.now()}@example.com`, password: 'guess123' }, attacker),
      ),
    );
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(ADDRESS_SLOWING.free);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(10);
    expect((await signIn({ login, password: 'secret12' }, attacker)).status).toBe(429);
    const known = await signIn({ login, password: 'secret12' }, attacker, device);
    expect(known.status).toBe(200);
    expect(known.json.data?.uid).toBe(uid);
    // Another address is not slowed by this one's guesses.
    expect((await signIn({ login, password: 'secret12' }, freshAddress())).status).toBe(200);
  });

  it('a player with two-factor on is not slowed by the code step itself', async () => {
    const { login, secret } = await player({ twoFactor: true });
    const from = freshAddress();
    for (let round = 0; round < ACCOUNT_SLOWING.free + 2; round++) {
      const asked = await signIn({ login, password: 'secret12' }, from);
      expect(asked.json.error?.error_data?.two_factor).toBe('required');
    }
    expect(await services.rateLimits.attemptsOf(`sign-in:account:${siteId}:${login}`)).toBe(0);
    expect((await signIn({ login, password: 'secret12', code: totpCode(secret, Date.now()) }, from)).status).toBe(200);
  });
});
