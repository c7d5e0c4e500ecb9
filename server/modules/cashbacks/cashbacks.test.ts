/**
 * Cashback on a real database (issue 13 "Cashback", "Bad input and races"; spec §3 Cashback, §4
 * cashback popup fetch (statuses, sort end_date desc, count 1), §7 cashbacks get, payout,
 * remove): the period job from the ledger's real-money play, payout as real money or as a bonus,
 * removal and expiry, each racing itself where money depends on it, and the ledger check after
 * every money scenario.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { amountToMinor, minorToAmount } from '#common/money';
import type { BonusPage, CashbackPage, CashbackView } from '#common/contract';
import { backofficeApp, createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer, hostPlayer, type HostBrowser } from '../../../test/host-player';
import { createJobHandlers } from '../../job-handlers';
import { auditLog } from '../../db/schema';
import { checkLedger, house, move, player, type AccountRef } from '../wallet';
import { cashbackAmountMinor, cashbackProgramme, periodContaining, type CashbackSettings } from './programme';
import { CASHBACK_PERIOD_JOB, SETTLE_MS, createCashbackService } from './service';
import { cashbacks } from './tables';

const AURORA = '127.0.0.1';
const LAGOON = 'lagoon.localhost';
const DICE = 'dice-roll';

type Who = Awaited<ReturnType<typeof hostPlayer>>;

describe.each(testDatabaseKinds())('cashbacks on %s', (kind) => {
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
  const errorOf = (answer: Awaited<ReturnType<HostBrowser['call']>>) => answer.json.error;

  async function settingsOf(siteId: string): Promise<Record<string, unknown>> {
    return (await t.services.sites.listSites()).find((site) => site.id === siteId)?.settings ?? {};
  }

  async function programmeOf(siteId: string): Promise<CashbackSettings> {
    const programme = cashbackProgramme(siteId, await settingsOf(siteId));
    if (!programme) throw new Error(`${siteId} runs no cashback programme`);
    return programme;
  }

  /** The cashback service of a process whose clock reads `at`. */
  function serviceAt(at: () => Date) {
    return createCashbackService({
      db: t.db,
      wallet: t.services.wallet,
      bonuses: t.services.bonuses,
      siteSettings: settingsOf,
      allSiteSettings: async () =>
        Object.fromEntries((await t.services.sites.listSites()).map((site) => [site.id, site.settings])),
      enqueue: (jobKind, payload, options) => t.services.jobs.enqueue(jobKind, payload, options),
      now: at,
    });
  }

  /** The current period of a site, and a service whose clock is just past its settling time. */
  async function afterThisPeriod(siteId: string) {
    const programme = await programmeOf(siteId);
    const period = periodContaining(new Date(), programme.period, programme.time_zone);
    const later = new Date(period.end.getTime() + SETTLE_MS + 60_000);
    return { programme, period, later, service: serviceAt(() => later) };
  }

  /** A real-money bet and its win through the external-provider path, as the seamless wallet books them. */
  async function play(who: Who, staked: string, won: string, from: 'main' | 'bonus' = 'main') {
    const stake = amountToMinor(staked);
    const win = amountToMinor(won);
    const common = { siteId: who.siteId, userId: who.uid, currency: who.currency, actor: 'provider:test', reason: 'test round' };
    const account: AccountRef = player(who.uid, from);
    await t.services.wallet.transfer({
      ...common,
      kind: 'provider_bet',
      amountMinor: stake,
      legs: move(account, house('game', who.uid), stake),
      idempotencyKey: `cb-bet-${who.uid}-${sequence++}`,
    });
    if (win > 0n)
      await t.services.wallet.transfer({
        ...common,
        kind: 'provider_win',
        amountMinor: win,
        legs: move(house('game', who.uid), account, win),
        idempotencyKey: `cb-win-${who.uid}-${sequence++}`,
      });
  }

  async function losingPlayer(host: string, lost: string) {
    const who = await hostPlayer(t, host);
    await fundPlayer(t, who, lost);
    await play(who, lost, '0.00');
    return who;
  }

  async function rowsOf(who: Who) {
    return t.db
      .select()
      .from(cashbacks)
      .where(and(eq(cashbacks.siteId, who.siteId), eq(cashbacks.userId, who.uid)));
  }

  async function onlyCashback(who: Who) {
    const rows = await rowsOf(who);
    expect(rows.length).toBe(1);
    return rows[0]!;
  }

  const main = async (who: Who) => (await t.services.wallet.balances(who.siteId, who.uid, who.currency)).main;

  it('the period job pays back the percent of real-money net loss, counting wins and leaving bonus money out', async () => {
    const { programme, period, service } = await afterThisPeriod('aurora');
    const loser = await hostPlayer(t, AURORA);
    await fundPlayer(t, loser, '100.00');
    await play(loser, '80.00', '30.00');
    // A bonus stake lost is the house's money, not the player's: it earns no cashback.
    const bonus = await t.services.bonuses.grant({
      siteId: loser.siteId,
      userId: loser.uid,
      currency: loser.currency,
      templateId: 'promo10',
      source: 'operator',
      sourceRef: `cashback-test:${sequence++}`,
    });
    loser.browser.data(await loser.browser.call('bonuses.activate', { bonus_id: String(bonus.row.id) }));
    await play(loser, '10.00', '0.00', 'bonus');

    const winner = await hostPlayer(t, AURORA);
    await fundPlayer(t, winner, '20.00');
    await play(winner, '20.00', '35.00');
    // 10 % of 5.00 is under the minimum.
    const small = await losingPlayer(AURORA, '5.00');
    const whale = await losingPlayer(AURORA, '9000.00');
    // A game of dice through the real game path: whatever it comes to, the main balance says what was lost.
    const dicer = await hostPlayer(t, AURORA);
    await fundPlayer(t, dicer, '30.00');
    for (let round = 0; round < 6; round++)
      dicer.browser.data(
        await dicer.browser.call('games.play', {
          sysname: DICE,
          mode: 'real',
          bet: JSON.stringify({ stake: '5.00', direction: 'under', target: '30.00' }),
          request_id: `cb-dice-${sequence++}`,
        }),
      );

    await service.computePeriod('aurora', period.start);

    const paid = await onlyCashback(loser);
    expect(paid).toMatchObject({ status: 'active', netLossMinor: amountToMinor('50.00'), amountMinor: amountToMinor('5.00') });
    expect(paid.periodStart).toEqual(period.start);
    expect(paid.periodEnd).toEqual(period.end);
    expect(paid.receivingExpiresAt.getTime() - paid.createdAt.getTime()).toBe(programme.receiving_hours * 3_600_000);
    expect(await rowsOf(winner)).toEqual([]);
    expect(await rowsOf(small)).toEqual([]);
    expect((await onlyCashback(whale)).amountMinor).toBe(amountToMinor(programme.cap.EUR!));

    const diceLoss = amountToMinor('30.00') - (await main(dicer));
    const diceCashback = cashbackAmountMinor(programme, dicer.currency, diceLoss);
    const diceRows = await rowsOf(dicer);
    if (diceCashback > 0n) expect(diceRows.map((row) => [row.netLossMinor, row.amountMinor])).toEqual([[diceLoss, diceCashback]]);
    else expect(diceRows).toEqual([]);
  });

  it('the job run twice at once, or queued by two processes, creates one cashback per player and period', async () => {
    const { period, later, service } = await afterThisPeriod('aurora');
    const who = await losingPlayer(AURORA, '40.00');
    const other = serviceAt(() => later);
    const runs = await Promise.all([service.computePeriod('aurora', period.start), other.computePeriod('aurora', period.start)]);
    expect((await onlyCashback(who)).amountMinor).toBe(amountToMinor('4.00'));
    expect(runs.reduce((sum, run) => sum + run.created, 0)).toBeGreaterThanOrEqual(1);

    // The schedule on two processes queues the period's job once; running the queue creates nothing new.
    await Promise.all([service.computeDue(), other.computeDue()]);
    const key = `${CASHBACK_PERIOD_JOB}:aurora:${period.start.toISOString()}`;
    const job = await t.services.jobs.findByKey(key);
    expect(job?.payload).toEqual({ siteId: 'aurora', start: period.start.toISOString() });
    // The process's worker knows both kinds; the queue is run here with the later clock's handler.
    const handlers = createJobHandlers(t.services, (request) => t.app.fetch(request));
    expect(Object.keys(handlers)).toEqual(expect.arrayContaining(['cashbacks.computeDue', CASHBACK_PERIOD_JOB]));
    const drained = await t.services.jobs.drain({ [CASHBACK_PERIOD_JOB]: service.computePeriodJob }, { now: later });
    expect(drained.errors).toEqual([]);
    expect((await rowsOf(who)).length).toBe(1);
  });

  it('a period not yet settled is not computed', async () => {
    const programme = await programmeOf('aurora');
    const period = periodContaining(new Date(), programme.period, programme.time_zone);
    const early = serviceAt(() => new Date(period.end.getTime() + SETTLE_MS - 60_000));
    await expect(early.computePeriod('aurora', period.start)).rejects.toThrow(/not settled/);
  });

  it('cashbacks.payout pays real money from the house once; parallel payouts pay once (main payout, aurora)', async () => {
    const { period, service } = await afterThisPeriod('aurora');
    const who = await losingPlayer(AURORA, '60.00');
    await service.computePeriod('aurora', period.start);
    const row = await onlyCashback(who);

    const page = who.browser.data<CashbackPage>(
      await who.browser.call(
        'cashbacks.get',
        { statuses: 'active,paid_out', sort: 'end_date', order: 'desc', count: '1' },
        'GET',
      ),
    );
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({ id: row.id, status: 'active', amount: { amount: '6.00' }, payout: 'main' });
    expect(page.items[0]?.end_date).toBe(period.end.toISOString());

    const answers = await Promise.all(Array.from({ length: 6 }, () => who.browser.call('cashbacks.payout', {})));
    const paid = answers.filter((answer) => answer.json.data);
    expect(paid.length).toBe(1);
    expect((paid[0]?.json.data as CashbackView).status).toBe('paid_out');
    for (const answer of answers.filter((one) => one.json.error))
      expect(errorOf(answer)).toMatchObject({ type: 'InvalidParameterException' });
    expect(await main(who)).toBe(amountToMinor('6.00'));

    const again = await who.browser.call('cashbacks.payout', { cashback_id: String(row.id) });
    expect(errorOf(again)).toMatchObject({ error_data: { cashback_id: ['ALREADY_PAID'] } });
    expect(await main(who)).toBe(amountToMinor('6.00'));
    const after = await onlyCashback(who);
    expect(after.paidOutAt).not.toBeNull();
    expect(after.paidWith).toMatch(/^transfer:\d+$/);
    await expectSoundLedger();
  });

  it('paid as a bonus where the site says so: one bonus from the cashback template, active at once since the player claimed it, no real money (lagoon)', async () => {
    const { period, service } = await afterThisPeriod('lagoon');
    const who = await losingPlayer(LAGOON, '100.00');
    await service.computePeriod('lagoon', period.start);
    const row = await onlyCashback(who);
    expect(row.payout).toEqual({ kind: 'bonus', templateId: 'cashback' });

    const answers = await Promise.all(
      Array.from({ length: 4 }, () => who.browser.call('cashbacks.payout', { cashback_id: String(row.id) })),
    );
    expect(answers.filter((answer) => answer.json.data).length).toBe(1);
    const bonuses = who.browser.data<BonusPage>(await who.browser.call('bonuses.get', {}, 'GET'));
    expect(bonuses.items.map((item) => [item.status, item.amount.amount, item.balance.amount])).toEqual([
      ['active', '5.00', '5.00'],
    ]);
    expect((await onlyCashback(who)).paidWith).toBe(`bonus:${bonuses.items[0]?.id}`);
    expect(await main(who)).toBe(0n);
    // The cashier's cashbacks tab lists it as a cashback paid as a bonus (spec §4 history tabs).
    const tab = who.browser.data<{ items: { kind: string | null; amount: { amount: string } }[] }>(
      await who.browser.call('cashier.gethistory', { type: 'cashbacks' }, 'GET'),
    );
    expect(tab.items.map((item) => [item.kind, item.amount.amount])).toEqual([['cashback_bonus', '5.00']]);
    await expectSoundLedger();
  });

  it("another player's cashback answers AccessDenied and moves nothing; unknown ones are not found", async () => {
    const { period, service } = await afterThisPeriod('aurora');
    const owner = await losingPlayer(AURORA, '30.00');
    const stranger = await hostPlayer(t, AURORA);
    await service.computePeriod('aurora', period.start);
    const row = await onlyCashback(owner);

    expect(errorOf(await stranger.browser.call('cashbacks.payout', { cashback_id: String(row.id) }))?.type).toBe(
      'AccessDeniedException',
    );
    expect(errorOf(await stranger.browser.call('cashbacks.payout', {}))).toMatchObject({
      error_data: { cashback_id: ['NOT_FOUND'] },
    });
    expect(errorOf(await stranger.browser.call('cashbacks.remove', {}))).toMatchObject({
      error_data: { cashback_id: ['NOT_FOUND'] },
    });
    expect(errorOf(await owner.browser.call('cashbacks.payout', { cashback_id: '999999999' }))).toMatchObject({
      error_data: { cashback_id: ['NOT_FOUND'] },
    });
    const strangerPage = stranger.browser.data<CashbackPage>(await stranger.browser.call('cashbacks.get', {}, 'GET'));
    expect(strangerPage).toEqual({ items: [], total: 0 });
    expect((await onlyCashback(owner)).status).toBe('active');
    expect(await main(stranger)).toBe(0n);
    // A player of another site is told nothing of it either.
    const elsewhere = await hostPlayer(t, LAGOON);
    expect(errorOf(await elsewhere.browser.call('cashbacks.payout', { cashback_id: String(row.id) }))).toMatchObject({
      error_data: { cashback_id: ['NOT_FOUND'] },
    });
  });

  it('an unpaid cashback past its receiving window can no longer be paid, and the expiry marks it expired', async () => {
    const { period, later, service } = await afterThisPeriod('aurora');
    const who = await losingPlayer(AURORA, '30.00');
    await service.computePeriod('aurora', period.start);
    const row = await onlyCashback(who);
    const pastWindow = serviceAt(() => new Date(row.receivingExpiresAt.getTime() + 1));

    await expect(pastWindow.payout(who.siteId, who.uid, row.id, 'en')).rejects.toMatchObject({
      type: 'InvalidParameterException',
      errorData: { cashback_id: ['EXPIRED'] },
    });
    // Seen past the window, it reads as expired before the sweep has marked it.
    const early = await pastWindow.list(who.siteId, who.uid, {
      offset: 0,
      count: 10,
      sort: 'end_date',
      order: 'desc',
      statuses: ['expired'],
      locale: 'en',
    });
    expect(early.items.map((item) => [item.id, item.status])).toEqual([[row.id, 'expired']]);

    // The sweep, twice at once: expired once, no money moved.
    await Promise.all([pastWindow.expireDue(), pastWindow.expireDue()]);
    expect((await onlyCashback(who)).status).toBe('expired');
    expect(errorOf(await who.browser.call('cashbacks.payout', { cashback_id: String(row.id) }))).toMatchObject({
      error_data: { cashback_id: ['EXPIRED'] },
    });
    expect(await main(who)).toBe(0n);
    // Computing the period again later does not bring it back.
    await serviceAt(() => later).computePeriod('aurora', period.start);
    expect((await onlyCashback(who)).status).toBe('expired');
    await expectSoundLedger();
  });

  it('cashbacks.remove dismisses the newest active cashback; it cannot be paid after; a remove racing a payout ends it once', async () => {
    const { period, service } = await afterThisPeriod('aurora');
    const who = await losingPlayer(AURORA, '30.00');
    await service.computePeriod('aurora', period.start);
    const row = await onlyCashback(who);
    expect(who.browser.data(await who.browser.call('cashbacks.remove', {}))).toBe(1);
    expect((await onlyCashback(who)).status).toBe('removed');
    expect(errorOf(await who.browser.call('cashbacks.payout', { cashback_id: String(row.id) }))).toMatchObject({
      error_data: { cashback_id: ['NOT_ACTIVE'] },
    });
    expect(errorOf(await who.browser.call('cashbacks.remove', {}))).toMatchObject({ error_data: { cashback_id: ['NOT_FOUND'] } });
    expect(await main(who)).toBe(0n);

    const racer = await losingPlayer(AURORA, '50.00');
    await service.computePeriod('aurora', period.start);
    const answers = await Promise.all([
      racer.browser.call('cashbacks.payout', {}),
      racer.browser.call('cashbacks.remove', {}),
      racer.browser.call('cashbacks.payout', {}),
    ]);
    expect(answers.filter((answer) => answer.json.data !== undefined).length).toBe(1);
    const ended = await onlyCashback(racer);
    expect(await main(racer)).toBe(ended.status === 'paid_out' ? ended.amountMinor : 0n);
    expect(['paid_out', 'removed']).toContain(ended.status);
    await expectSoundLedger();
  });

  it('cashbacks.get filters by status, sorts and pages; bad values answer InvalidParameterException, never 500', async () => {
    const { period, service } = await afterThisPeriod('aurora');
    const who = await losingPlayer(AURORA, '30.00');
    await service.computePeriod('aurora', period.start);
    const row = await onlyCashback(who);
    const get = (params: Record<string, string>) => who.browser.call('cashbacks.get', params, 'GET');
    expect(who.browser.data<CashbackPage>(await get({ statuses: 'paid_out' }))).toEqual({ items: [], total: 0 });
    const active = who.browser.data<CashbackPage>(await get({ statuses: 'active', sort: 'amount', order: 'asc' }));
    expect(active.items[0]).toMatchObject({ id: row.id, status: 'active', percent: 10, net_loss: { amount: '30.00' } });
    expect(active.items[0]?.description.title).toMatch(/10%/);
    expect(who.browser.data<CashbackPage>(await get({ offset: '1' }))).toEqual({ items: [], total: 1 });

    const badValues: Record<string, string>[] = [
      { sort: 'password' },
      { order: 'sideways' },
      { count: '0' },
      { count: '1000' },
      { offset: '-1' },
      { statuses: 'active,stolen' },
    ];
    for (const bad of badValues) {
      const answer = await get(bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(errorOf(answer)?.type).toBe('InvalidParameterException');
    }
    expect(errorOf(await who.browser.call('cashbacks.payout', { cashback_id: 'abc' }))?.type).toBe('InvalidParameterException');

    // §6: only signed-in players load cashbacks.
    const anonymous = await t.api('cashbacks.get');
    expect(anonymous.body.error?.type).toBe('AuthorizationException');
  });
  it('the back office gives a player the last period’s cashback for an assessed loss: the programme’s percent, once per period, audited; bad input answers 400 with the field', async () => {
    const app = backofficeApp(t, { 'op-token-789': 'carol' });
    const send = (body: unknown, host = AURORA, token = 'op-token-789') =>
      app.request(`http://${host}/backoffice/cashbacks`, {
        method: 'POST',
        headers: { host, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    type Granted = {
      id: number;
      status: string;
      amount: string;
      currency: string;
      start_date: string;
      end_date: string;
      is_new: boolean;
    };
    const programme = await programmeOf('aurora');
    const who = await hostPlayer(t, AURORA);
    const before = await main(who);

    const created = await send({ user_id: who.uid, net_loss: '50.00', reason: 'complaint 77' });
    expect(created.status).toBe(201);
    const granted = ((await created.json()) as { data: Granted }).data;
    const current = periodContaining(new Date(), programme.period, programme.time_zone);
    expect(granted).toMatchObject({
      status: 'active',
      amount: minorToAmount(cashbackAmountMinor(programme, who.currency, amountToMinor('50.00'))),
      currency: who.currency,
      end_date: current.start.toISOString(),
      is_new: true,
    });
    const again = await send({ user_id: who.uid, net_loss: '80.00' });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: Granted }).data).toMatchObject({
      id: granted.id,
      amount: granted.amount,
      is_new: false,
    });

    // The player takes it as any other cashback.
    const listed = who.browser.data<CashbackPage>(await who.browser.call('cashbacks.get', { statuses: 'active' }, 'GET'));
    expect(listed.items.map((item) => item.id)).toEqual([granted.id]);
    who.browser.data(await who.browser.call('cashbacks.payout', { cashback_id: String(granted.id) }));
    expect((await main(who)) - before).toBe(amountToMinor(granted.amount));
    const audited = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `cashback:${granted.id}`));
    expect(audited.map((entry) => [entry.action, entry.actor, entry.reason])).toEqual([
      ['cashback.grant', 'operator:carol', 'complaint 77'],
    ]);

    const other = await hostPlayer(t, LAGOON);
    const fresh = await hostPlayer(t, AURORA);
    for (const [field, body] of [
      ['net_loss', { user_id: fresh.uid, net_loss: '-5' }],
      ['net_loss', { user_id: fresh.uid, net_loss: 'lots' }],
      // 10 % of 5.00 is under the programme's minimum.
      ['net_loss', { user_id: fresh.uid, net_loss: '5.00' }],
      ['user_id', { user_id: other.uid, net_loss: '50.00' }],
      ['user_id', { user_id: 999_999_999, net_loss: '50.00' }],
    ] as const) {
      const answer = await send(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(((await answer.json()) as { error: { error_data: { field: string } } }).error.error_data.field).toBe(field);
    }
    const sprinter = await hostPlayer(t, 'sprint.localhost');
    const noProgramme = await send({ user_id: sprinter.uid, net_loss: '50.00' }, 'sprint.localhost');
    expect(noProgramme.status).toBe(400);
    expect(((await noProgramme.json()) as { error: { type: string } }).error.type).toBe('InvalidRequestException');
    expect((await send({ user_id: fresh.uid, net_loss: '50.00' }, AURORA, 'wrong-token')).status).toBe(401);
    expect(await rowsOf(fresh)).toEqual([]);
    await expectSoundLedger();
  });
});
