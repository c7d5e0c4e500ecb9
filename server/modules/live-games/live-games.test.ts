/**
 * Live tables through the product API and the scheduler on a real database (issue 5: crash with
 * shared rounds and real-time cash-out, live roulette with a betting window; architecture §5
 * money, §6 provably fair; docs/live-games.md). The server clock is the test's: every phase is
 * reached by setting it, never by waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import pino from 'pino';
import { crashElapsedMsAt, crashMultiplierAt } from '#common/games/crash';
import { sha256Hex } from '#common/games/fair';
import { amountToMinor, minorToAmount } from '#common/money';
import { createHttpApp, type HttpAppOptions } from '../../http';
import { NO_PROXY } from '../../web/client-address';
import { createServices, type Services } from '../../services';
import { openDatabase } from '../../db/client';
import type { TestApp } from '../../../test/api-harness';
import { API_VERSION } from '#common/api-contract';
import { createSeededTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { Browser, signedInPlayer, type ApiAnswer } from '../../../test/player';
import { checkLedger, house, move, player } from '../wallet';
import { ledgerTransfers } from '../../db/schema';
import { liveResult } from './rules';
import type { LiveBetResult, LiveState, LiveTable } from './service';
import { startLiveScheduler } from './scheduler';
import { liveBets, liveRounds } from './tables';

const CRASH = 'crash-rocket';
const ROULETTE = 'live-roulette';
const CONFIG = { bettingMs: 10_000, spinMs: 5_000, resultMs: 2_000, leaseMs: 3_000 };

type SeedWish = (result: ReturnType<typeof liveResult>) => boolean;

/** A server seed whose round `roundNo` of the table gives a result the test wants. */
function seedWith(table: LiveTable, roundNo: number, wish: SeedWish): string {
  for (let i = 0; ; i++) {
    const serverSeed = `test-seed-${table.sysname}-${roundNo}-${i}`;
    if (wish(liveResult(table.engine, { serverSeed, clientSeed: `${table.siteId}:${table.sysname}`, nonce: roundNo })))
      return serverSeed;
  }
}

const crashAtLeast =
  (hundredths: number): SeedWish =>
  (result) =>
    'crash_point' in result && result.crash_point >= hundredths;
const crashBelow =
  (hundredths: number): SeedWish =>
  (result) =>
    'crash_point' in result && result.crash_point > 100 && result.crash_point < hundredths;

