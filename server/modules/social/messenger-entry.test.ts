import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { demoSecret } from '../sites';
import { Browser } from '../../../test/player';
import { CookieBrowser } from '../../../test/cookie-browser';
import { generateTotpSecret, totpCode } from '../auth';
import { users } from '../../db/schema';
import { socialIdentities } from './tables';

/** The bot token of the default site: the demo's published value (server/modules/sites/demo-trust.ts). */
const BOT_TOKEN = demoSecret('aurora', 'MESSENGER_BOT_TOKEN') ?? '';

/**
 * Init data as the messenger signs it, written here from its published steps (not with the
 * code under test): secret = HMAC_SHA256("WebAppData", bot_token); hash = hex
 * HMAC_SHA256(secret, sorted "key=value" lines joined by \n).
 */
function signInitData(fields: Record<string, string>, botToken = BOT_TOKEN): string {
  const checkString = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  const hash = createHmac('sha256', secret).update(checkString).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}

let sequence = 0;
function messengerUser(overrides: Record<string, unknown> = {}) {
  return {
    id: 7_000_000_000 + (Date.now() % 1_000_000) * 100 + sequence++,
    first_name: 'Mia',
    username: 'mia_plays',
    language_code: 'it',
    ...overrides,
  };
}

function entryFields(user: Record<string, unknown>, authDateS = Math.floor(Date.now() / 1000)): Record<string, string> {
  return {
    query_id: 'AAHdF6IQAAAAAN0XohDhrOrc',
    user: JSON.stringify(user),
    auth_date: String(authDateS),
    start_param: 'ref_42',
  };
}

describe.each(testDatabaseKinds())(
  'messenger mini-app entry on %s (spec §1, §3 messenger registration, §4: registers automatically)',
  (kind) => {
    let app: TestApp;
    const countUsers = async () => (await app.db.select({ n: count() }).from(users))[0]?.n ?? 0;
    const identitiesOf = (subject: string) =>
      app.db
        .select()
        .from(socialIdentities)
        .where(and(eq(socialIdentities.provider, 'telegram'), eq(socialIdentities.subject, subject)));

    beforeAll(async () => {
      app = await createTestApp(kind);
    });
    afterAll(() => app?.close());

    it('registers the visitor on a correctly signed first entry and signs the same player in on the next', async () => {
      const person = messengerUser();
      const before = await countUsers();
      const browser = new Browser(app);
      const first = await browser.call('auth.messengerEntry', { init_data: signInitData(entryFields(person)) });
      expect(first.status).toBe(200);
      const info = browser.data<{ uid: number; login: string; locale: string; is_registration_completed: boolean }>(first);
      expect(info.uid).toBeGreaterThan(0);
      expect(info).toMatchObject({ login: `telegram:${person.id}`, locale: 'it', is_registration_completed: true });
      expect(first.sid).toMatch(/HttpOnly/i);
      expect(await countUsers()).toBe(before + 1);
      expect(await identitiesOf(String(person.id))).toHaveLength(1);
      const signedIn = browser.data<{ uid: number }>(await browser.call('account.getInfo', {}, 'GET'));
      expect(signedIn.uid).toBe(info.uid);

      const elsewhere = new Browser(app);
      const second = await elsewhere.call('auth.messengerEntry', { init_data: signInitData(entryFields(person)) });
      expect(elsewhere.data<{ uid: number }>(second).uid).toBe(info.uid);
      expect(await countUsers()).toBe(before + 1);
    });

    it('rotates the session the browser had', async () => {
      const person = messengerUser();
      const browser = new Browser(app);
      await browser.call('auth.messengerEntry', { init_data: signInitData(entryFields(person)) });
      const oldCookie = browser.cookie;
      await browser.call('auth.messengerEntry', { init_data: signInitData(entryFields(person)) });
      expect(browser.cookie).not.toBe(oldCookie);
      const stale = new Browser(app);
      stale.cookie = oldCookie;
      expect(stale.data<{ uid: number }>(await stale.call('account.getInfo', {}, 'GET')).uid).toBe(0);
    });

    it('a player with two-factor on gets the code step: AuthorizationException with a ticket, then auth.confirmSecondFactor signs in (issue 3)', async () => {
      const person = messengerUser();
      const first = new Browser(app);
      const uid = first.data<{ uid: number }>(
        await first.call('auth.messengerEntry', { init_data: signInitData(entryFields(person)) }),
      ).uid;
      const secret = generateTotpSecret();
      await app.db.update(users).set({ twoFactorSecret: secret, twoFactorEnabledAt: new Date() }).where(eq(users.id, uid));

      const browser = new CookieBrowser(app);
      const entry = await browser.api('auth.messengerEntry', { init_data: signInitData(entryFields(person)) });
      expect(entry.error).toMatchObject({ type: 'AuthorizationException', error_data: { two_factor: 'required' } });
      expect(browser.cookies.has('sid')).toBe(false);
      const ticket = String(entry.error?.error_data?.ticket);
      const signedIn = await browser.api<{ uid: number }>('auth.confirmSecondFactor', {
        ticket,
        code: totpCode(secret, Date.now()),
      });
      expect(signedIn.data?.uid).toBe(uid);
      expect((await browser.api<{ uid: number }>('account.getInfo', {}, 'GET')).data?.uid).toBe(uid);
    });

    describe('refused entries create nothing and leave the visitor anonymous (spec §8: messenger registration failure)', () => {
      async function expectRefused(initData: string, reason: string, subject: string) {
        const before = await countUsers();
        const browser = new Browser(app);
        const answer = await browser.call('auth.messengerEntry', { init_data: initData });
        expect(answer.status).toBe(401);
        expect(answer.json.error).toMatchObject({
          type: 'AuthorizationException',
          message: 'Wrong messenger registration',
          error_data: { reason },
        });
        expect(answer.sid).toBeUndefined();
        expect(await countUsers()).toBe(before);
        expect(await identitiesOf(subject)).toHaveLength(0);
        expect(browser.data<{ uid: number }>(await browser.call('account.getInfo', {}, 'GET')).uid).toBe(0);
      }

      it('a tampered field', async () => {
        const person = messengerUser();
        const signed = new URLSearchParams(signInitData(entryFields(person)));
        const other = { ...person, id: person.id + 1 };
        signed.set('user', JSON.stringify(other));
        await expectRefused(signed.toString(), 'signature', String(other.id));
      });

      it('data signed with another bot token', async () => {
        const person = messengerUser();
        await expectRefused(signInitData(entryFields(person), '111111111:some-other-bot'), 'signature', String(person.id));
      });

      it('an auth_date older than 24 hours', async () => {
        const person = messengerUser();
        const stale = Math.floor(Date.now() / 1000) - 24 * 60 * 60 - 60;
        await expectRefused(signInitData(entryFields(person, stale)), 'expired', String(person.id));
      });
    });

    it('checks an entry with the bot token of the site it is sent to', async () => {
      const person = messengerUser();
      const answer = await app.api('auth.messengerEntry', {
        method: 'POST',
        params: { init_data: signInitData(entryFields(person)) },
        host: 'lagoon.localhost',
      });
      expect(answer.status).toBe(401);
      expect(await identitiesOf(String(person.id))).toHaveLength(0);
      const lagoonToken = demoSecret('lagoon', 'MESSENGER_BOT_TOKEN') ?? '';
      const own = await app.api('auth.messengerEntry', {
        method: 'POST',
        params: { init_data: signInitData(entryFields(person), lagoonToken) },
        host: 'lagoon.localhost',
      });
      expect(own.status).toBe(200);
    });
  },
);
