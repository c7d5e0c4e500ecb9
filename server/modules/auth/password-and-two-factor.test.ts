import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '#common/errors';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { signedInPlayer } from '../../../test/player';
import type { UserRow } from '../account';
import { totpCode } from './totp';

const REQUEST = { ip: '127.0.0.1', userAgent: 'vitest' };

/** The error_data of the ApiError a call was refused with. */
async function refusal(call: Promise<unknown>): Promise<{ type: string; errorData: Record<string, unknown> | undefined }> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isApiError(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return { type: error.type, errorData: error.errorData };
}

describe.each(testDatabaseKinds())('password and two-factor changes of the auth service on %s', (kind) => {
  let app: TestApp;
  let siteId: string;
  beforeAll(async () => {
    app = await createTestApp(kind);
    siteId = (await app.services.sites.resolveSite('127.0.0.1')).id;
  });
  afterAll(() => app?.close());

  async function player(): Promise<{ user: UserRow; password: string }> {
    const { uid, password } = await signedInPlayer(app);
    const user = await app.services.accounts.findUser(uid);
    if (!user) throw new Error('no player');
    return { user, password };
  }

  const fresh = async (user: UserRow) => (await app.services.accounts.findUser(user.id)) as UserRow;
  const isOpen = async (token: string) => (await app.services.auth.resolveSession(token, siteId)) !== undefined;
  const signsInWith = async (user: UserRow, password: string) => app.services.auth.isPasswordRight(await fresh(user), password);

  it('changePassword refuses a wrong old password and changes nothing', async () => {
    const { user, password } = await player();
    const session = await app.services.auth.openSession(user.id, REQUEST);
    expect(await refusal(app.services.auth.changePassword(user, 'not-the-password', 'newpass12'))).toEqual({
      type: 'InvalidParameterException',
      errorData: { field: 'old_password', errorType: 'password' },
    });
    expect(await signsInWith(user, password)).toBe(true);
    expect(await signsInWith(user, 'newpass12')).toBe(false);
    expect(await isOpen(session)).toBe(true);
  });

  it('changePassword with the right old password sets the new one and ends every session of the player', async () => {
    const { user, password } = await player();
    const sessions = [
      await app.services.auth.openSession(user.id, REQUEST),
      await app.services.auth.openSession(user.id, REQUEST),
    ];
    const someoneElse = await player();
    const otherSession = await app.services.auth.openSession(someoneElse.user.id, REQUEST);
    await app.services.auth.changePassword(user, password, 'newpass12');
    expect(await signsInWith(user, 'newpass12')).toBe(true);
    expect(await signsInWith(user, password)).toBe(false);
    for (const session of sessions) expect(await isOpen(session)).toBe(false);
    expect(await isOpen(otherSession)).toBe(true);
  });

  it('of two changes racing from the same old password exactly one wins, and the password is the winner’s', async () => {
    const { user, password } = await player();
    const session = await app.services.auth.openSession(user.id, REQUEST);
    // Both requests read the account before either wrote: each checks the old password against the same hash.
    const outcomes = await Promise.allSettled([
      app.services.auth.changePassword(user, password, 'first-new-1'),
      app.services.auth.changePassword(user, password, 'second-new-2'),
    ]);
    const won = outcomes.findIndex((outcome) => outcome.status === 'fulfilled');
    const lost = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(lost?.status === 'rejected' && isApiError(lost.reason) && lost.reason.errorData).toEqual({
      field: 'old_password',
      errorType: 'password',
    });
    const [winner, loser] = won === 0 ? ['first-new-1', 'second-new-2'] : ['second-new-2', 'first-new-1'];
    expect(await signsInWith(user, winner)).toBe(true);
    expect(await signsInWith(user, loser)).toBe(false);
    expect(await signsInWith(user, password)).toBe(false);
    expect(await isOpen(session)).toBe(false);
  });

  it('replacePasswordHash of the account service writes only over the hash the caller checked', async () => {
    const { user } = await player();
    const current = user.passwordHash as string;
    expect(await app.services.accounts.replacePasswordHash(user.id, 'a-hash-no-longer-stored', 'new-hash')).toBe(false);
    expect((await fresh(user)).passwordHash).toBe(current);
    expect(await app.services.accounts.replacePasswordHash(user.id, current, 'new-hash')).toBe(true);
    expect((await fresh(user)).passwordHash).toBe('new-hash');
  });

  it('resetPassword sets the new password and ends every session', async () => {
    const { user, password } = await player();
    const session = await app.services.auth.openSession(user.id, REQUEST);
    await app.services.auth.resetPassword(user.id, 'reset-pass-1');
    expect(await signsInWith(user, 'reset-pass-1')).toBe(true);
    expect(await signsInWith(user, password)).toBe(false);
    expect(await isOpen(session)).toBe(false);
  });

  it('isPasswordRight is false for a wrong password and for an account without one', async () => {
    const { user, password } = await player();
    expect(await app.services.auth.isPasswordRight(user, password)).toBe(true);
    expect(await app.services.auth.isPasswordRight(user, `${password}x`)).toBe(false);
    expect(await app.services.auth.isPasswordRight({ ...user, passwordHash: null }, '')).toBe(false);
  });

  it('two-factor turns on only with a code of the pending secret, and each code works once', async () => {
    const { user } = await player();
    await expect(app.services.auth.confirmTwoFactor(user, '123456')).rejects.toMatchObject({
      type: 'InvalidRequestException',
    });
    const { secret, otpauthUri } = await app.services.auth.startTwoFactorSetup(user, 'Test site');
    expect(otpauthUri).toContain(`secret=${secret}`);
    const pending = await fresh(user);
    expect(pending.twoFactorEnabledAt).toBeNull();
    expect(await refusal(app.services.auth.confirmTwoFactor(pending, '000000'))).toEqual({
      type: 'InvalidParameterException',
      errorData: { field: 'code', errorType: 'twoFactorInvalid' },
    });
    const code = totpCode(secret, Date.now());
    await app.services.auth.confirmTwoFactor(pending, code);
    const enabled = await fresh(user);
    expect(enabled.twoFactorEnabledAt).not.toBeNull();
    await expect(app.services.auth.startTwoFactorSetup(enabled, 'Test site')).rejects.toMatchObject({
      type: 'InvalidRequestException',
    });
    // The code that turned it on cannot turn it off again: a replay is refused.
    expect((await refusal(app.services.auth.disableTwoFactor(enabled, code))).errorData).toEqual({
      field: 'code',
      errorType: 'twoFactorInvalid',
    });
    expect((await fresh(user)).twoFactorEnabledAt).not.toBeNull();
    await app.services.auth.disableTwoFactor(enabled, totpCode(secret, Date.now() + 30_000));
    const disabled = await fresh(user);
    expect(disabled.twoFactorEnabledAt).toBeNull();
    expect(disabled.twoFactorSecret).toBeNull();
  });

  it('disableTwoFactor refuses when two-factor is off, whatever the code', async () => {
    const { user } = await player();
    const { secret } = await app.services.auth.startTwoFactorSetup(user, 'Test site');
    // A pending secret is not an enabled second factor: its code cannot "turn off" anything.
    expect((await refusal(app.services.auth.disableTwoFactor(await fresh(user), totpCode(secret, Date.now())))).type).toBe(
      'InvalidParameterException',
    );
    expect((await fresh(user)).twoFactorSecret).toBe(secret);
  });
});
