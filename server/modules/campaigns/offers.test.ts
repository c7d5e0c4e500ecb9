/**
 * Offers grant bonuses of the site's programme (issue 13 "Where bonuses come from": promo codes,
 * opt-in promotions through campaigns.takepromotions; spec §7 campaigns): a promo code or a
 * promotion is a bonus with its template's wagering, granted once per player however many
 * requests race, and left available when the site's isolation allows no second active bonus.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountToMinor } from '#common/money';
import type { BonusPage, PromoActivation, PromotionTaken } from '#common/contract';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { hostPlayer } from '../../../test/host-player';
import { checkLedger } from '../wallet';

const AURORA = '127.0.0.1';
const LAGOON = 'lagoon.localhost';
const WEEKEND_FREE_BET = 4;

describe.each(testDatabaseKinds())('offers granting bonuses on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const expectSoundLedger = async () => expect((await checkLedger(t.db)).isSound).toBe(true);

  it('a promo code grants its template as an active bonus with wagering, once even when raced', async () => {
    const who = await hostPlayer(t, AURORA);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => who.browser.call('campaigns.activateOffer', { promo_code: 'WELCOME10' })),
    );
    const granted = answers.filter((answer) => answer.json.data).map((answer) => answer.json.data as PromoActivation);
    expect(granted).toHaveLength(1);
    expect(answers.filter((answer) => answer.json.error?.error_data?.promo_code).length).toBe(3);
    const page = who.browser.data<BonusPage>(await who.browser.call('bonuses.get', {}, 'GET'));
    const template = (await t.services.bonuses.programmeOf(who.siteId)).templates.get('promo10');
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      id: granted[0]?.bonus_id,
      status: 'active',
      wagering: { multiplier: template?.wagering.multiplier },
    });
    expect((await t.services.wallet.balances(who.siteId, who.uid, who.currency)).bonus).toBe(amountToMinor('10.00'));
    await expectSoundLedger();
  });

  it('with isolation a promo code taken while another casino bonus is active waits as available', async () => {
    const who = await hostPlayer(t, LAGOON);
    const first = await t.services.bonuses.grantAndActivate({
      siteId: who.siteId,
      userId: who.uid,
      currency: who.currency,
      templateId: 'reload25',
      source: 'operator',
      sourceRef: 'test:reload',
      depositMinor: amountToMinor('100.00'),
    });
    expect(first.row.status).toBe('active');
    const promo = who.browser.data<PromoActivation>(
      await who.browser.call('campaigns.activateOffer', { promo_code: 'welcome10' }),
    );
    expect(promo.bonus_status).toBe('available');
    expect((await t.services.wallet.balances(who.siteId, who.uid, who.currency)).bonus).toBe(first.row.amountMinor);
    await expectSoundLedger();
  });

  it('takepromotions opts in once: the promotion grants its betting bonus; again, unknown or raced is refused', async () => {
    const who = await hostPlayer(t, AURORA);
    const raced = await Promise.all(
      Array.from({ length: 3 }, () => who.browser.call('campaigns.takepromotions', { offer_id: String(WEEKEND_FREE_BET) })),
    );
    const taken = raced.filter((answer) => answer.json.data).map((answer) => answer.json.data as PromotionTaken);
    expect(taken).toHaveLength(1);
    expect(taken[0]?.bonus_status).toBe('active');
    expect(raced.filter((answer) => answer.json.error?.error_data?.reason === 'already_taken').length).toBe(2);
    const betting = who.browser.data<BonusPage>(await who.browser.call('BettingBonuses.get', {}, 'GET'));
    expect(betting.items.map((item) => [item.id, item.status, item.is_free_bet])).toEqual([[taken[0]?.bonus_id, 'active', true]]);
    expect((await t.services.wallet.balances(who.siteId, who.uid, who.currency)).betting_bonus).toBeGreaterThan(0n);

    expect((await who.browser.call('campaigns.takepromotions', { offer_id: '999' })).json.error).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'offer_id', reason: 'not_found' },
    });
    // A deposit offer is not an opt-in promotion.
    expect((await who.browser.call('campaigns.takepromotions', { offer_id: '1' })).json.error).toMatchObject({
      error_data: { reason: 'not_found' },
    });
    await expectSoundLedger();
  });

  it('takepromotions needs a signed-in player and a whole offer id', async () => {
    expect((await t.api('campaigns.takepromotions', { method: 'POST', params: { offer_id: '4' } })).body.error?.type).toBe(
      'AuthorizationException',
    );
    const who = await hostPlayer(t, AURORA);
    expect((await who.browser.call('campaigns.takepromotions', { offer_id: 'abc' })).json.error?.type).toBe(
      'InvalidParameterException',
    );
  });

  it('deposit offers show the terms of this site’s template (amounts per site)', async () => {
    const offers = (await t.api('campaigns.getoffers', { params: { offset: '0' } })).body.data as {
      id: number;
      description: { title: string };
      promotions: { template_id: string; percent: number; max_amount: string | null }[];
    }[];
    const programme = await t.services.bonuses.programmeOf('aurora');
    for (const offer of offers) {
      const template = programme.templates.get(offer.promotions[0]?.template_id ?? '');
      expect(template, `offer ${offer.id}`).toBeDefined();
      expect(offer.description.title).toBe(template?.texts?.en?.title);
      if (template?.amount.kind === 'deposit_percent') {
        expect(offer.promotions[0]).toMatchObject({ percent: template.amount.percent, max_amount: template.amount.caps.EUR });
      }
    }
    expect(offers.map((offer) => offer.id)).toEqual([1, 2]);
  });
});
