/**
 * The home page's recent big wins (issue 15: "recent big wins" from real settled rounds;
 * games.getWinners): real dice rounds played through games.play on a real database; the list
 * holds the real-money rounds that paid at least BIG_WIN_MULTIPLIER stakes, newest first, and
 * names no player (spec §3 fakename: only a masked fake name, never the login).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import { minorToAmount } from '#common/money';
import type { GameWinnersPage } from '#common/contract';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer, hostPlayer, type HostBrowser } from '../../../test/host-player';
import { gameRounds, providerRounds, providerTransactions, users } from '../../db/schema';
import { BIG_WIN_MULTIPLIER, maskedFakename, winMultiplier } from './big-wins';
import { bigRoundsQuery } from '../game-rounds';
import { bigProviderRoundsQuery, DEMO_PROVIDER, providerClient, type ProviderClient } from '../provider-wallet';
import { gameDisplayName } from '#common/games-contract';

const DICE = 'dice-roll';
const HOST = '127.0.0.1';

describe('big win display rules', () => {
  it('a player shows only as the first two letters of the fake name and stars, or not at all', () => {
    expect(maskedFakename('luckystar')).toBe('lu***');
    expect(maskedFakename('  Zoë9 ')).toBe('Zo***');
    expect(maskedFakename('')).toBeNull();
  });

  it('the multiplier is payout ÷ stake rounded down to a tenth', () => {
    expect(winMultiplier(100n, 660n)).toBe(6.6);
    expect(winMultiplier(30n, 199n)).toBe(6.6);
    expect(winMultiplier(100n, 0n)).toBe(0);
  });
});

describe.each(testDatabaseKinds())('games.getWinners on %s', (kind) => {
  let t: TestApp;
  let sequence = 0;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  /** A dice round "under target": under 15.00 pays 6.6 stakes (a big win), under 50.00 pays 1.98. */
  const roll = async (browser: HostBrowser, mode: 'real' | 'demo', target: string) =>
    browser.data<{ round: { payout: { amount: string } } }>(
      await browser.call('games.play', {
        sysname: DICE,
        mode,
        bet: JSON.stringify({ stake: '0.10', direction: 'under', target }),
        request_id: `big-win-${sequence++}`,
      }),
    );

  /** Plays until `wins` rounds of the target won (each wins with a fixed chance: the loop ends with certainty). */
  async function playUntilWins(browser: HostBrowser, mode: 'real' | 'demo', target: string, wins: number) {
    for (let won = 0; won < wins;) if (Number((await roll(browser, mode, target)).round.payout.amount) > 0) won++;
  }

  it('lists real-money rounds that paid at least five stakes, newest first, with the game name in the locale and no player named', async () => {
    const named = await hostPlayer(t, HOST);
    const unnamed = await hostPlayer(t, HOST);
    for (const who of [named, unnamed]) await fundPlayer(t, who, '100.00');
    named.browser.data(await named.browser.call('account.changefakename', { fakename: 'luckystar' }));
    await playUntilWins(named.browser, 'real', '15.00', 2);
    await playUntilWins(unnamed.browser, 'real', '15.00', 1);
    // Small wins and play-money wins are not big wins of the site.
    await playUntilWins(named.browser, 'real', '50.00', 2);
    await playUntilWins(named.browser, 'demo', '15.00', 1);

    const big = (await t.db.select().from(gameRounds).where(eq(gameRounds.sysname, DICE)).orderBy(desc(gameRounds.settledAt)))
      .filter((row) => row.mode === 'real' && row.payoutMinor >= row.stakeMinor * BigInt(BIG_WIN_MULTIPLIER))
      .filter((row) => row.userId === named.uid || row.userId === unnamed.uid);
    expect(big.length).toBe(3);

    const answer = await t.api('games.getWinners', { params: { count: '50' } });
    const { items } = answer.body.data as GameWinnersPage;
    const ours = items.filter((item) => big.some((row) => String(row.id) === item.id));
    expect(ours.map((item) => item.id)).toEqual(big.map((row) => String(row.id)));
    for (const item of items) expect(item.multiplier).toBeGreaterThanOrEqual(BIG_WIN_MULTIPLIER);
    for (const row of big) {
      const item = ours.find((candidate) => candidate.id === String(row.id))!;
      expect(item.sysname).toBe(DICE);
      expect(item.game_name).toBe('Dice');
      expect(item.payout).toEqual({ amount: minorToAmount(row.payoutMinor), currency: row.currency });
      expect(item.multiplier).toBe(winMultiplier(row.stakeMinor, row.payoutMinor));
      expect(item.player).toBe(row.userId === named.uid ? 'lu***' : null);
    }
    // Nothing that finds the player leaves the server: no login, no uid.
    const logins = await t.db.select({ login: users.login }).from(users).where(eq(users.id, named.uid));
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(logins[0]!.login);
    expect(text).not.toContain('luckystar');
    expect(Object.keys(ours[0]!).sort()).toEqual(['game_name', 'id', 'multiplier', 'payout', 'player', 'settled_at', 'sysname']);

    // The same wins in Italian carry the Italian name.
    const italian = (await t.api('games.getWinners', { params: { count: '50' }, locale: 'it' })).body.data as GameWinnersPage;
    expect(italian.items.find((item) => item.id === ours[0]!.id)?.game_name).toBe('Dadi');
  });

  it('a count outside 1 … 50 is InvalidParameterException naming count', async () => {
    for (const count of ['0', '51', 'x']) {
      const answer = await t.api('games.getWinners', { params: { count } });
      expect(answer.body.error?.type).toBe('InvalidParameterException');
    }
  });
});

