/**
 * The bonus lifecycle on a real database (issue 13 "Bonus model", "Bad input and races"; spec §7
 * bonuses.* and BettingBonuses.*): grants from the site's templates, activation paying the grant
 * onto the bonus balance through the ledger, deactivation, removal and forfeiture, the expiry job,
 * isolation and the jurisdiction's rules, each racing itself where money depends on it, and the
 * ledger check after every scenario.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { amountToMinor } from '#common/money';
import type { BonusPage, BonusView } from '#common/contract';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer, hostPlayer, type HostBrowser } from '../../../test/host-player';
import { registeredPlayer } from '../../../test/player';
import { backofficeApp } from '../../../test/api-harness';
import { auditLog } from '../../db/schema';
import { checkLedger } from '../wallet';
import { createBonusService } from './service';

const AURORA = '127.0.0.1';
const LAGOON = 'lagoon.localhost';

type Who = Awaited<ReturnType<typeof hostPlayer>>;

describe.each(testDatabaseKinds())('bonus lifecycle on %s', (kind) => {
  let t: TestApp;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const expectSoundLedger = async () => {
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  };

  async function grant(who: Who, templateId: string, depositMinor?: bigint) {
    const { row } = await t.services.bonuses.grant({
      siteId: who.siteId,
      userId: who.uid,
      currency: who.currency,
      templateId,
      source: 'operator',
      sourceRef: `test:${sequence++}`,
      depositMinor,
    });
    return row;
  }

  async function balances(who: Who) {
    return t.services.wallet.balances(who.siteId, who.uid, who.currency);
  }

  const errorOf = (answer: Awaited<ReturnType<HostBrowser['call']>>) => answer.json.error;

  it('a granted bonus is available, and activating it pays the grant onto the bonus balance once', async () => {
    const who = await hostPlayer(t, AURORA);
    const row = await grant(who, 'welcome', amountToMinor('80.00'));
    expect(row.status).toBe('available');
    expect(row.amountMinor).toBe(amountToMinor('80.00'));
    expect(row.wageringRequiredMinor).toBe(amountToMinor('80.00') * 35n);
    expect((await balances(who)).bonus).toBe(0n);

    const listed = who.browser.data<BonusPage>(await who.browser.call('bonuses.get', { status: 'available' }, 'GET'));
    expect(listed.items.map((item) => item.id)).toEqual([row.id]);
    expect(listed.items[0]?.description.title).toMatch(/Welcome bonus/);

    const active = who.browser.data<BonusView>(await who.browser.call('bonuses.activate', { bonus_id: String(row.id) }));
    expect(active).toMatchObject({ status: 'active', balance: { amount: '80.00' }, wagering: { percent: 0 } });
    expect(active.wagering_expires_at).not.toBeNull();
    expect((await balances(who)).bonus).toBe(amountToMinor('80.00'));

    const again = await who.browser.call('bonuses.activate', { bonus_id: String(row.id) });
    expect(errorOf(again)).toMatchObject({ type: 'InvalidParameterException', error_data: { bonus_id: ['NOT_AVAILABLE'] } });
    expect((await balances(who)).bonus).toBe(amountToMinor('80.00'));
    await expectSoundLedger();
  });

  it('parallel activations of one bonus pay its grant exactly once', async () => {
    const who = await hostPlayer(t, AURORA);
    const row = await grant(who, 'promo10');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => who.browser.call('bonuses.activate', { bonus_id: String(row.id) })),
    );
    expect(answers.filter((answer) => answer.json.data).length).toBe(1);
    expect(answers.filter((answer) => errorOf(answer)?.type === 'InvalidParameterException').length).toBe(5);
    expect((await balances(who)).bonus).toBe(amountToMinor('10.00'));
    await expectSoundLedger();
  });

  it("another player's bonus answers AccessDenied and moves nothing; an unknown id is not found", async () => {
    const owner = await hostPlayer(t, AURORA);
    const stranger = await hostPlayer(t, AURORA);
    const row = await grant(owner, 'promo10');
    for (const name of ['bonuses.activate', 'bonuses.remove', 'bonuses.deactivate']) {
      expect(errorOf(await stranger.browser.call(name, { bonus_id: String(row.id) }))?.type).toBe('AccessDeniedException');
    }
    expect(errorOf(await owner.browser.call('bonuses.activate', { bonus_id: '999999999' }))).toMatchObject({
      error_data: { bonus_id: ['NOT_FOUND'] },
    });
    const [after] = (
      await t.services.bonuses.list(owner.siteId, owner.uid, {
        type: 'casino',
        statuses: [],
        offset: 0,
        count: 10,
        locale: 'en',
      })
    ).items;
    expect(after?.status).toBe('available');
  });

  it('casino and betting calls act only on their own kind', async () => {
    const who = await hostPlayer(t, AURORA);
    const casino = await grant(who, 'promo10');
    const betting = await grant(who, 'freebet5');
    expect(errorOf(await who.browser.call('BettingBonuses.activate', { bonus_id: String(casino.id) }))).toMatchObject({
      error_data: { bonus_id: ['NOT_FOUND'] },
    });
    const freeBet = who.browser.data<BonusView>(
      await who.browser.call('BettingBonuses.activate', { bonus_id: String(betting.id) }),
    );
    expect(freeBet).toMatchObject({ type: 'betting', status: 'active', is_free_bet: true, min_odds: 1.5 });
    expect((await balances(who)).betting_bonus).toBe(amountToMinor('5.00'));
    const page = who.browser.data<BonusPage>(await who.browser.call('BettingBonuses.get', {}, 'GET'));
    expect(page.items.map((item) => item.id)).toEqual([betting.id]);
    await expectSoundLedger();
  });

  it('deactivating an unplayed bonus returns its grant; activating it again pays it again', async () => {
    const who = await hostPlayer(t, AURORA);
    const row = await grant(who, 'promo10');
    who.browser.data(await who.browser.call('bonuses.activate', { bonus_id: String(row.id) }));
    const back = who.browser.data<BonusView>(await who.browser.call('bonuses.deactivate', { bonus_id: String(row.id) }));
    expect(back).toMatchObject({ status: 'available', balance: { amount: '0.00' } });
    expect((await balances(who)).bonus).toBe(0n);
    who.browser.data(await who.browser.call('bonuses.activate', { bonus_id: String(row.id) }));
    expect((await balances(who)).bonus).toBe(amountToMinor('10.00'));
    await expectSoundLedger();
  });

  it('removing an active bonus forfeits its bonus money and never touches real money', async () => {
    const who = await hostPlayer(t, AURORA);
    await fundPlayer(t, who, '30.00');
    const row = await grant(who, 'welcome', amountToMinor('40.00'));
    who.browser.data(await who.browser.call('bonuses.activate', { bonus_id: String(row.id) }));
    expect(who.browser.data(await who.browser.call('bonuses.remove', { bonus_id: String(row.id) }))).toBe(1);
    const after = await balances(who);
    expect(after.bonus).toBe(0n);
    expect(after.main).toBe(amountToMinor('30.00'));
    const [ended] = (
      await t.services.bonuses.list(who.siteId, who.uid, {
        type: 'casino',
        statuses: ['forfeited'],
        offset: 0,
        count: 10,
        locale: 'en',
      })
    ).items;
    expect(ended?.id).toBe(row.id);
    await expectSoundLedger();
  });

  it('a forfeit at withdrawal racing the player removing the bonus ends it once', async () => {
    const who = await hostPlayer(t, AURORA);
    const row = await grant(who, 'promo10');
    who.browser.data(await who.browser.call('bonuses.activate', { bonus_id: String(row.id) }));
    const results = await Promise.allSettled([
      t.services.bonuses.forfeitActive(who.siteId, who.uid, `player:${who.uid}`),
      who.browser.call('bonuses.remove', { bonus_id: String(row.id) }),
      t.services.bonuses.forfeitActive(who.siteId, who.uid, `player:${who.uid}`),
    ]);
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    expect((await balances(who)).bonus).toBe(0n);
    await expectSoundLedger();
  });

  it('the expiry job ends bonuses past their windows, once, even run twice at the same time', async () => {
    const who = await hostPlayer(t, AURORA);
    const waiting = await grant(who, 'promo10');
    const playing = await grant(who, 'welcome', amountToMinor('25.00'));
    who.browser.data(await who.browser.call('bonuses.activate', { bonus_id: String(playing.id) }));
    expect((await balances(who)).bonus).toBe(amountToMinor('25.00'));

    // A process whose clock is past both windows (720 h of wagering is the longest).
    const later = createBonusService({
      db: t.db,
      wallet: t.services.wallet,
      siteSettings: async (siteId) => (await t.services.sites.listSites()).find((site) => site.id === siteId)?.settings,
      siteSettingsIn: (tx, siteId) => t.services.sites.settingsIn(tx, siteId),
      now: () => new Date(Date.now() + 721 * 3_600_000),
    });
    const runs = await Promise.all([later.expireDue(), later.expireDue()]);
    const ours = await later.list(who.siteId, who.uid, {
      type: 'casino',
      statuses: ['expired'],
      offset: 0,
      count: 10,
      locale: 'en',
    });
    expect(ours.items.map((item) => item.id).sort()).toEqual([waiting.id, playing.id].sort());
    expect(runs.reduce((sum, run) => sum + run.expired, 0)).toBeGreaterThanOrEqual(2);
    expect((await balances(who)).bonus).toBe(0n);
    expect(errorOf(await who.browser.call('bonuses.activate', { bonus_id: String(waiting.id) }))).toMatchObject({
      error_data: { bonus_id: ['EXPIRED'] },
    });
    await expectSoundLedger();
  });

  it('isolation allows one active casino bonus; the jurisdiction caps the multiplier and forbids mixing', async () => {
    const who = await hostPlayer(t, LAGOON);
    const welcome = await grant(who, 'welcome', amountToMinor('100.00'));
    // lagoon: welcome is 10× on the site, capped by its UK-style jurisdiction's maximum of 10.
    expect(welcome.wageringRequiredMinor).toBe(welcome.amountMinor * 10n);
    const promo = await grant(who, 'promo10');
    const freeBet = await grant(who, 'freebet5');
    who.browser.data(await who.browser.call('bonuses.activate', { bonus_id: String(welcome.id) }));
    expect(errorOf(await who.browser.call('bonuses.activate', { bonus_id: String(promo.id) }))).toMatchObject({
      error_data: { bonus_id: ['ONE_ACTIVE_ONLY'] },
    });
    expect(errorOf(await who.browser.call('BettingBonuses.activate', { bonus_id: String(freeBet.id) }))).toMatchObject({
      error_data: { bonus_id: ['MIXED_FORBIDDEN'] },
    });
    await expectSoundLedger();
  });

  it('without isolation two casino bonuses may be active at once (aurora)', async () => {
    const who = await hostPlayer(t, AURORA);
    const first = await grant(who, 'promo10');
    const second = await grant(who, 'welcome', amountToMinor('20.00'));
    who.browser.data(await who.browser.call('bonuses.activate', { bonus_id: String(first.id) }));
    who.browser.data(await who.browser.call('bonuses.activate', { bonus_id: String(second.id) }));
    expect((await balances(who)).bonus).toBe(amountToMinor('30.00'));
    await expectSoundLedger();
  });

  it('a grant of the same thing twice is the same bonus; a deposit under the minimum grants nothing', async () => {
    const who = await hostPlayer(t, AURORA);
    const request = {
      siteId: who.siteId,
      userId: who.uid,
      currency: who.currency,
      templateId: 'welcome',
      source: 'deposit_offer' as const,
      sourceRef: `deposit:${sequence++}`,
      depositMinor: amountToMinor('50.00'),
    };
    const [one, two] = await Promise.all([t.services.bonuses.grant(request), t.services.bonuses.grant(request)]);
    expect(one.row.id).toBe(two.row.id);
    expect([one.isNew, two.isNew].filter(Boolean).length).toBe(1);
    await expect(
      t.services.bonuses.grant({ ...request, sourceRef: `deposit:${sequence++}`, depositMinor: amountToMinor('19.99') }),
    ).rejects.toMatchObject({ code: 'DEPOSIT_TOO_SMALL' });
  });

  it('the back office grants by template with an operator token, idempotently by grant key, cancels, and audits both', async () => {
    const app = backofficeApp(t, { 'op-token-456': 'bob' });
    const who = await hostPlayer(t, AURORA);
    const send = (path: string, body: unknown, token = 'op-token-456') =>
      app.request(`http://${AURORA}/backoffice/bonuses${path}`, {
        method: 'POST',
        headers: { host: AURORA, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const terms = {
      user_id: who.uid,
      template_id: 'promo10',
      grant_key: `ticket-${sequence++}`,
      activate: true,
      reason: 'goodwill',
    };
    const created = await send('', terms);
    expect(created.status).toBe(201);
    const bonus = ((await created.json()) as { data: { id: number; status: string } }).data;
    expect(bonus.status).toBe('active');
    const again = await send('', terms);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: { id: number } }).data.id).toBe(bonus.id);
    const conflicting = await send('', { ...terms, template_id: 'freebet5' });
    expect(((await conflicting.json()) as { error: { error_data: { field: string } } }).error.error_data.field).toBe('grant_key');
    for (const [field, bad] of [
      ['template_id', { template_id: 'no-such-template' }],
      ['user_id', { user_id: 999_999_999 }],
      ['deposit_amount', { deposit_amount: '-5' }],
    ] as const) {
      const answer = await send('', { ...terms, ...bad, grant_key: `ticket-${sequence++}` });
      expect(answer.status, field).toBe(400);
      expect(((await answer.json()) as { error: { error_data: { field: string } } }).error.error_data.field).toBe(field);
    }
    expect((await send('', { ...terms, grant_key: `ticket-${sequence++}` }, 'wrong-token')).status).toBe(401);
    expect((await balances(who)).bonus).toBe(amountToMinor('10.00'));

    const cancelled = await send(`/${bonus.id}/cancel`, { reason: 'granted by mistake' });
    expect(((await cancelled.json()) as { data: { status: string } }).data.status).toBe('forfeited');
    expect((await balances(who)).bonus).toBe(0n);
    const audited = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `bonus:${bonus.id}`));
    expect(audited.map((entry) => [entry.action, entry.actor]).sort()).toEqual([
      ['bonus.cancel', 'operator:bob'],
      ['bonus.grant', 'operator:bob'],
    ]);
    await expectSoundLedger();
  });

  it('a new player is granted the site’s sign-up bonus, available to activate, once', async () => {
    const { browser, uid } = await registeredPlayer(t);
    const programme = await t.services.bonuses.programmeOf('aurora');
    const page = browser.data<BonusPage>(await browser.call('bonuses.get', { status: 'available' }, 'GET'));
    const template = programme.templates.get(programme.registrationTemplateId ?? '');
    expect(template).toBeDefined();
    expect(page.items.map((item) => [item.status, item.description.title])).toEqual([['available', template?.texts?.en?.title]]);
    const again = await t.services.bonuses.grantRegistrationBonus({ siteId: 'aurora', userId: uid, currency: 'EUR' });
    expect(again?.id).toBe(page.items[0]?.id);
    expect((await t.services.wallet.balances('aurora', uid, 'EUR')).bonus).toBe(0n);
  });
});
