import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { siteSeed } from '../../../test/fixtures';

const BALANCES = ['balance_main', 'balance_bonus', 'balance_betting_bonus', 'balance_fun'];

/** The user account info fields of spec §3. */
const ACCOUNT_FIELDS = [
  'uid',
  'reg_time',
  'login',
  'fakename',
  'is_subscribed',
  'balances',
  'is_on_verification',
  'is_verified',
  'is_kyc_block_enabled',
  'is_registration_completed',
  'country_code',
  'locale',
  'two_factor_auth',
];

interface AccountInfo {
  uid: number;
  locale: string;
  balances: Record<string, { amount: string; currency: string }>;
}

describe.each(testDatabaseKinds())(
  'account.getInfo of an anonymous visitor on %s (spec §3: authenticated means uid > 0)',
  (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(() => t?.close());

    it.each([
      ['aurora', 'en'],
      ['lagoon', 'it'],
    ])('gives uid 0 and zero balances as "0.00" strings in the currency of site %s, locale %s', async (siteId, locale) => {
      const seed = siteSeed(siteId);
      const { status, body } = await t.api('account.getInfo', { host: seed.hosts[0], locale });
      expect(status).toBe(200);
      const info = body.data as AccountInfo;
      expect(Object.keys(info).sort()).toEqual([...ACCOUNT_FIELDS].sort());
      expect(info.uid).toBe(0);
      expect(info.locale).toBe(locale);
      expect(Object.keys(info.balances).sort()).toEqual([...BALANCES].sort());
      for (const name of BALANCES) {
        // Amounts travel as decimal strings with two decimals, never as numbers (spec §9, architecture §5).
        expect(info.balances[name]).toEqual({ amount: '0.00', currency: seed.defaultCurrency });
      }
    });
  },
);
