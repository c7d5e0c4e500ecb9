/**
 * The aggregator's round keeping against our wallet over real HTTP (issue 15: "rolling back rounds
 * it could not finish"): an unfinished multi-step round is rolled back after its timeout. The title
 * here is a small one made for the test. The shared live rounds are tested with the real tables
 * (tables/live-rooms.test.ts, tables/tables-wallet.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { startAggregatorRig, type AggregatorRig } from '../../test/aggregator';
import { signedInPlayer } from '../../test/player';
import { fundPlayer } from '../../test/host-player';
import { checkLedger } from '../modules/wallet';
import { DEMO_PROVIDER } from '../modules/provider-wallet';
import { createSessionStore, PlayError, type Session } from './sessions';
import { createWalletClient } from './wallet';
import { cryptoRng } from './rng';
import type { PlayerTitle } from './title';
import type { GameHistoryItem } from '#common/contract';

/** Two steps: an ante, then "raise" (a second stake, paid double) or "fold". */
const TWO_STEP: PlayerTitle = {
  id: 'three-card-poker',
  provider: 'redfox',
  kind: 'three-card-poker',
  start: (input) => ({
    stakeMinor: BigInt((input as { stake: string }).stake),
    winMinor: 0n,
    done: false,
    view: {},
    state: { ante: (input as { stake: string }).stake },
  }),
  act: (state, input) =>
    input === 'raise'
      ? {
          stakeMinor: BigInt((state as { ante: string }).ante),
          winMinor: 4n * BigInt((state as { ante: string }).ante),
          done: true,
          view: {},
        }
      : input === 'fold'
        ? { stakeMinor: 0n, winMinor: 0n, done: true, view: {} }
        : undefined,
};

