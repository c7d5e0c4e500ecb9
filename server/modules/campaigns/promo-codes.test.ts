/**
 * Promo codes through the API (spec §4 "registration … activates a stored promo code", §5 promo
 * code errors by the first code in error_data.promo_code; architecture §4 rate limits).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { signedInPlayer } from '../../../test/player';
import { checkLedger } from '../wallet';

describe.each(testDatabaseKinds())('promo codes on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('a valid code (any letter case) credits its bonus once; a second activation answers ALREADY_ACTIVATED', async () => {
    const { browser } = await signedInPlayer(t);
    const first = browser.data<{ bonus: { amount: string; currency: string } }>(
      await browser.call('campaigns.activateOffer', { promo_code: 'welcome10' }),
    );
    expect(first.bonus).toEqual({ amount: '10.00', currency: 'EUR' });
    const again = await browser.call('campaigns.activateOffer', { promo_code: 'WELCOME10' });
    expect(again.json.error).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { promo_code: ['ALREADY_ACTIVATED'] },
    });
    const balances = browser.data<{ balance_bonus: { amount: string } }>(await browser.call('account.getBalance', {}, 'GET'));
    expect(balances.balance_bonus.amount).toBe('10.00');
    const history = browser.data<{ items: { amount: { amount: string } }[] }>(
      await browser.call('cashier.gethistory', { type: 'bonuses' }, 'GET'),
    );
    expect(history.items.map((item) => item.amount.amount)).toEqual(['10.00']);
    expect((await checkLedger(t.db)).isSound).toBe(true);
  });

  it('an unknown or empty code answers INVALID and moves nothing; checkPromocode says the same without activating', async () => {
    const { browser } = await signedInPlayer(t);
    for (const code of ['NOPE', ''])
      expect((await browser.call('campaigns.activateOffer', { promo_code: code })).json.error).toMatchObject({
        error_data: { promo_code: ['INVALID'] },
      });
    expect((await browser.call('campaigns.checkPromocode', { promo_code: 'NOPE' })).json.error).toMatchObject({
      error_data: { promo_code: ['INVALID'] },
    });
    expect(
      browser.data<{ title: string }>(await browser.call('campaigns.checkPromocode', { promo_code: 'WELCOME10' })).title,
    ).toContain('WELCOME10');
    const balances = browser.data<{ balance_bonus: { amount: string } }>(await browser.call('account.getBalance', {}, 'GET'));
    expect(balances.balance_bonus.amount).toBe('0.00');
  });

  it('activation needs a signed-in player', async () => {
    expect(
      (await t.api('campaigns.activateOffer', { method: 'POST', params: { promo_code: 'WELCOME10' } })).body.error?.type,
    ).toBe('AuthorizationException');
  });

  it('guessing codes is rate-limited per player (TooManyRequestsException)', async () => {
    const { browser } = await signedInPlayer(t);
    const answers = [];
    for (let attempt = 0; attempt < 11; attempt++)
      answers.push(await browser.call('campaigns.activateOffer', { promo_code: `GUESS${attempt}` }));
    expect(answers.slice(0, 10).every((answer) => answer.json.error?.type === 'InvalidParameterException')).toBe(true);
    expect(answers[10]?.json.error?.type).toBe('TooManyRequestsException');
  });
});
