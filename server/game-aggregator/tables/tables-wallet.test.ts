/**
 * The table titles against the real seamless wallet over HTTP, on PGlite and PostgreSQL (issue 15:
 * "moves money only by calling our seamless wallet … every wallet rule is exercised by a real client"):
 * - a shared live round with several players betting in parallel, racing the close, settles each
 *   player through the wallet exactly once (one win and one round end per player, retries and
 *   duplicates included), and a bet refused after the close moves no money;
 * - a Three Card Poker round left after the ante is settled as a fold (docs/games-rtp.md §6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { freePort } from '../../../test/free-port';
import { fundedUser } from '../../../test/host-player';
import { DEMO_PROVIDER } from '../../modules/provider-wallet';
import { providerTransactions } from '../../db/schema';
import { cryptoRng } from '../rng';
import { createSessionStore, type Session } from '../sessions';
import { createWalletClient } from '../wallet';
import { evaluateHand, PAIR_PLUS } from './three-card-poker-rules';
import type { Card } from './cards';
import { liveBaccarat } from './live-baccarat';
import { autoRoulette } from './auto-roulette';
import { createLiveRooms } from './live-rooms';
import { addLiveTableRoutes } from './live-routes';
import { ABANDONED_ROUND_ACTIONS } from './index';
import { threeCardPoker } from './three-card-poker';

const START_MINOR = 500_000n;
const PLAYERS = 6;

describe.each(testDatabaseKinds())('table titles on the seamless wallet (%s)', (kind) => {
  let t: TestApp;
  let server: ServerType;
  let siteUrl: string;
  let siteId: string;
  let currency: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const site = await t.services.sites.resolveSite('127.0.0.1');
    siteId = site.id;
    currency = site.defaultCurrency;
    const port = await freePort();
    server = serve({ fetch: t.app.fetch, port, hostname: '127.0.0.1' });
    siteUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  /** A funded player with a provider session for the game, seen by the aggregator as a real-money session. */
  async function seat(
    store: ReturnType<typeof createSessionStore>,
    game: string,
    tag: string,
  ): Promise<{ session: Session; userId: number }> {
    const user = await fundedUser(t, { siteId, currency, amountMinor: START_MINOR, tag: `tables-${kind}-${tag}` });
    return { session: await sessionOf(store, game, user.id), userId: user.id };
  }

  /** The player's real-money session of the game, as a launch opens it (each page load or reload launches one). */
  async function sessionOf(store: ReturnType<typeof createSessionStore>, game: string, userId: number): Promise<Session> {
    const providerSession = await t.services.providerWallet.openProviderSession(siteId, userId, game, currency);
    // Half the bets and wins are sent twice on purpose: the wallet's idempotency keeps them single.
    const wallet = createWalletClient(siteUrl, {
      provider: DEMO_PROVIDER.name,
      secret: DEMO_PROVIDER.secret,
      timeoutMs: 10_000,
      attempts: 3,
      duplicateRate: 0.5,
      retryDelayMs: 20,
    });
    const auth = await wallet.authenticate(providerSession.token);
    if (auth.kind !== 'ok') throw new Error(`authenticate: ${JSON.stringify(auth)}`);
    return store.open({
      mode: 'real',
      titleId: game,
      language: 'en',
      currency,
      returnUrl: siteUrl,
      siteOrigin: siteUrl,
      balanceMinor: auth.balanceMinor,
      player: { token: providerSession.token, playerId: String(auth.body.player_id), wallet },
    });
  }

  const mainBalance = async (userId: number) => (await t.services.wallet.balances(siteId, userId, currency)).main;

  it.each([liveBaccarat, autoRoulette].map((table) => [table.id, table] as const))(
    '%s: parallel bets from several players, racing the close, settle each player exactly once',
    async (_id, table) => {
      const store = createSessionStore({ titles: new Map(), rng: cryptoRng, roundTimeoutMs: 60_000, sessionIdleMs: 60_000 });
      const rooms = createLiveRooms({ tables: new Map([[table.id, table]]), rng: cryptoRng });
      const app = new Hono();
      addLiveTableRoutes(app, store, rooms);
      const players = await Promise.all(
        Array.from({ length: PLAYERS }, (_, index) => seat(store, table.id, `${table.id}-${index}`)),
      );
      const spotsOf = (index: number) => [
        table.spots[index % table.spots.length]!,
        table.spots[(index * 7 + 3) % table.spots.length]!,
      ];
      const bet = (session: Session, spot: string, stake: bigint) =>
        app.request(`/play/${session.id}/live/bets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ input: { spot, stake: stake.toString() } }),
        });

      // Every player bets on two spots at once, all players together.
      const opening = await Promise.all(
        players.flatMap(({ session }, index) =>
          spotsOf(index).map((spot, n) => bet(session, spot, 100n * BigInt(index + 2 + n))),
        ),
      );
      expect(opening.map((response) => response.status)).toEqual(opening.map(() => 200));

      // A second wave races the close (twice at once): each bet is taken or refused as closed.
      const wave = players.map(({ session }, index) => bet(session, spotsOf(index)[0]!, 150n));
      const closes = [rooms.closeNow(table.id), rooms.closeNow(table.id)];
      const late = await Promise.all(wave);
      await Promise.all(closes);
      for (const response of late) {
        if (response.status !== 200) {
          expect(response.status).toBe(409);
          expect(((await response.json()) as { error: { code: string } }).error.code).toBe('BETTING_CLOSED');
        }
      }
      const after = await bet(players[0]!.session, spotsOf(0)[0]!, 150n);
      expect(after.status).toBe(409);
      expect(rooms.pendingCount()).toBe(0);

      for (const { session, userId } of players) {
        const state = rooms.state(session);
        expect(state.round.phase).toBe('result');
        const stakes = state.bets.reduce((sum, each) => sum + BigInt(each.stake), 0n);
        const returned = state.bets.reduce(
          (sum, each) => sum + table.settle({ spot: each.spot, stakeMinor: BigInt(each.stake) }, state.round.outcome),
          0n,
        );
        expect(BigInt(state.win!)).toBe(returned);
        expect(await mainBalance(userId)).toBe(START_MINOR - stakes + returned);

        const rows = await t.db
          .select()
          .from(providerTransactions)
          .where(and(eq(providerTransactions.userId, userId), like(providerTransactions.roundId, `${state.round.id}-%`)));
        const bets = rows.filter((row) => row.kind === 'bet');
        const wins = rows.filter((row) => row.kind === 'win');
        expect(bets).toHaveLength(state.bets.length);
        expect(bets.every((row) => row.status === 'applied')).toBe(true);
        expect(wins).toHaveLength(1);
        expect(wins[0]!.amountMinor).toBe(returned);
        expect(rows.filter((row) => row.kind === 'rollback')).toHaveLength(0);
      }
    },
  );

  it('three-card-poker: a round left after the ante is settled as a fold — ante lost, pair plus paid, round ended, nothing rolled back', async () => {
    let clock = 1_000_000;
    const store = createSessionStore({
      titles: new Map([[threeCardPoker.id, threeCardPoker]]),
      rng: cryptoRng,
      roundTimeoutMs: 60_000,
      sessionIdleMs: 3_600_000,
      now: () => clock,
      abandonedRoundActions: ABANDONED_ROUND_ACTIONS,
    });
    const { session, userId } = await seat(store, threeCardPoker.id, 'tcp');
    const first = await store.start(session, { ante: '500', pairPlus: '200' });
    expect(first.round.done).toBe(false);
    expect(await mainBalance(userId)).toBe(START_MINOR - 700n);

    clock += 60_000; // the player never answers
    await store.sweep();

    const cards = (first.round.view as { player: Card[] }).player;
    const odds = PAIR_PLUS[evaluateHand(cards).hand];
    const pairPlusReturn = odds === undefined ? 0n : 200n * (odds + 1n);
    expect(await mainBalance(userId)).toBe(START_MINOR - 700n + pairPlusReturn);
    const rows = await t.db
      .select()
      .from(providerTransactions)
      .where(and(eq(providerTransactions.userId, userId), eq(providerTransactions.roundId, first.round.id)));
    expect(rows.filter((row) => row.kind === 'bet').map((row) => row.amountMinor)).toEqual([700n]);
    expect(rows.filter((row) => row.kind === 'win').map((row) => row.amountMinor)).toEqual([pairPlusReturn]);
    expect(rows.filter((row) => row.kind === 'rollback')).toHaveLength(0);
    await expect(store.act(session, first.round.id, { action: 'play' })).rejects.toMatchObject({ code: 'ROUND_NOT_FOUND' });
  });

  it('live-baccarat: a seat follows the player to a reloaded page’s session, whose balance then shows the round’s return (the old session’s polls do not take it back)', async () => {
    const store = createSessionStore({ titles: new Map(), rng: cryptoRng, roundTimeoutMs: 60_000, sessionIdleMs: 60_000 });
    const rooms = createLiveRooms({ tables: new Map([[liveBaccarat.id, liveBaccarat]]), rng: cryptoRng });
    const { session: first, userId } = await seat(store, liveBaccarat.id, 'reload');
    // Player and banker together: one of them wins, or a tie returns both, so the round always pays.
    await rooms.placeBet(first, { spot: 'player', stake: '1000' });
    await rooms.placeBet(first, { spot: 'banker', stake: '1000' });
    const reloaded = await sessionOf(store, liveBaccarat.id, userId);
    expect(rooms.state(reloaded).bets).toEqual([
      { spot: 'player', stake: '1000' },
      { spot: 'banker', stake: '1000' },
    ]);
    rooms.state(first); // the old tab polls once more
    await rooms.closeNow(liveBaccarat.id);
    const settled = rooms.state(reloaded);
    expect(BigInt(settled.win!)).toBeGreaterThan(0n);
    expect(BigInt(settled.balance)).toBe(START_MINOR - 2000n + BigInt(settled.win!));
    expect(BigInt(settled.balance)).toBe(await mainBalance(userId));
  });
});