describe.each(testDatabaseKinds())('aggregator rounds on our wallet, on %s', (kind) => {
  let t: TestApp;
  let rig: AggregatorRig;
  let siteId: string;
  let currency: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    rig = await startAggregatorRig(t);
    const site = await t.services.sites.resolveSite('127.0.0.1');
    siteId = site.id;
    currency = site.defaultCurrency;
  });
  afterAll(async () => {
    await rig?.close();
    await t?.close();
  });

  /** A funded player with an aggregator session on a real wallet token, as a launch makes it. */
  async function seated(store: ReturnType<typeof createSessionStore>, sysname: string, amount: string) {
    const { uid, browser } = await signedInPlayer(rig.viaHttp);
    await fundPlayer(t, { uid, siteId, currency }, amount);
    return { uid, browser, session: await relaunch(store, uid, sysname) };
  }

  /** The player's next session of the title, as a launch after a reload opens it (a new wallet token). */
  async function relaunch(store: ReturnType<typeof createSessionStore>, uid: number, sysname: string): Promise<Session> {
    const { token } = await t.services.providerWallet.openProviderSession(siteId, uid, sysname, currency);
    const wallet = createWalletClient(rig.siteUrl, {
      provider: DEMO_PROVIDER.name,
      secret: DEMO_PROVIDER.secret,
      timeoutMs: 10_000,
      attempts: 3,
      duplicateRate: 0,
      retryDelayMs: 10,
    });
    return store.open({
      mode: 'real',
      titleId: sysname,
      language: 'en',
      currency,
      returnUrl: `${rig.siteUrl}/game/${sysname}`,
      siteOrigin: rig.siteUrl,
      balanceMinor: 0n,
      player: { token, playerId: String(uid), wallet },
    });
  }
  /** The two-step title's store with a timeout no test reaches: a round ends only by its steps. */
  const twoStepStore = () =>
    createSessionStore({
      titles: new Map([[TWO_STEP.id, TWO_STEP]]),
      rng: cryptoRng,
      roundTimeoutMs: 600_000,
      sessionIdleMs: 86_400_000,
    });
  const mainOf = async (uid: number) => (await t.services.wallet.balances(siteId, uid, currency)).main;
  /** The player's game history as the site shows it: status, stake and payout of each round, newest first. */
  async function historyOf(browser: Awaited<ReturnType<typeof seated>>['browser']) {
    const history = browser.data<{ items: GameHistoryItem[] }>(await browser.call('games.getHistory', {}, 'GET'));
    return history.items.map((item) => [item.status, item.stake.amount, item.payout.amount]);
  }

  it('a round left unfinished past its timeout has its bets rolled back and is ended; a finished one stands', async () => {
    let clock = Date.now();
    const store = createSessionStore({
      titles: new Map([[TWO_STEP.id, TWO_STEP]]),
      rng: cryptoRng,
      roundTimeoutMs: 60_000,
      sessionIdleMs: 86_400_000,
      now: () => clock,
    });
    const { uid, browser, session } = await seated(store, TWO_STEP.id, '10.00');
    const open = await store.start(session, { stake: '200' });
    expect(open.round.done).toBe(false);
    expect(await mainOf(uid)).toBe(800n);
    // A second round cannot start while one is open.
    await expect(store.start(session, { stake: '100' })).rejects.toMatchObject({ code: 'ROUND_IN_PROGRESS' });

    clock += 59_000;
    await store.sweep();
    expect(await mainOf(uid)).toBe(800n);
    clock += 2_000;
    await store.sweep();
    expect(await mainOf(uid)).toBe(1000n);
    await expect(store.act(session, open.round.id, 'raise')).rejects.toBeInstanceOf(PlayError);

    const finished = await store.start(session, { stake: '100' });
    const raised = await store.act(session, finished.round.id, 'raise');
    expect(raised.round.done).toBe(true);
    expect(await mainOf(uid)).toBe(1000n - 100n - 100n + 400n);
    expect(await historyOf(browser)).toEqual([
      ['settled', '2.00', '4.00'],
      ['rolled_back', '0.00', '0.00'],
    ]);
    expect(await checkLedger(t.db)).toMatchObject({ isSound: true });
  });

  it('a reload’s new session takes the player’s open round over: it goes on at once, the old session can no longer act, and the next session shows how it ended (issue 15: "Three Card Poker after a reload waits for the timeout")', async () => {
    const store = twoStepStore();
    const { uid, browser, session: first } = await seated(store, TWO_STEP.id, '10.00');
    const open = await store.start(first, { stake: '200' });
    expect(store.lastRoundOf(first)).toBeUndefined();

    const second = await relaunch(store, uid, TWO_STEP.id);
    expect(store.openRoundOf(second)).toEqual({ id: open.round.id, view: open.round.view });
    expect(store.openRoundOf(first)).toBeUndefined();
    await expect(store.act(first, open.round.id, 'raise')).rejects.toMatchObject({ code: 'ROUND_NOT_FOUND' });
    const raised = await store.act(second, open.round.id, 'raise');
    expect(raised.round.done).toBe(true);
    expect(await mainOf(uid)).toBe(1000n - 200n - 200n + 800n);

    // After the round: the next session has no round to resume, and knows the finished one.
    const third = await relaunch(store, uid, TWO_STEP.id);
    expect(store.openRoundOf(third)).toBeUndefined();
    expect(store.lastRoundOf(third)).toEqual({ id: open.round.id, view: raised.round.view, stake: '400', win: '800' });
    // Another player's session of the title takes nothing over.
    const other = await seated(store, TWO_STEP.id, '1.00');
    expect(store.lastRoundOf(other.session)).toBeUndefined();

    expect(await historyOf(browser)).toEqual([['settled', '4.00', '8.00']]);
    expect(await checkLedger(t.db)).toMatchObject({ isSound: true });
  });

  it('race: parallel actions in one round, and an action from a reload’s session while the old one’s is with the wallet, play the round once', async () => {
    const store = twoStepStore();
    const { uid, browser, session: first } = await seated(store, TWO_STEP.id, '10.00');
    const once = await store.start(first, { stake: '100' });
    const parallel = await Promise.allSettled([1, 2, 3].map(() => store.act(first, once.round.id, 'raise')));
    expect(parallel.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(await mainOf(uid)).toBe(1000n - 100n - 100n + 400n);

    // The play bet is held back by the network while the page reloads and the player acts again.
    const held = await store.start(first, { stake: '100' });
    rig.delay({ action: 'bet', delayMs: 400, times: 1 });
    const inFlight = store.act(first, held.round.id, 'raise');
    const second = await relaunch(store, uid, TWO_STEP.id);
    await expect(store.act(second, held.round.id, 'raise')).rejects.toMatchObject({ code: 'ROUND_IN_PROGRESS' });
    expect((await inFlight).round.done).toBe(true);
    expect(store.openRoundOf(second)).toBeUndefined();
    expect(store.openRoundOf(first)).toBeUndefined();
    expect(store.lastRoundOf(second)).toMatchObject({ id: held.round.id, stake: '200', win: '400' });
    expect(await mainOf(uid)).toBe(1200n - 200n + 400n);

    expect(await historyOf(browser)).toEqual([
      ['settled', '2.00', '4.00'],
      ['settled', '2.00', '4.00'],
    ]);
    expect(await checkLedger(t.db)).toMatchObject({ isSound: true });
  });
});
