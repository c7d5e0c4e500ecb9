import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { Browser, lastMessageTo, registeredPlayer, uniqueEmail } from '../../../test/player';
import { RESTORE_JOB, sendRestoreLinkJob, totpCode } from '../auth';
import { contacts } from '../../db/schema';

function codeIn(text: string | undefined): string {
  const code = /\b(\d{6})\b/.exec(text ?? '')?.[1];
  if (!code) throw new Error(`no code in ${text}`);
  return code;
}

describe.each(testDatabaseKinds())('profile, contacts and recovery on %s', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(kind);
  });
  afterAll(() => app?.close());
  /** Sends the restore links auth.restore queued (the job worker does it in a running server). */
  const sendRestoreLinks = () => app.services.jobs.drain({ [RESTORE_JOB]: sendRestoreLinkJob(app.services) });

  it('every profile method needs a signed-in player (AuthorizationException)', async () => {
    const anonymous = new Browser(app);
    for (const name of ['account.getprofileinfo', 'account.saveProfileInfo', 'account.addcontact', 'account.changepassword']) {
      const answer = await anonymous.call(name, {}, name === 'account.getprofileinfo' ? 'GET' : 'POST');
      expect(answer.json.error?.type, name).toBe('AuthorizationException');
    }
  });

  it('saves profile data of spec §3 with the §5 validators and answers 1', async () => {
    const { browser } = await registeredPlayer(app);
    const fields = {
      first_name: 'Maria',
      last_name: 'Rossi-Bianchi',
      birth_date: '12.05.1990',
      address: 'Via Roma 12/3',
      postcode: '00184',
      sex: '2',
      document_number: '123.456.789-09',
    };
    expect((await browser.call('account.saveProfileInfo', fields)).json.data).toBe(1);
    const profile = browser.data<Record<string, unknown>>(
      await browser.call('account.getprofileinfo', { fields: 'contacts,document' }, 'GET'),
    );
    expect(profile).toMatchObject({
      first_name: 'Maria',
      last_name: 'Rossi-Bianchi',
      sex: 2,
      document: { type: 'cpf', number: fields.document_number },
    });
    for (const [field, value, errorType] of [
      ['first_name', 'Ma1ria', 'name'],
      ['last_name', "D'Angelo", 'name'],
      ['birth_date', '31.02.1990', 'date'],
      ['postcode', '123456789', 'wrongField'],
    ] as const) {
      const answer = await browser.call('account.saveProfileInfo', { [field]: value });
      expect(answer.json.error?.error_data, field).toMatchObject({ field, errorType });
    }
    const tooYoung = `01.01.${new Date().getUTCFullYear() - 10}`;
    expect((await browser.call('account.saveProfileInfo', { birth_date: tooYoung })).json.error?.error_data?.field).toBe(
      'birth_date',
    );
  });

  it('answers InvalidParameterException naming the field, not a 500, when a JSON profile field is an object or a list (issue 11 attack fuzzer finding)', async () => {
    const { browser } = await registeredPlayer(app);
    for (const value of [{ toString: 'x', valueOf: 1 }, ['Maria'], { first: 'Maria' }, null, true]) {
      const response = await app.request('/api/account.saveProfileInfo?v=2.34&locale=en', {
        method: 'POST',
        headers: { cookie: browser.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ home_town: value }),
      });
      const answer = (await response.json()) as { error?: { type: string; error_data?: { field?: string } } };
      expect(response.status, JSON.stringify(value)).toBeLessThan(500);
      expect(answer.error, JSON.stringify(value)).toMatchObject({
        type: 'InvalidParameterException',
        error_data: { field: 'home_town' },
      });
    }
  });

  it('adds a contact, sends a 6-digit code through the outbox and confirms it (spec §4: contact saving)', async () => {
    const { browser, login } = await registeredPlayer(app);
    const phone = `39333${String(Date.now()).slice(-7)}`;
    expect((await browser.call('account.addcontact', { contact: `+${phone}`, phone_country_code: '+39' })).json.data).toBe(1);
    expect((await browser.call('account.addcontact', { contact: phone })).json.error?.error_data?.errorType).toBe('taken');
    expect((await browser.call('account.addcontact', { contact: 'not-a-contact' })).json.error?.error_data?.field).toBe(
      'contact',
    );

    expect((await browser.call('account.sendconfirmationtocontact', { contact: login })).json.data).toBe(1);
    const code = codeIn((await lastMessageTo(app, login))?.body);
    const wrong = code === '000000' ? '111111' : '000000';
    expect(
      (await browser.call('account.confirmContact', { contact: login, code: wrong })).json.error?.error_data?.errorType,
    ).toBe('smsCode');
    expect((await browser.call('account.confirmContact', { contact: login, code })).json.data).toBe(1);
    expect((await browser.call('account.confirmContact', { contact: login, code })).json.error?.type).toBe(
      'InvalidParameterException',
    );

    expect((await browser.call('account.changeSubscription', { contact: phone, subscription: '1' })).json.data).toBe(1);
    const profile = browser.data<{
      contacts: { contact: string; is_confirmed: boolean; is_subscribed: boolean; phone_country_code?: string }[];
    }>(await browser.call('account.getprofileinfo', {}, 'GET'));
    expect(profile.contacts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ contact: login, is_confirmed: true }),
        expect.objectContaining({ contact: `+${phone}`, is_confirmed: false, is_subscribed: true, phone_country_code: '+39' }),
      ]),
    );
  });

  type Contacts = { contacts: { contact: string; is_subscribed: boolean }[] };
  const phonesOf = async (browser: Browser) =>
    browser
      .data<Contacts>(await browser.call('account.getprofileinfo', {}, 'GET'))
      .contacts.filter((contact) => !contact.contact.includes('@'));

  it('issue 15: a phone contact is stored and shown in E.164 with its "+", a national number taking the country code given', async () => {
    const { browser } = await registeredPlayer(app);
    const tail = String(Date.now()).slice(-7);
    expect((await browser.call('account.addcontact', { contact: `+44 (20) 7${tail}` })).json.data).toBe(1);
    expect((await browser.call('account.addcontact', { contact: `333 ${tail}`, phone_country_code: '+39' })).json.data).toBe(1);
    expect((await phonesOf(browser)).map((contact) => contact.contact)).toEqual([`+44207${tail}`, `+39333${tail}`]);
    // The same number written otherwise is the same contact.
    expect((await browser.call('account.addcontact', { contact: `39333${tail}` })).json.error?.error_data?.errorType).toBe(
      'taken',
    );
    expect((await browser.call('account.changeSubscription', { contact: `+39 333 ${tail}`, subscription: '1' })).json.data).toBe(
      1,
    );
    expect((await phonesOf(browser)).find((contact) => contact.contact === `+39333${tail}`)?.is_subscribed).toBe(true);
  });

  it('issue 15: a phone stored before the fix without its "+" is shown with it and found in either form', async () => {
    const { browser, uid } = await registeredPlayer(app);
    const phone = `39366${String(Date.now()).slice(-7)}`;
    await app.db.insert(contacts).values({ userId: uid, type: 'phone', value: phone });
    expect((await phonesOf(browser)).map((contact) => contact.contact)).toEqual([`+${phone}`]);
    expect((await browser.call('account.addcontact', { contact: `+${phone}` })).json.error?.error_data?.errorType).toBe('taken');
    expect((await browser.call('account.changeSubscription', { contact: `+${phone}`, subscription: '1' })).json.data).toBe(1);
    expect((await phonesOf(browser))[0]?.is_subscribed).toBe(true);
  });

  it('issue 15: a player signed up with a phone keeps the "+" on the login contact; the login itself is sent without it (spec §5)', async () => {
    const browser = new Browser(app);
    const phone = `39347${String(Date.now()).slice(-7)}`;
    const info = browser.data<{ login: string; is_subscribed: boolean }>(
      await browser.call('auth.register', { login: `+${phone}`, password: 'secret12', terms: '1', notify: '1' }),
    );
    expect(info).toMatchObject({ login: phone, is_subscribed: true });
    expect(await phonesOf(browser)).toEqual([expect.objectContaining({ contact: `+${phone}`, is_subscribed: true })]);
    const again = new Browser(app);
    expect(again.data<{ login: string }>(await again.call('auth.login', { login: phone, password: 'secret12' })).login).toBe(
      phone,
    );
  });

  it('changes the fake name and locale with the §5 rules', async () => {
    const { browser } = await registeredPlayer(app);
    expect((await browser.call('account.changefakename', { fakename: 'Lucky7' })).json.data).toBe(1);
    expect((await browser.call('account.changefakename', { fakename: 'a_b' })).json.error?.error_data?.field).toBe('fakename');
    expect((await browser.call('account.changelocale', { locale: 'it' })).json.data).toBe(1);
    expect((await browser.call('account.changelocale', { locale: 'xx' })).json.error?.error_data?.field).toBe('locale');
    expect(browser.data<{ fakename: string; locale: string }>(await browser.call('account.getInfo', {}, 'GET'))).toMatchObject({
      fakename: 'Lucky7',
      locale: 'it',
    });
  });

  it('changing the password checks the old one and ends every other session', async () => {
    const { browser, login, password } = await registeredPlayer(app);
    const other = new Browser(app);
    other.data(await other.call('auth.login', { login, password }));
    expect(
      (await browser.call('account.changepassword', { old_password: 'wrong-one', new_password: 'newpass12' })).json.error
        ?.error_data?.field,
    ).toBe('old_password');
    expect(
      (
        await browser.call('account.changepassword', {
          old_password: password,
          new_password: 'newpass12',
          new_password_repeated: 'newpass13',
        })
      ).json.error?.error_data?.errorType,
    ).toBe('sameAs');
    expect((await browser.call('account.changepassword', { old_password: password, new_password: 'newpass12' })).json.data).toBe(
      1,
    );
    expect(browser.data<{ uid: number }>(await browser.call('account.getInfo', {}, 'GET')).uid).toBeGreaterThan(0);
    expect(other.data<{ uid: number }>(await other.call('account.getInfo', {}, 'GET')).uid).toBe(0);
    expect((await new Browser(app).call('auth.login', { login, password: 'newpass12' })).status).toBe(200);
  });

  it('restores a password by e-mailed link; the link works once; unknown logins answer the same', async () => {
    const { login } = await registeredPlayer(app);
    const visitor = new Browser(app);
    expect((await visitor.call('auth.restore', { login })).json.data).toBe(1);
    expect((await visitor.call('auth.restore', { login: uniqueEmail() })).json.data).toBe(1);
    await sendRestoreLinks();
    const mail = await lastMessageTo(app, login);
    const link = /(http\S+reset_token=\S+)/.exec(mail?.body ?? '')?.[1] ?? '';
    expect(new URL(link).pathname).toBe('/forms/sign_in');
    const token = new URL(link).searchParams.get('reset_token') ?? '';
    expect((await visitor.call('auth.resetpassword', { token, password: 'abc' })).json.error?.error_data?.field).toBe('password');
    expect((await visitor.call('auth.resetpassword', { token, password: 'reset123' })).json.data).toBe(1);
    expect((await visitor.call('auth.resetpassword', { token, password: 'reset456' })).json.error?.error_data?.field).toBe(
      'token',
    );
    expect((await new Browser(app).call('auth.login', { login, password: 'reset123' })).status).toBe(200);
  });

  it('a reset link never points at a forged host', async () => {
    const { login } = await registeredPlayer(app);
    await app.request('/api/auth.restore?v=2.34&locale=it', {
      method: 'POST',
      body: new URLSearchParams({ login }),
      host: 'evil.example',
    });
    await sendRestoreLinks();
    const link = /(http\S+)/.exec((await lastMessageTo(app, login))?.body ?? '')?.[1] ?? '';
    expect(new URL(link).hostname).not.toBe('evil.example');
    expect(new URL(link).pathname).toBe('/it/forms/sign_in');
  });

  it('sets up two-factor with a QR code, confirms it with a code and turns it off with a code (architecture §4)', async () => {
    const { browser, login, password } = await registeredPlayer(app);
    const setup = browser.data<{ secret: string; otpauth_uri: string; qr_svg: string }>(
      await browser.call('account.changeTwoFactorAuth', { enable: '1' }),
    );
    expect(setup.otpauth_uri).toContain(`secret=${setup.secret}`);
    expect(setup.qr_svg).toContain('<svg');
    expect((await browser.call('account.confirmTwoFactorAuth', { code: '12345' })).json.error?.error_data?.field).toBe('code');
    expect((await browser.call('account.confirmTwoFactorAuth', { code: totpCode(setup.secret, Date.now()) })).json.data).toBe(1);
    expect(browser.data<{ two_factor_auth: boolean }>(await browser.call('account.getInfo', {}, 'GET')).two_factor_auth).toBe(
      true,
    );
    expect((await new Browser(app).call('auth.login', { login, password })).json.error?.error_data?.two_factor).toBe('required');
    const laterCode = totpCode(setup.secret, Date.now() + 30_000);
    expect((await browser.call('account.changeTwoFactorAuth', { enable: '0', code: laterCode })).json.data).toBe(1);
    expect((await new Browser(app).call('auth.login', { login, password })).status).toBe(200);
  });
});

