/**
 * The cashier history's bonuses and cashbacks tabs end to end (spec §2 /cashier/history tab
 * bonuses or cashbacks, §4 history tabs, §7 cashier.gethistory (offset, count, type); issue 13):
 * a promo code's bonus granted and removed, and two cashbacks paid (one the period job's, one
 * an operator's), each read back from the ledger through the product API, newest first, paged,
 * with the amounts the bonus and cashback methods report and a kind the page labels by language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountToMinor } from '#common/money';
import type { HistoryPage } from '#common/cashier-contract';
import type { BonusPage, CashbackPage, CashbackView } from '#common/contract';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer, hostPlayer } from '../../../test/host-player';
import { cashbackProgramme, createCashbackService, periodContaining } from '../cashbacks';
import { checkLedger, house, move, player } from '../wallet';

const AURORA = '127.0.0.1';
/** How long after a period's end the job may compute it (server/modules/cashbacks SETTLE_MS), with a margin. */
const AFTER_SETTLING_MS = 20 * 60_000;

describe.each(testDatabaseKinds())('cashier history of bonuses and cashbacks on %s', (kind) => {
  let t: TestApp;
  let who: Awaited<ReturnType<typeof hostPlayer>>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    who = await hostPlayer(t, AURORA);
  });
  afterAll(() => t.close());

  const history = async (type: 'bonuses' | 'cashbacks', params: Record<string, string> = {}, locale = 'en') => {
    const query = new URLSearchParams({ v: '2.34', locale, type, ...params });
    const response = await who.browser.fetch(`/api/cashier.gethistory?${query}`);
    return ((await response.json()) as { data: HistoryPage }).data;
  };

  it('§2/§4: the bonuses tab lists the grant and the removal of a promo-code bonus, newest first, paged by offset and count', async () => {
    const activated = who.browser.data<{ bonus: { amount: string } }>(
      await who.browser.call('campaigns.activateOffer', { promo_code: 'WELCOME10' }),
    );
    const [bonus] = who.browser.data<BonusPage>(await who.browser.call('bonuses.get', { status: 'active' }, 'GET')).items;
    expect(bonus?.amount.amount).toBe(activated.bonus.amount);
    who.browser.data(await who.browser.call('bonuses.remove', { bonus_id: String(bonus!.id) }));

    const all = await history('bonuses');
    expect(all.total).toBe(2);
    // The removal came second, so it is listed first; both moved the whole bonus.
    expect(all.items.map((item) => item.kind)).toEqual([expect.stringMatching(/^bonus_(removed|forfeited)$/), 'bonus_grant']);
    expect(all.items.map((item) => [item.type, item.amount.amount, item.amount.currency])).toEqual([
      ['bonuses', bonus!.amount.amount, who.currency],
      ['bonuses', bonus!.amount.amount, who.currency],
    ]);
    for (const item of all.items) {
      expect(item.description).toContain(bonus!.description.title);
      expect(item.method).toBeNull();
    }
    expect(Date.parse(all.items[0]!.created_at)).toBeGreaterThanOrEqual(Date.parse(all.items[1]!.created_at));

    const first = await history('bonuses', { offset: '0', count: '1' });
    const second = await history('bonuses', { offset: '1', count: '1' });
    expect([first.total, second.total]).toEqual([2, 2]);
    expect([...first.items, ...second.items].map((item) => item.id)).toEqual(all.items.map((item) => item.id));
    expect((await history('bonuses', { offset: '2', count: '1' })).items).toEqual([]);
  });

  it('§2/§4: the cashbacks tab lists the payouts of the period job’s cashback and an operator’s, newest first, with their amounts', async () => {
    const settings = (await t.services.sites.listSites()).find((site) => site.id === who.siteId)?.settings;
    const programme = cashbackProgramme(who.siteId, settings)!;
    // Real money lost in this period, computed by a job whose clock reads just after the period settled.
    await fundPlayer(t, who, '100.00');
    const stake = amountToMinor('60.00');
    await t.services.wallet.transfer({
      siteId: who.siteId,
      userId: who.uid,
      kind: 'provider_bet',
      currency: who.currency,
      amountMinor: stake,
      legs: move(player(who.uid, 'main'), house('game', who.uid), stake),
      idempotencyKey: `history-test-bet:${who.uid}`,
      actor: 'provider:test',
      reason: 'test round',
    });
    const period = periodContaining(new Date(), programme.period, programme.time_zone);
    const later = new Date(period.end.getTime() + AFTER_SETTLING_MS);
    const job = createCashbackService({
      db: t.db,
      wallet: t.services.wallet,
      bonuses: t.services.bonuses,
      siteSettings: async () => settings,
      allSiteSettings: async () => ({ [who.siteId]: settings ?? {} }),
      enqueue: (jobKind, payload, options) => t.services.jobs.enqueue(jobKind, payload, options),
      now: () => later,
    });
    expect((await job.computePeriod(who.siteId, period.start)).created).toBe(1);
    const operator = await t.services.cashbacks.grantByOperator({
      siteId: who.siteId,
      userId: who.uid,
      currency: who.currency,
      netLossMinor: amountToMinor('40.00'),
      operator: 'test',
      reason: 'history test',
    });

    const listed = who.browser.data<CashbackPage>(
      await who.browser.call('cashbacks.get', { statuses: 'active', sort: 'id', order: 'asc' }, 'GET'),
    ).items;
    expect(listed.map((cashback) => cashback.id)).toContain(operator.row.id);
    const paid: CashbackView[] = [];
    for (const cashback of listed)
      paid.push(who.browser.data<CashbackView>(await who.browser.call('cashbacks.payout', { cashback_id: String(cashback.id) })));

    const all = await history('cashbacks', {}, 'it');
    expect(all.total).toBe(2);
    expect(all.items.map((item) => [item.type, item.kind, item.method])).toEqual([
      ['cashbacks', 'cashback_payout', null],
      ['cashbacks', 'cashback_payout', null],
    ]);
    // Newest first: the one paid last is listed first, each with what cashbacks.payout paid.
    expect(all.items.map((item) => item.amount)).toEqual([...paid].reverse().map((cashback) => cashback.amount));
    for (const item of all.items) expect(item.description).toMatch(new RegExp(`^${programme.period} cashback of `));
    const pages = [
      await history('cashbacks', { offset: '0', count: '1' }),
      await history('cashbacks', { offset: '1', count: '1' }),
    ];
    expect(pages.flatMap((page) => page.items.map((item) => item.id))).toEqual(all.items.map((item) => item.id));
    // A cashback paid as real money is no bonus movement: the bonuses tab keeps its two rows.
    expect((await history('bonuses')).total).toBe(2);
    expect((await checkLedger(t.db)).isSound).toBe(true);
  });

  it('bad paging answers InvalidParameterException, never 500', async () => {
    const badValues: Record<string, string>[] = [{ count: '0' }, { count: '101' }, { offset: '-1' }, { count: 'four' }];
    for (const params of badValues) {
      const query = new URLSearchParams({ v: '2.34', locale: 'en', type: 'cashbacks', ...params });
      const response = await who.browser.fetch(`/api/cashier.gethistory?${query}`);
      expect(response.status, JSON.stringify(params)).toBe(400);
      expect(((await response.json()) as { error: { type: string } }).error.type).toBe('InvalidParameterException');
    }
  });
});
