/**
 * Freespin packs on a real database (issue 5 "Freespins (freespins.get; awarded packs with
 * remaining_count) are played in the slots they belong to"; spec §7 freespins.get; architecture
 * §5 money): awarding, listing, and playing spins through games.play, with the ledger check
 * after the money scenarios.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { amountToMinor, minorToAmount } from '#common/money';
import { backofficeApp, createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer, hostPlayer, type HostBrowser } from '../../../test/host-player';
import { gameRounds } from '../../db/schema';
import { checkLedger } from '../wallet';
import type { FreespinPackView } from './service';
import { freespinPacks, freespinSpins } from './tables';

const SLOT = 'aurora-fortune';
const OTHER_SLOT = 'golden-reels';
const HOST = '127.0.0.1';

interface PlayAnswer {
  round: { id: string; stake: { amount: string }; payout: { amount: string }; sysname: string };
  is_replay: boolean;
  balance: { amount: string; currency: string } | null;
}

describe.each(testDatabaseKinds())('freespins on %s', (kind) => {
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

  async function award(
    who: { uid: number; siteId: string },
    options: { count?: number; stake?: string; sysname?: string; wageringMultiplier?: number; validDays?: number } = {},
  ) {
    return t.services.freespins.award({
      siteId: who.siteId,
      userId: who.uid,
      sysname: options.sysname ?? SLOT,
      count: options.count ?? 3,
      stake: options.stake ?? '0.20',
      validDays: options.validDays ?? 7,
      wageringMultiplier: options.wageringMultiplier ?? 0,
      awardKey: `test-award-${sequence++}`,
      actor: 'operator:test',
      reason: 'test award',
    });
  }

  function spin(
    browser: HostBrowser,
    packId: string | undefined,
    options: { stake?: string; sysname?: string; requestId?: string; mode?: 'real' | 'demo' } = {},
  ) {
    const params: Record<string, string> = {
      sysname: options.sysname ?? SLOT,
      mode: options.mode ?? 'real',
      bet: JSON.stringify({ stake: options.stake ?? '0.20' }),
      request_id: options.requestId ?? `fs-${sequence++}`,
    };
    if (packId !== undefined) params.freespin_pack_id = packId;
    return browser.call('games.play', params);
  }

  async function packRow(id: string) {
    const [row] = await t.db
      .select()
      .from(freespinPacks)
      .where(eq(freespinPacks.id, Number(id)));
    if (!row) throw new Error('no pack');
    return row;
  }

  async function roundCountOf(uid: number) {
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(gameRounds)
      .where(eq(gameRounds.userId, uid));
    return row?.n ?? 0;
  }

  it('freespins.get (spec §7: fields description, status active, count 99) lists the awarded packs with game sysname, remaining_count, stake, expiry and status', async () => {
    const who = await hostPlayer(t, HOST);
    const first = await award(who, { count: 10, stake: '0.50' });
    const second = await award(who, { count: 5, sysname: OTHER_SLOT, stake: '0.20', validDays: 1 });
    const page = who.browser.data<{ items: FreespinPackView[]; total: number }>(
      await who.browser.call('freespins.get', { fields: 'description', status: 'active', count: '99' }, 'GET'),
    );
    expect(page.total).toBe(2);
    // The pack that expires first comes first: it is the one to play first.
    expect(page.items.map((item) => item.id)).toEqual([second.id, first.id]);
    const shown = page.items.find((item) => item.id === first.id);
    expect(shown).toMatchObject({
      game: { sysname: SLOT },
      remaining_count: 10,
      total_count: 10,
      stake: { amount: '0.50' },
      status: 'active',
      win_balance: 'main',
    });
    expect(shown?.description?.title).toContain('10');
    expect(new Date(shown?.expires_at ?? 0).getTime()).toBeGreaterThan(Date.now());
    // Without fields=description there is no description.
    const plain = who.browser.data<{ items: FreespinPackView[] }>(await who.browser.call('freespins.get', {}, 'GET'));
    expect(plain.items[0]?.description).toBeUndefined();
    // Only the player's own packs, and only for a signed-in player.
    const other = await hostPlayer(t, HOST);
    expect(other.browser.data<{ total: number }>(await other.browser.call('freespins.get', {}, 'GET')).total).toBe(0);
    const anonymous = await t.api('freespins.get');
    expect(anonymous.body.error?.type).toBe('AuthorizationException');
  });

  it('a free spin is a real slot round that takes no stake from the player, consumes one spin, and pays its win to the main balance of a wager-free pack (ledger sound)', async () => {
    const who = await hostPlayer(t, HOST);
    await fundPlayer(t, who, '5.00');
    const pack = await award(who, { count: 4 });
    let wins = 0n;
    for (let spinNumber = 1; spinNumber <= 4; spinNumber += 1) {
      const before = await t.services.wallet.balances(who.siteId, who.uid, who.currency);
      const answer = who.browser.data<PlayAnswer>(await spin(who.browser, pack.id));
      const payout = amountToMinor(answer.round.payout.amount);
      wins += payout;
      const after = await t.services.wallet.balances(who.siteId, who.uid, who.currency);
      expect(after.main - before.main).toBe(payout);
      expect(answer.balance?.amount).toBe(minorToAmount(after.main));
      expect((await packRow(pack.id)).remainingCount).toBe(4 - spinNumber);
    }
    const row = await packRow(pack.id);
    expect(row.winMinor).toBe(wins);
    expect(row.wagerRequiredMinor).toBe(0n);
    const spins = await t.db.select().from(freespinSpins).where(eq(freespinSpins.packId, row.id));
    expect(spins.map((item) => item.spinNumber).sort()).toEqual([1, 2, 3, 4]);
    // The listed pack is used up, and active lists no longer show it.
    const all = who.browser.data<{ items: FreespinPackView[] }>(
      await who.browser.call('freespins.get', { status: 'all' }, 'GET'),
    );
    expect(all.items[0]).toMatchObject({ id: pack.id, remaining_count: 0, status: 'used', win: { amount: minorToAmount(wins) } });
    expect(who.browser.data<{ total: number }>(await who.browser.call('freespins.get', { status: 'active' }, 'GET')).total).toBe(
      0,
    );
    const balances = await t.services.wallet.balances(who.siteId, who.uid, who.currency);
    expect(balances.main).toBe(amountToMinor('5.00') + wins);
    await expectSoundLedger();
  });

  it('a pack with wagering pays its wins as bonus money to the bonus balance and records the wagering they create', async () => {
    const who = await hostPlayer(t, HOST);
    const pack = await award(who, { count: 30, wageringMultiplier: 10 });
    let wins = 0n;
    for (let index = 0; index < 30; index += 1)
      wins += amountToMinor(who.browser.data<PlayAnswer>(await spin(who.browser, pack.id)).round.payout.amount);
    const balances = await t.services.wallet.balances(who.siteId, who.uid, who.currency);
    expect(balances.main).toBe(0n);
    expect(balances.bonus).toBe(wins);
    const row = await packRow(pack.id);
    expect(row).toMatchObject({ remainingCount: 0, winMinor: wins, wagerRequiredMinor: wins * 10n });
    await expectSoundLedger();
  });

  it('remaining_count never goes below zero: the spin after the last is refused and moves nothing', async () => {
    const who = await hostPlayer(t, HOST);
    const pack = await award(who, { count: 2 });
    who.browser.data(await spin(who.browser, pack.id));
    who.browser.data(await spin(who.browser, pack.id));
    const rounds = await roundCountOf(who.uid);
    const refused = await spin(who.browser, pack.id);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ type: 'InvalidParameterException', error_data: { field: 'freespin_pack_id' } });
    expect((await packRow(pack.id)).remainingCount).toBe(0);
    expect(await roundCountOf(who.uid)).toBe(rounds);
    // The CHECK holds even against a direct write.
    await expect(
      t.db
        .update(freespinPacks)
        .set({ remainingCount: -1 })
        .where(eq(freespinPacks.id, Number(pack.id))),
    ).rejects.toThrow();
  });

  it('concurrent spins on one pack consume exactly its count: the others are refused, none goes below zero', async () => {
    const who = await hostPlayer(t, HOST);
    const pack = await award(who, { count: 3 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => spin(who.browser, pack.id)));
    const played = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(played).toHaveLength(3);
    for (const answer of refused) expect(answer.json.error?.error_data).toMatchObject({ field: 'freespin_pack_id' });
    expect((await packRow(pack.id)).remainingCount).toBe(0);
    const spins = await t.db
      .select()
      .from(freespinSpins)
      .where(eq(freespinSpins.packId, Number(pack.id)));
    expect(spins).toHaveLength(3);
    await expectSoundLedger();
  });

  it('a replayed request id returns the first round and consumes no second spin; the same id for another round is refused (idempotent by request id)', async () => {
    const who = await hostPlayer(t, HOST);
    const pack = await award(who, { count: 5 });
    const first = who.browser.data<PlayAnswer>(await spin(who.browser, pack.id, { requestId: 'fs-replay-1' }));
    const again = who.browser.data<PlayAnswer>(await spin(who.browser, pack.id, { requestId: 'fs-replay-1' }));
    expect(again.is_replay).toBe(true);
    expect(again.round.id).toBe(first.round.id);
    expect((await packRow(pack.id)).remainingCount).toBe(4);
    // The same id as a paid round, or on another pack, is another request: refused.
    const paid = await spin(who.browser, undefined, { requestId: 'fs-replay-1' });
    expect(paid.json.error).toMatchObject({ type: 'InvalidParameterException', error_data: { field: 'request_id' } });
    expect((await packRow(pack.id)).remainingCount).toBe(4);
    await expectSoundLedger();
  });

  it('an expired pack, another game, another stake, another player’s pack, demo mode and a withdrawn pack are refused and move nothing', async () => {
    const who = await hostPlayer(t, HOST);
    await fundPlayer(t, who, '10.00');
    const pack = await award(who, { count: 5 });
    const before = await t.services.wallet.balances(who.siteId, who.uid, who.currency);
    const rounds = await roundCountOf(who.uid);

    const wrongGame = await spin(who.browser, pack.id, { sysname: OTHER_SLOT });
    expect(wrongGame.json.error?.error_data).toMatchObject({ field: 'freespin_pack_id' });
    const wrongStake = await spin(who.browser, pack.id, { stake: '1.00' });
    expect(wrongStake.json.error?.error_data).toMatchObject({ field: 'stake' });
    const demo = await spin(who.browser, pack.id, { mode: 'demo' });
    expect(demo.json.error?.error_data).toMatchObject({ field: 'freespin_pack_id' });
    const stranger = await hostPlayer(t, HOST);
    await fundPlayer(t, stranger, '10.00');
    const stolen = await spin(stranger.browser, pack.id);
    expect(stolen.json.error?.error_data).toMatchObject({ field: 'freespin_pack_id' });
    const unknown = await spin(who.browser, '999999999');
    expect(unknown.json.error?.error_data).toMatchObject({ field: 'freespin_pack_id' });

    await t.db
      .update(freespinPacks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(freespinPacks.id, Number(pack.id)));
    const expired = await spin(who.browser, pack.id);
    expect(expired.json.error).toMatchObject({ type: 'InvalidParameterException', error_data: { field: 'freespin_pack_id' } });
    expect(expired.json.error?.message).toMatch(/expired/);

    const withdrawn = await award(who, { count: 5 });
    await t.services.freespins.cancel(who.siteId, Number(withdrawn.id), 'operator:test', 'test');
    expect((await spin(who.browser, withdrawn.id)).json.error?.error_data).toMatchObject({ field: 'freespin_pack_id' });

    expect(await t.services.wallet.balances(who.siteId, who.uid, who.currency)).toEqual(before);
    expect(await roundCountOf(who.uid)).toBe(rounds);
    expect((await packRow(pack.id)).remainingCount).toBe(5);
    await expectSoundLedger();
  });

  it('the back office awards a pack with an operator token, idempotently by award_key, and refuses bad terms; no token, no award', async () => {
    const app = backofficeApp(t, { 'op-token-123': 'alice' });
    const who = await hostPlayer(t, HOST);
    const post = (body: unknown, token = 'op-token-123') =>
      app.request(`http://${HOST}/backoffice/freespins`, {
        method: 'POST',
        headers: { host: HOST, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const terms = {
      user_id: who.uid,
      sysname: SLOT,
      count: 7,
      stake: '0.10',
      valid_days: 3,
      award_key: `bo-${sequence++}`,
      reason: 'welcome',
    };
    const created = await post(terms);
    expect(created.status).toBe(201);
    const pack = ((await created.json()) as { data: FreespinPackView }).data;
    expect(pack).toMatchObject({ remaining_count: 7, stake: { amount: '0.10' }, game: { sysname: SLOT } });
    const again = await post(terms);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: FreespinPackView }).data.id).toBe(pack.id);
    const conflicting = await post({ ...terms, count: 8 });
    expect(((await conflicting.json()) as { error: { error_data: { field: string } } }).error.error_data.field).toBe('award_key');
    for (const [field, bad] of [
      ['sysname', { sysname: 'dice-roll' }],
      ['count', { count: 0 }],
      ['stake', { stake: '0.01' }],
      ['user_id', { user_id: 999_999_999 }],
    ] as const) {
      const answer = await post({ ...terms, ...bad, award_key: `bo-${sequence++}` });
      expect(answer.status, field).toBe(400);
      expect(((await answer.json()) as { error: { error_data: { field: string } } }).error.error_data.field).toBe(field);
    }
    expect((await post({ ...terms, award_key: `bo-${sequence++}` }, 'wrong-token')).status).toBe(401);
    const listed = who.browser.data<{ total: number }>(await who.browser.call('freespins.get', {}, 'GET'));
    expect(listed.total).toBe(1);
  });
});