describe.each(testDatabaseKinds())('signed unsubscribe links on %s (spec §2 /unsubscribe)', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(kind);
  });
  afterAll(() => app?.close());

  it('the link in our e-mail unsubscribes that contact, and a changed link is refused', async () => {
    const { browser, login } = await registeredPlayer(app);
    await browser.call('account.changeSubscription', { contact: login, subscription: '1' });
    await browser.call('account.sendconfirmationtocontact', { contact: login });
    const link = new URL(/(http\S+\/unsubscribe\?\S+)/.exec((await lastMessageTo(app, login))?.body ?? '')?.[1] ?? 'http://x/');
    const params = Object.fromEntries(link.searchParams);
    const visitor = new Browser(app);
    expect((await visitor.call('account.unsubscribe', { ...params, c: `x${params.c}` })).json.error?.type).toBe(
      'InvalidParameterException',
    );
    expect((await visitor.call('account.unsubscribe', { ...params, s: `${params.s?.slice(0, -2)}AA` })).json.error?.type).toBe(
      'InvalidParameterException',
    );
    expect((await visitor.call('account.unsubscribe', params)).json.data).toBe(1);
    const profile = browser.data<{ contacts: { contact: string; is_subscribed: boolean }[] }>(
      await browser.call('account.getprofileinfo', {}, 'GET'),
    );
    expect(profile.contacts.find((contact) => contact.contact === login)?.is_subscribed).toBe(false);
  });
});