describe.each(testDatabaseKinds())('games.getWinners lists aggregator rounds (issue 15) on %s', (kind) => {
  /** A Red Fox Gaming slot of the demo aggregator, played through the seamless wallet. */
  const SLOT = 'fox-fortune';
  let t: TestApp;
  let client: ProviderClient;
  let sequence = 0;
  const next = (prefix: string) => `${prefix}-${kind}-${sequence++}`;
  beforeAll(async () => {
    t = await createTestApp(kind);
    client = providerClient((path, init) => t.request(path, init), DEMO_PROVIDER);
  });
  afterAll(() => t.close());

  /** One provider round as the aggregator plays it: bets, some rolled back, wins, and (or not) its end. */
  async function providerRound(
    session: { token: string; uid: number; currency: string },
    round: { bets: number[]; rolledBack?: number[]; wins: number[]; isEnded: boolean },
  ): Promise<string> {
    const roundId = next('round');
    const base = { token: session.token, player_id: session.uid, round_id: roundId, currency: session.currency };
    const betIds: string[] = [];
    for (const amount of round.bets) {
      const transactionId = next('bet');
      betIds.push(transactionId);
      expect((await client.call('bet', { ...base, transaction_id: transactionId, amount })).body.status).toBe('OK');
    }
    for (const index of round.rolledBack ?? [])
      expect(
        (await client.call('rollback', { ...base, transaction_id: next('rb'), reference_transaction_id: betIds[index] })).body
          .status,
      ).toBe('OK');
    for (const amount of round.wins)
      expect((await client.call('win', { ...base, transaction_id: next('win'), amount })).body.status).toBe('OK');
    if (round.isEnded) expect((await client.call('round-end', { ...base })).body.status).toBe('OK');
    return roundId;
  }

  const roundIdOf = async (roundId: string) =>
    (await t.db.select({ id: providerRounds.id }).from(providerRounds).where(eq(providerRounds.roundId, roundId)))[0]!.id;

  it('an ended provider round that paid five stakes or more is a big win with its translated name and art, newest first with in-house wins; small, unfinished and rolled-back stakes are not', async () => {
    const who = await hostPlayer(t, HOST);
    await fundPlayer(t, who, '100.00');
    who.browser.data(await who.browser.call('account.changefakename', { fakename: 'foxfan' }));
    const opened = await t.services.providerWallet.openProviderSession(who.siteId, who.uid, SLOT, who.currency);
    const session = { token: opened.token, uid: who.uid, currency: who.currency };

    const big = await providerRound(session, { bets: [100], wins: [400, 600], isEnded: true });
    // Two bets, one rolled back: the stake is the bet that stood, so 600 on 100 is big.
    const bigAfterRollback = await providerRound(session, { bets: [100, 100], rolledBack: [1], wins: [600], isEnded: true });
    const small = await providerRound(session, { bets: [100], wins: [200], isEnded: true });
    const unfinished = await providerRound(session, { bets: [100], wins: [900], isEnded: false });
    const allRolledBack = await providerRound(session, { bets: [100], rolledBack: [0], wins: [0], isEnded: true });
    // Then an in-house big win: the newest of all.
    for (let won = false; !won;) {
      const played = who.browser.data<{ round: { payout: { amount: string } } }>(
        await who.browser.call('games.play', {
          sysname: DICE,
          mode: 'real',
          bet: JSON.stringify({ stake: '0.10', direction: 'under', target: '15.00' }),
          request_id: next('dice'),
        }),
      );
      won = Number(played.round.payout.amount) > 0;
    }
    const [dice] = await t.db
      .select()
      .from(gameRounds)
      .where(eq(gameRounds.userId, who.uid))
      .orderBy(desc(gameRounds.id))
      .limit(1);

    const page = (await t.api('games.getWinners', { params: { count: '50' } })).body.data as GameWinnersPage;
    const ids = page.items.map((item) => item.id);
    const expected = [String(dice!.id), `provider-${await roundIdOf(bigAfterRollback)}`, `provider-${await roundIdOf(big)}`];
    expect(ids.filter((id) => expected.includes(id))).toEqual(expected);
    for (const roundId of [small, unfinished, allRolledBack]) expect(ids).not.toContain(`provider-${await roundIdOf(roundId)}`);

    const names = async (locale: 'en' | 'it') =>
      gameDisplayName((await t.services.games.listGames(who.siteId, locale)).find((game) => game.sysname === SLOT)!);
    const bigId = `provider-${await roundIdOf(big)}`;
    const item = page.items.find((candidate) => candidate.id === bigId)!;
    expect(item).toEqual({
      id: bigId,
      sysname: SLOT,
      game_name: await names('en'),
      player: 'fo***',
      payout: { amount: minorToAmount(1000n), currency: who.currency },
      multiplier: winMultiplier(100n, 1000n),
      settled_at: expect.any(String),
    });
    const italian = (await t.api('games.getWinners', { params: { count: '50' }, locale: 'it' })).body.data as GameWinnersPage;
    expect(italian.items.find((candidate) => candidate.id === item.id)?.game_name).toBe(await names('it'));
    // The rail's art for the title is the drawn picture /platform/art serves.
    const art = await t.request(`/platform/art/${SLOT}.svg`);
    expect(art.status).toBe(200);
    expect(art.headers.get('content-type')).toContain('image/svg+xml');
  });

  it('a provider round keeps its stake and payout equal to its applied bets and wins when duplicates and a rollback arrive at the same time (race)', async () => {
    const who = await hostPlayer(t, HOST);
    await fundPlayer(t, who, '100.00');
    const opened = await t.services.providerWallet.openProviderSession(who.siteId, who.uid, SLOT, who.currency);
    const roundId = next('race');
    const base = { token: opened.token, player_id: who.uid, round_id: roundId, currency: who.currency };
    const bets = [0, 1, 2, 3].map(() => next('race-bet'));
    const wins = [0, 1, 2].map(() => next('race-win'));
    // Every bet three times at once, then every win twice and the first bet's rollback twice at once.
    await Promise.all(
      bets.flatMap((id) => [0, 1, 2].map(() => client.call('bet', { ...base, transaction_id: id, amount: 100 }))),
    );
    const rollback = next('race-rb');
    await Promise.all([
      ...wins.flatMap((id, index) =>
        [0, 1].map(() => client.call('win', { ...base, transaction_id: id, amount: 150 * (index + 1) })),
      ),
      ...[0, 1].map(() => client.call('rollback', { ...base, transaction_id: rollback, reference_transaction_id: bets[0] })),
    ]);
    const [round] = await t.db.select().from(providerRounds).where(eq(providerRounds.roundId, roundId));
    const [sums] = await t.db
      .select({
        staked: sql<string>`coalesce(sum(${providerTransactions.amountMinor}) filter (where ${providerTransactions.kind} = 'bet' and ${providerTransactions.status} = 'applied'), 0)::text`,
        paid: sql<string>`coalesce(sum(${providerTransactions.amountMinor}) filter (where ${providerTransactions.kind} = 'win' and ${providerTransactions.status} = 'applied'), 0)::text`,
      })
      .from(providerTransactions)
      .where(eq(providerTransactions.roundId, roundId));
    expect({ stake: round!.stakeMinor, payout: round!.payoutMinor }).toEqual({
      stake: BigInt(sums!.staked),
      payout: BigInt(sums!.paid),
    });
    expect({ stake: round!.stakeMinor, payout: round!.payoutMinor }).toEqual({ stake: 300n, payout: 900n });
  });

  /** The plan of a query when the planner may not read a whole table: which index it reads. */
  async function planOf(query: SQLWrapper): Promise<string> {
    return t.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const result = (await tx.execute(sql`EXPLAIN SELECT * FROM (${query}) AS big_wins`)) as unknown as {
        rows: Record<string, string>[];
      };
      return result.rows.map((row) => Object.values(row)[0]).join('\n');
    });
  }

  it('each source is read from its partial index of big wins, newest first, without sorting the site’s rounds (no slow query)', async () => {
    const site = await t.services.sites.resolveSite(HOST);
    const inHouse = await planOf(bigRoundsQuery(t.db, { siteId: site.id, limit: 12 }));
    expect(inHouse).toContain('game_rounds_big_wins');
    expect(inHouse).not.toMatch(/\bSort\b/);
    const provider = await planOf(bigProviderRoundsQuery(t.db, { siteId: site.id, limit: 12 }));
    expect(provider).toContain('provider_rounds_big_wins');
    expect(provider).not.toMatch(/\bSort\b/);
  });
});