describe.each(testDatabaseKinds())('live games on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let services: Services;
  let siteId: string;
  let currency: string;
  let now = Date.parse('2026-11-23T12:00:00.000Z');
  let sequence = 0;
  /** What the next rounds should draw, per sysname; random seeds otherwise. */
  const wishes = new Map<string, SeedWish>();
  const drawServerSeed = (table: LiveTable, roundNo: number) => {
    const wish = wishes.get(table.sysname);
    return wish ? seedWith(table, roundNo, wish) : `random-${table.siteId}-${table.sysname}-${roundNo}-${Math.random()}`;
  };

  /** Services over a handle, told of balances through its notify, which sends nothing once the handle is closed. */
  function makeServices(handle: Pick<TestDatabase['handle'], 'db' | 'notify'>): Services {
    return createServices(handle.db, {
      notify: handle.notify,
      liveGames: { config: CONFIG, clock: () => now, drawServerSeed },
    });
  }

  beforeAll(async () => {
    database = await createSeededTestDatabase(kind);
    services = makeServices(database.handle);
    const appOptions: HttpAppOptions = {
      services,
      logger: pino({ level: 'silent' }),
      mode: 'test',
      maxBodyBytes: 64 * 1024,
      proxy: NO_PROXY,
      buildVersion: 'test',
    };
    const app = createHttpApp(appOptions);
    const request = (path: string, init: RequestInit & { host?: string } = {}) => {
      const host = init.host ?? '127.0.0.1';
      const headers = new Headers(init.headers);
      if (!headers.has('host')) headers.set('host', host);
      return Promise.resolve(app.request(`http://${host}${path}`, { ...init, headers }));
    };
    t = {
      app,
      appOptions,
      services,
      database,
      db: database.handle.db,
      request,
      async api(name, options = {}) {
        const query = new URLSearchParams({ v: API_VERSION, locale: 'en', ...options.params });
        const response = await request(`/api/${name}?${query}`, { method: options.method ?? 'GET' });
        return { status: response.status, body: (await response.json()) as never };
      },
      close: () => database.drop(),
    };
    const site = await services.sites.resolveSite('127.0.0.1');
    siteId = site.id;
    currency = site.defaultCurrency;
  });
  afterAll(() => database.drop());

  const expectSoundLedger = async () => {
    const report = await checkLedger(database.handle.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  };

  async function fundedPlayer(amount: string) {
    const signedIn = await signedInPlayer(t);
    const amountMinor = amountToMinor(amount);
    await services.wallet.transfer({
      siteId,
      userId: signedIn.uid,
      kind: 'deposit',
      currency,
      amountMinor,
      legs: move(house('psp_clearing'), player(signedIn.uid, 'main'), amountMinor),
      idempotencyKey: `test-fund:${signedIn.uid}:${sequence++}`,
      actor: 'system',
      reason: 'test funding',
    });
    return signedIn;
  }

  const mainOf = async (uid: number) => (await services.wallet.balances(siteId, uid, currency)).main;
  const transfersOf = (uid: number) => database.handle.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.userId, uid));

  function bet(
    browser: Browser,
    sysname: string,
    value: unknown,
    options: { mode?: 'real' | 'demo'; requestId?: string } = {},
  ): Promise<ApiAnswer> {
    return browser.call('games.placeLiveBet', {
      sysname,
      mode: options.mode ?? 'real',
      bet: typeof value === 'string' ? value : JSON.stringify(value),
      request_id: options.requestId ?? `live-${sequence++}`,
    });
  }

  /** A 1.00 straight bet on the pocket the roulette round's seed decides: it wins 36.00. */
  async function betOnTheWinningPocket(browser: Browser, round: { serverSeed: string; clientSeed: string; roundNo: number }) {
    const { pocket } = liveResult('live-roulette', {
      serverSeed: round.serverSeed,
      clientSeed: round.clientSeed,
      nonce: round.roundNo,
    }) as { pocket: number };
    browser.data(await bet(browser, ROULETTE, { bets: [{ kind: 'straight', numbers: [pocket], stake: '1.00' }] }));
    return pocket;
  }

  async function state(browser: Browser, sysname: string): Promise<LiveState> {
    return browser.data<LiveState>(await browser.call('games.getLiveState', { sysname }, 'GET'));
  }

  async function tableRound(sysname: string) {
    const [round] = await database.handle.db
      .select()
      .from(liveRounds)
      .where(and(eq(liveRounds.siteId, siteId), eq(liveRounds.sysname, sysname)))
      .orderBy(liveRounds.roundNo)
      .then((rows) => rows.slice(-1));
    if (!round) throw new Error(`no round at ${sysname}`);
    return round;
  }

  /** Runs the tables on until each has a new round in its betting window (its seed drawn as wished). */
  async function nextBettingRounds(wanted: Array<{ sysname: string; wish?: SeedWish }>) {
    const before = new Map<string, number>();
    for (const { sysname, wish } of wanted) {
      if (wish) wishes.set(sysname, wish);
      else wishes.delete(sysname);
      const rows = await database.handle.db
        .select()
        .from(liveRounds)
        .where(and(eq(liveRounds.siteId, siteId), eq(liveRounds.sysname, sysname)));
      const last = rows.sort((a, b) => b.roundNo - a.roundNo)[0];
      before.set(sysname, last?.roundNo ?? 0);
      if (last) now = Math.max(now, last.nextAt.getTime() + 1);
    }
    await services.liveGames.advanceAll();
    const rounds = [];
    for (const { sysname } of wanted) {
      const round = await tableRound(sysname);
      expect(round.roundNo).toBe((before.get(sysname) ?? 0) + 1);
      expect(now).toBeLessThan(round.bettingClosesAt.getTime());
      rounds.push(round);
    }
    return rounds;
  }

  async function nextBettingRound(sysname: string, wish?: SeedWish) {
    const [round] = await nextBettingRounds([{ sysname, wish }]);
    return round!;
  }

  it('runs a round through its phases: betting, spin, result with the seed revealed, settled, then the next round (issue 5 live roulette)', async () => {
    const { browser } = await signedInPlayer(t);
    const round = await nextBettingRound(ROULETTE);
    let view = await state(browser, ROULETTE);
    expect(view.round).toMatchObject({
      id: String(round.id),
      phase: 'betting',
      server_seed: null,
      result: null,
      server_seed_hash: round.serverSeedHash,
    });
    now = round.bettingClosesAt.getTime();
    view = await state(browser, ROULETTE);
    expect(view.round).toMatchObject({ phase: 'running', result: null, server_seed: null, settled: false });
    now = round.resultAt.getTime();
    // The result shows by the clock; its settlement is the scheduler's, a moment later.
    view = await state(browser, ROULETTE);
    expect(view.round).toMatchObject({ phase: 'result', settled: false });
    await services.liveGames.advanceAll();
    view = await state(browser, ROULETTE);
    const expected = liveResult('live-roulette', {
      serverSeed: round.serverSeed,
      clientSeed: round.clientSeed,
      nonce: round.roundNo,
    });
    expect(view.round).toMatchObject({ phase: 'result', result: expected, server_seed: round.serverSeed, settled: true });
    expect(sha256Hex(view.round?.server_seed ?? '')).toBe(view.round?.server_seed_hash);
    expect(view.history[0]?.id).toBe(String(round.id));
    const next = await nextBettingRound(ROULETTE);
    expect(next.roundNo).toBe(round.roundNo + 1);
    expect(next.serverSeedHash).not.toBe(round.serverSeedHash);
  });

  it('takes bets only in the betting window; a late bet is refused and moves no money (issue 5 bad input)', async () => {
    const { browser, uid } = await fundedPlayer('20.00');
    const round = await nextBettingRound(ROULETTE);
    now = round.bettingClosesAt.getTime();
    const late = await bet(browser, ROULETTE, { bets: [{ kind: 'red', stake: '1.00' }] });
    expect(late.json.error).toMatchObject({ type: 'InvalidParameterException', error_data: { field: 'round' } });
    expect(await mainOf(uid)).toBe(2000n);
    expect((await transfersOf(uid)).length).toBe(1);
    await nextBettingRound(ROULETTE);
    for (const wrong of [
      { bets: [{ kind: 'red', stake: '-1' }] },
      { bets: [{ kind: 'red', stake: '0.001' }] },
      { bets: [{ kind: 'straight', numbers: [40], stake: '1.00' }] },
      { bets: [] },
      'not json',
    ]) {
      const answer = await bet(browser, ROULETTE, wrong);
      expect(answer.json.error?.type).toBe('InvalidParameterException');
    }
    const tooMuch = await bet(browser, ROULETTE, { bets: [{ kind: 'red', stake: '50.00' }] });
    expect(tooMuch.json.error).toMatchObject({ type: 'InvalidParameterException', error_data: { field: 'stake' } });
    expect(await mainOf(uid)).toBe(2000n);
    expect((await transfersOf(uid)).length).toBe(1);
  });

  it('settles every player’s roulette bets against the one spin, through the ledger (issue 5 live roulette)', async () => {
    const alice = await fundedPlayer('10.00');
    const bob = await fundedPlayer('10.00');
    const round = await nextBettingRound(ROULETTE, (result) => 'pocket' in result && result.pocket > 0);
    const { pocket } = liveResult('live-roulette', {
      serverSeed: round.serverSeed,
      clientSeed: round.clientSeed,
      nonce: round.roundNo,
    }) as { pocket: number };
    const other = pocket === 36 ? 35 : pocket + 1;
    const aliceBet = alice.browser.data<LiveBetResult>(
      await bet(alice.browser, ROULETTE, { bets: [{ kind: 'straight', numbers: [pocket], stake: '1.00' }] }),
    );
    expect(aliceBet.balance?.amount).toBe('9.00');
    const bobBet = bob.browser.data<LiveBetResult>(
      await bet(bob.browser, ROULETTE, { bets: [{ kind: 'straight', numbers: [other], stake: '2.00' }] }),
    );
    expect(bobBet.balance?.amount).toBe('8.00');
    expect((await state(alice.browser, ROULETTE)).round?.bets_count).toBe(2);
    now = round.resultAt.getTime();
    await services.liveGames.advanceAll();
    expect(await mainOf(alice.uid)).toBe(900n + 3600n);
    expect(await mainOf(bob.uid)).toBe(800n);
    const [aliceRow] = await database.handle.db
      .select()
      .from(liveBets)
      .where(eq(liveBets.id, Number(aliceBet.bet.id)));
    expect(aliceRow).toMatchObject({ status: 'won', payoutMinor: 3600n });
    const keys = (await transfersOf(alice.uid)).map((row) => row.idempotencyKey);
    expect(keys).toContain(`live:${round.id}:${aliceBet.bet.id}:bet`);
    expect(keys).toContain(`live:${round.id}:${aliceBet.bet.id}:win`);
    await expectSoundLedger();
  });

  it('cashes a crash bet out at the server’s multiplier before the crash, once; after the crash a cash-out is refused with no money (issue 5 crash)', async () => {
    const alice = await fundedPlayer('10.00');
    const bob = await fundedPlayer('10.00');
    const round = await nextBettingRound(CRASH, crashAtLeast(300));
    const crashPoint = (
      liveResult('crash', { serverSeed: round.serverSeed, clientSeed: round.clientSeed, nonce: round.roundNo }) as {
        crash_point: number;
      }
    ).crash_point;
    const aliceBet = alice.browser.data<LiveBetResult>(await bet(alice.browser, CRASH, { stake: '2.00' }));
    const bobBet = bob.browser.data<LiveBetResult>(await bet(bob.browser, CRASH, { stake: '1.00' }));
    // One bet a round at crash.
    expect((await bet(alice.browser, CRASH, { stake: '1.00' })).json.error).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'bet' },
    });
    // Not before the climb starts.
    expect((await alice.browser.call('games.cashOut', { bet_id: aliceBet.bet.id })).json.error).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'cash_out' },
    });

    const elapsed = crashElapsedMsAt(200) + 37;
    now = round.bettingClosesAt.getTime() + elapsed;
    const shown = crashMultiplierAt(elapsed);
    expect(shown).toBeLessThan(crashPoint);
    expect((await state(alice.browser, CRASH)).round).toMatchObject({
      phase: 'running',
      multiplier: shown,
      result: null,
      server_seed: null,
      result_at: null,
    });
    const cashed = alice.browser.data<LiveBetResult>(await alice.browser.call('games.cashOut', { bet_id: aliceBet.bet.id }));
    const payout = (200n * BigInt(shown)) / 100n;
    expect(cashed).toMatchObject({
      is_replay: false,
      bet: { status: 'won', cash_out: minorToAmount(BigInt(shown)), payout: { amount: minorToAmount(payout) } },
    });
    expect(cashed.balance?.amount).toBe(minorToAmount(800n + payout));
    now += 500;
    const again = alice.browser.data<LiveBetResult>(await alice.browser.call('games.cashOut', { bet_id: aliceBet.bet.id }));
    expect(again).toMatchObject({ is_replay: true, bet: { cash_out: minorToAmount(BigInt(shown)) } });
    expect(await mainOf(alice.uid)).toBe(800n + payout);
    // Another player's bet id is unknown to Bob's neighbour.
    expect((await alice.browser.call('games.cashOut', { bet_id: bobBet.bet.id })).json.error).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'bet_id' },
    });

    now = round.resultAt.getTime();
    const late = await bob.browser.call('games.cashOut', { bet_id: bobBet.bet.id });
    expect(late.json.error).toMatchObject({ type: 'InvalidParameterException', error_data: { field: 'cash_out' } });
    expect(await mainOf(bob.uid)).toBe(900n);
    await services.liveGames.advanceAll();
    expect((await state(bob.browser, CRASH)).round).toMatchObject({
      phase: 'result',
      result: { crash_point: crashPoint },
      server_seed: round.serverSeed,
    });
    const [bobRow] = await database.handle.db
      .select()
      .from(liveBets)
      .where(eq(liveBets.id, Number(bobBet.bet.id)));
    expect(bobRow).toMatchObject({ status: 'lost', payoutMinor: 0n, cashOut: null });
    expect((await bob.browser.call('games.cashOut', { bet_id: bobBet.bet.id })).json.error).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'cash_out' },
    });
    expect(await mainOf(bob.uid)).toBe(900n);
    await expectSoundLedger();
  });

  it('pays an automatic cash-out the climb reaches and loses one above the crash point (issue 5 crash)', async () => {
    const alice = await fundedPlayer('10.00');
    const bob = await fundedPlayer('10.00');
    const round = await nextBettingRound(CRASH, crashBelow(400));
    const crashPoint = (
      liveResult('crash', { serverSeed: round.serverSeed, clientSeed: round.clientSeed, nonce: round.roundNo }) as {
        crash_point: number;
      }
    ).crash_point;
    const target = Math.max(101, crashPoint - 1);
    alice.browser.data(await bet(alice.browser, CRASH, { stake: '1.00', auto_cash_out: minorToAmount(BigInt(target)) }));
    bob.browser.data(await bet(bob.browser, CRASH, { stake: '1.00', auto_cash_out: '4.00' }));
    // The scheduler pays Alice while the multiplier climbs past her target.
    now = round.bettingClosesAt.getTime() + crashElapsedMsAt(target) + 1;
    if (now < round.resultAt.getTime()) {
      await services.liveGames.advanceAll();
      expect(await mainOf(alice.uid)).toBe(900n + BigInt(target));
    }
    now = round.resultAt.getTime();
    await services.liveGames.advanceAll();
    expect(await mainOf(alice.uid)).toBe(900n + BigInt(target));
    expect(await mainOf(bob.uid)).toBe(900n);
    await expectSoundLedger();
  });

  it('sleeps from take-off to the moment the climb reaches the lowest open target, then to the crash (issue 12 idle, issue 5 crash)', async () => {
    const alice = await fundedPlayer('10.00');
    const bob = await fundedPlayer('10.00');
    const round = await nextBettingRound(CRASH, crashAtLeast(300));
    const crashPoint = (
      liveResult('crash', { serverSeed: round.serverSeed, clientSeed: round.clientSeed, nonce: round.roundNo }) as {
        crash_point: number;
      }
    ).crash_point;
    const table = await services.liveGames.tableFor(siteId, CRASH);
    alice.browser.data(await bet(alice.browser, CRASH, { stake: '1.00', auto_cash_out: '1.50' }));
    bob.browser.data(await bet(bob.browser, CRASH, { stake: '1.00', auto_cash_out: '2.00' }));
    const takeOff = round.bettingClosesAt.getTime();
    // Betting: the next step is take-off, when the targets are known.
    now = round.bettingOpensAt.getTime() + 1;
    expect(await services.liveGames.advanceTable(table)).toBe(takeOff);
    now = takeOff;
    expect(await services.liveGames.advanceTable(table)).toBe(takeOff + crashElapsedMsAt(150));
    expect(await mainOf(alice.uid)).toBe(900n);
    now = takeOff + crashElapsedMsAt(150);
    expect(await services.liveGames.advanceTable(table)).toBe(takeOff + crashElapsedMsAt(200));
    expect(await mainOf(alice.uid)).toBe(900n + 150n);
    now = takeOff + crashElapsedMsAt(200);
    // No target left below the crash point: nothing to do until the crash.
    expect(await services.liveGames.advanceTable(table)).toBe(round.resultAt.getTime());
    expect(await mainOf(bob.uid)).toBe(900n + 200n);
    expect(crashPoint).toBeGreaterThanOrEqual(300);
    await expectSoundLedger();
  });

  it('a roulette table sleeps through its betting window to the result (issue 12 idle)', async () => {
    const round = await nextBettingRound(ROULETTE);
    const table = await services.liveGames.tableFor(siteId, ROULETTE);
    now = round.bettingOpensAt.getTime() + 1;
    expect(await services.liveGames.advanceTable(table)).toBe(round.resultAt.getTime());
  });

  it('answers a repeated request id with the first bet and refuses it for another bet (issue 5 replayed actions)', async () => {
    const { browser, uid } = await fundedPlayer('10.00');
    await nextBettingRound(ROULETTE);
    const first = browser.data<LiveBetResult>(
      await bet(browser, ROULETTE, { bets: [{ kind: 'black', stake: '1.00' }] }, { requestId: 'same-request' }),
    );
    const replay = browser.data<LiveBetResult>(
      await bet(browser, ROULETTE, { bets: [{ kind: 'black', stake: '1.00' }] }, { requestId: 'same-request' }),
    );
    expect(replay).toMatchObject({ is_replay: true, bet: { id: first.bet.id } });
    const other = await bet(browser, ROULETTE, { bets: [{ kind: 'red', stake: '1.00' }] }, { requestId: 'same-request' });
    expect(other.json.error).toMatchObject({ type: 'InvalidParameterException', error_data: { field: 'request_id' } });
    expect(await mainOf(uid)).toBe(900n);
    expect((await transfersOf(uid)).filter((row) => row.kind === 'game_bet')).toHaveLength(1);
  });

  it('plays demo on the fun balance, refuses demo where the game has none, and real play without signing in (issue 5 demo mode)', async () => {
    const { browser, uid } = await signedInPlayer(t);
    await nextBettingRound(CRASH, crashAtLeast(101));
    const demo = browser.data<LiveBetResult>(await bet(browser, CRASH, { stake: '5.00' }, { mode: 'demo' }));
    expect(demo.bet.mode).toBe('demo');
    const fun = (await services.wallet.balances(siteId, uid, currency)).fun;
    expect(demo.balance?.amount).toBe(minorToAmount(fun));
    expect(await mainOf(uid)).toBe(0n);
    await nextBettingRound(ROULETTE);
    expect((await bet(browser, ROULETTE, { bets: [{ kind: 'red', stake: '1.00' }] }, { mode: 'demo' })).json.error).toMatchObject(
      { type: 'InvalidParameterException', error_data: { field: 'mode' } },
    );
    expect((await bet(browser, ROULETTE, { bets: [{ kind: 'red', stake: '1.00' }] })).json.error?.type).toBe(
      'UserNeedDepositException',
    );
    const anonymous = new Browser(t);
    expect((await bet(anonymous, ROULETTE, { bets: [{ kind: 'red', stake: '1.00' }] })).json.error?.type).toBe(
      'AuthorizationException',
    );
    expect((await bet(anonymous, 'dice-roll', { stake: '1.00' }, { mode: 'demo' })).json.error).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'sysname' },
    });
  });

  it('settles a round left open by a stopped process by its seed’s result when the next process starts (issue 5 round never lost)', async () => {
    const alice = await fundedPlayer('10.00');
    const bob = await fundedPlayer('10.00');
    const [roulette, crash] = await nextBettingRounds([
      { sysname: ROULETTE, wish: (result) => 'pocket' in result && result.pocket > 0 },
      { sysname: CRASH, wish: crashAtLeast(200) },
    ]);
    if (!roulette || !crash) throw new Error('no rounds');
    const pocket = await betOnTheWinningPocket(alice.browser, roulette);
    bob.browser.data(await bet(bob.browser, CRASH, { stake: '1.00', auto_cash_out: '1.50' }));
    // The process stops here; the next one starts long after both results were due.
    now = Math.max(roulette.nextAt.getTime(), crash.nextAt.getTime()) + 60_000;
    const restarted = makeServices(database.handle);
    expect(await restarted.liveGames.overdueRounds()).toBeGreaterThanOrEqual(2);
    await restarted.liveGames.advanceAll();
    expect(await restarted.liveGames.overdueRounds()).toBe(0);
    expect(await mainOf(alice.uid)).toBe(900n + 3600n);
    expect(await mainOf(bob.uid)).toBe(900n + 150n);
    const settled = await database.handle.db.select().from(liveRounds).where(eq(liveRounds.id, roulette.id));
    expect(settled[0]).toMatchObject({ status: 'settled', result: { pocket } });
    await restarted.liveGames.advanceAll();
    expect((await tableRound(ROULETTE)).roundNo).toBe(roulette.roundNo + 1);
    await expectSoundLedger();
  });

  it('a process nobody is at finishes the round under way and pays it, even racing itself, and opens no next one until someone comes (issue 12 idle)', async () => {
    const alice = await fundedPlayer('10.00');
    const [roulette] = await nextBettingRounds([
      { sysname: ROULETTE, wish: (result) => 'pocket' in result && result.pocket > 0 },
    ]);
    if (!roulette) throw new Error('no round');
    const pocket = await betOnTheWinningPocket(alice.browser, roulette);
    // Another process with the idle rule, which nobody has visited.
    const quiet = createServices(database.handle.db, {
      notify: database.handle.notify,
      liveGames: { config: { ...CONFIG, idleAfterMs: 60_000 }, clock: () => now, drawServerSeed },
    });
    expect(quiet.liveGames.isWatched()).toBe(false);
    now = roulette.nextAt.getTime() + 60_000;
    await Promise.all([quiet.liveGames.advanceAll(), quiet.liveGames.advanceAll()]);
    expect(await mainOf(alice.uid)).toBe(900n + 3600n);
    const settled = await tableRound(ROULETTE);
    expect(settled).toMatchObject({ roundNo: roulette.roundNo, status: 'settled', result: { pocket } });
    await quiet.liveGames.advanceAll();
    expect((await tableRound(ROULETTE)).roundNo).toBe(roulette.roundNo);
    // A page opens the table's stream there: the next advance opens the next round.
    const release = quiet.liveGames.holdInterest();
    expect(quiet.liveGames.isWatched()).toBe(true);
    await quiet.liveGames.advanceAll();
    expect(await tableRound(ROULETTE)).toMatchObject({ roundNo: roulette.roundNo + 1, status: 'open' });
    release();
    await expectSoundLedger();
  });

  it('lets one of two schedulers on one database run the tables; the other takes over when it stops (issue 5 shared table)', async () => {
    // A second process: its own services, and on PostgreSQL its own connection pool.
    const secondHandle = database.url ? await openDatabase({ url: database.url, poolSize: 3 }) : database.handle;
    const second = makeServices(secondHandle);
    try {
      const first = startLiveScheduler(services.liveGames);
      await expect.poll(() => first.isLeader(), { timeout: 10_000 }).toBe(true);
      const other = startLiveScheduler(second.liveGames);
      // Both run their loops; the lease (never expiring on the frozen clock) stays with the first.
      await expect.poll(() => second.liveGames.claimLease(), { timeout: 10_000 }).toBe(false);
      expect(other.isLeader()).toBe(false);
      await first.stop();
      await expect.poll(() => other.isLeader(), { timeout: 10_000 }).toBe(true);
      await other.stop();
      // Both processes advancing at once still make one round per number at each table.
      now += 60_000;
      await Promise.all([
        services.liveGames.advanceAll(),
        second.liveGames.advanceAll(),
        services.liveGames.advanceAll(),
        second.liveGames.advanceAll(),
      ]);
      const rows = await database.handle.db.select().from(liveRounds).where(like(liveRounds.sysname, '%'));
      const keys = rows.map((row) => `${row.siteId}/${row.sysname}/${row.roundNo}`);
      expect(new Set(keys).size).toBe(keys.length);
      const open = rows.filter((row) => row.status === 'open');
      expect(new Set(open.map((row) => `${row.siteId}/${row.sysname}`)).size).toBe(open.length);
    } finally {
      if (secondHandle !== database.handle) await secondHandle.close();
    }
    await expectSoundLedger();
  });

  it('streams the table state to a watcher and sends the current state on connecting (issue 5 results broadcast)', async () => {
    const round = await nextBettingRound(ROULETTE);
    const controller = new AbortController();
    const response = await t.request(`/platform/live/${ROULETTE}/events`, { signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('event: state')) text += decoder.decode((await reader.read()).value);
    while (!/event: state\ndata: .*\n\n/.test(text)) text += decoder.decode((await reader.read()).value);
    const data = JSON.parse(/event: state\ndata: (.*)\n/.exec(text)?.[1] ?? '{}') as LiveState;
    expect(data.round).toMatchObject({ id: String(round.id), phase: 'betting', server_seed: null });
    expect(data.my_bets).toEqual([]);
    controller.abort();
    await reader.cancel().catch(() => undefined);
    expect((await t.request('/platform/live/dice-roll/events')).status).toBe(404);
    expect((await t.request('/platform/live/no-such-game/events')).status).toBe(404);
  });
});
