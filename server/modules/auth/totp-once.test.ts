/**
 * A TOTP code works once under any concurrency (issue 11, reproducer 3: 4 of 4 parallel sign-ins
 * with one code got in on PostgreSQL). Every place a code is checked claims its time step with one
 * conditional write; these tests fire the same code in parallel and count the winners.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { Browser, signedInPlayer } from '../../../test/player';
import { CookieBrowser } from '../../../test/cookie-browser';
import { users } from '../../db/schema';
import type { UserRow } from '../account';
import { generateTotpSecret, totpCode } from './totp';

/** Parallel attempts per race: within the per-player code limit (5 per 15 minutes). */
const RACERS = 4;

describe.each(testDatabaseKinds())('a TOTP code works once under concurrency on %s (issue 11)', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(kind);
  });
  afterAll(() => app?.close());

  /** A player with two-factor on, signed out; its login, password and secret. */
  async function playerWithTwoFactor() {
    const { login, password, uid } = await signedInPlayer(app);
    const secret = generateTotpSecret();
    await app.db.update(users).set({ twoFactorSecret: secret, twoFactorEnabledAt: new Date() }).where(eq(users.id, uid));
    return { login, password, uid, secret };
  }

  const userRow = async (uid: number) => (await app.services.accounts.findUser(uid)) as UserRow;
  const fulfilled = (outcomes: PromiseSettledResult<unknown>[]) => outcomes.filter((outcome) => outcome.status === 'fulfilled');

  it('of parallel auth.login calls with the same password and code exactly one signs in', async () => {
    const { login, password, secret } = await playerWithTwoFactor();
    const code = totpCode(secret, Date.now());
    const browsers = Array.from({ length: RACERS }, () => new Browser(app));
    const answers = await Promise.all(browsers.map((browser) => browser.call('auth.login', { login, password, code })));
    const signedIn = answers.filter((answer) => answer.json.data !== undefined);
    expect(signedIn).toHaveLength(1);
    for (const answer of answers.filter((each) => each.json.error)) {
      expect(answer.status).not.toBe(500);
      expect(answer.json.error).toMatchObject({ type: 'AuthorizationException', error_data: { two_factor: 'invalid' } });
    }
  });

  it('of parallel auth.confirmSecondFactor calls (one ticket each) with the same code exactly one signs in', async () => {
    const { uid, secret } = await playerWithTwoFactor();
    const browsers = await Promise.all(
      Array.from({ length: RACERS }, async () => {
        const browser = new CookieBrowser(app);
        await browser.request('/api/metadata.getgeneralinfo?v=2.34&locale=en');
        const ticket = await app.services.oneTimeSecrets.issueSecondFactorTicket(uid, browser.cookies.get('vid') ?? '');
        return { browser, ticket };
      }),
    );
    const code = totpCode(secret, Date.now());
    const answers = await Promise.all(
      browsers.map(({ browser, ticket }) => browser.api<{ uid: number }>('auth.confirmSecondFactor', { ticket, code })),
    );
    expect(answers.filter((answer) => answer.data?.uid === uid)).toHaveLength(1);
    expect(answers.filter((answer) => answer.error?.type === 'AuthorizationException')).toHaveLength(RACERS - 1);
  });

  it('of parallel checks of one code by the service (every sign-in path) exactly one passes', async () => {
    const { uid, secret } = await playerWithTwoFactor();
    const user = await userRow(uid);
    const code = totpCode(secret, Date.now());
    const outcomes = await Promise.allSettled(
      Array.from({ length: RACERS }, () => app.services.auth.checkSecondFactor(user, code)),
    );
    expect(fulfilled(outcomes)).toHaveLength(1);
  });

  it('of parallel confirmations turning two-factor on with the same code exactly one counts', async () => {
    const { uid } = await signedInPlayer(app);
    const { secret } = await app.services.auth.startTwoFactorSetup(await userRow(uid), 'Test site');
    const pending = await userRow(uid);
    const code = totpCode(secret, Date.now());
    const outcomes = await Promise.allSettled(
      Array.from({ length: RACERS }, () => app.services.auth.confirmTwoFactor(pending, code)),
    );
    expect(fulfilled(outcomes)).toHaveLength(1);
    const enabled = await userRow(uid);
    expect(enabled.twoFactorEnabledAt).not.toBeNull();
    // The code that turned it on is spent: a sign-in with it is refused.
    await expect(app.services.auth.checkSecondFactor(enabled, code)).rejects.toMatchObject({ type: 'AuthorizationException' });
  });

  it('a code spent turning two-factor off cannot also sign in, whichever arrives first', async () => {
    const { uid, secret } = await playerWithTwoFactor();
    const user = await userRow(uid);
    const code = totpCode(secret, Date.now());
    const outcomes = await Promise.allSettled([
      app.services.auth.disableTwoFactor(user, code),
      app.services.auth.checkSecondFactor(user, code),
      app.services.auth.disableTwoFactor(user, code),
      app.services.auth.checkSecondFactor(user, code),
    ]);
    expect(fulfilled(outcomes)).toHaveLength(1);
  });
});
