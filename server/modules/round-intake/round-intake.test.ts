/**
 * The round-intake core on a real database (architecture §3: every bet of every game passes one
 * round-intake core, where bonuses, tournaments, jackpots and responsible gaming hook in; §5:
 * money is never lost, no player balance goes below zero).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { createServices, type Services } from '../../services';
import { DEMO_PROVIDER } from '../provider-wallet';
import { checkLedger, house, move, player } from '../wallet';
import { gameRounds, ledgerTransfers, liveBets, providerTransactions } from '../../db/schema';
import type { Gambler, RoundMoneyEvent } from '.';

const DICE = 'dice-roll';
const MINES = 'mines-field';
const ROULETTE = 'live-roulette';
const PROVIDER_GAME = 'fox-fortune';

describe.each(testDatabaseKinds())('round-intake core on %s', (kind) => {
  let t: TestApp;
  let services: Services;
  let siteId: string;
  let currency: string;
  let sequence = 0;
  const next = (prefix: string) => `${prefix}-${kind}-${sequence++}`;

  beforeAll(async () => {
    t = await createTestApp(kind);
    // A stopped clock keeps the live table's betting window open for the whole test.
    const now = Date.now();
    services = createServices(t.db, { notify: t.database.handle.notify, liveGames: { clock: () => now } });
    const site = await services.sites.resolveSite('127.0.0.1');
    siteId = site.id;
    currency = site.defaultCurrency;
    await services.liveGames.advanceTable(await services.liveGames.tableFor(siteId, ROULETTE));
  });
  afterAll(() => t.close());

  const expectSoundLedger = async () => {
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  };

  async function fundedPlayer(amountMinor: bigint): Promise<Gambler> {
    const user = await services.accounts.createUser({
      siteId,
      login: `${next('intake')}@example.com`,
      passwordHash: 'not-used',
      currency,
      locale: 'en',
      isSubscribed: false,
    });
    if (!user) throw new Error('no user');
    await services.wallet.transfer({
      siteId,
      userId: user.id,
      kind: 'deposit',
      currency,
      amountMinor,
      legs: move(house('psp_clearing'), player(user.id, 'main'), amountMinor),
      idempotencyKey: next('fund'),
      actor: 'system',
      reason: 'test funding',
    });
    return { siteId, uid: user.id, visitorId: next('visitor'), locale: 'en', siteCurrency: currency };
  }

  const mainOf = async (who: Gambler) => (await services.wallet.balances(siteId, who.uid, currency)).main;

  /** One bet of each path, 1.00 each, under request and transaction ids of its own. */
  function betsOf(who: Gambler, token: string) {
    const ids = { dice: next('dice'), mines: next('mines'), live: next('live'), provider: next('provider-tx') };
    return {
      ids,
      singleRequest: () =>
        services.gameRounds.play(who, {
          sysname: DICE,
          mode: 'real',
          bet: JSON.stringify({ stake: '1.00', direction: 'under', target: '50.00' }),
          requestId: ids.dice,
        }),
      stateful: () =>
        services.statefulRounds.start(who, {
          sysname: MINES,
          mode: 'real',
          bet: JSON.stringify({ stake: '1.00', mines: 3 }),
          requestId: ids.mines,
        }),
      live: () =>
        services.liveGames.placeBet(who, {
          sysname: ROULETTE,
          mode: 'real',
          bet: JSON.stringify({ bets: [{ kind: 'red', stake: '1.00' }] }),
          requestId: ids.live,
        }),
      provider: () =>
        services.providerWallet.bet(DEMO_PROVIDER.name, siteId, {
          token,
          player_id: who.uid,
          transaction_id: ids.provider,
          round_id: next('provider-round'),
          amount: 100n,
          currency,
        }),
    };
  }

  async function launch(who: Gambler): Promise<string> {
    return (await services.providerWallet.openProviderSession(siteId, who.uid, PROVIDER_GAME, currency)).token;
  }

  it('a hook attached to the intake hears the stake of every bet path (single-request, stateful, live, provider) and the settlements, on the executor of the bet', async () => {
    const who = await fundedPlayer(10_000n);
    const bets = betsOf(who, await launch(who));
    const heard: Array<{ point: string; event: RoundMoneyEvent; seesOwnWrites?: boolean }> = [];
    // The bet's transaction has written its round (or bet row) before the stake moves: a hook on
    // the same transaction reads it; one on another connection could not.
    const detach = services.roundIntake.attach({
      async beforeStake(tx, event) {
        const written = (await tx.execute(sql`SELECT txid_current_if_assigned() IS NOT NULL AS has_writes`)) as unknown as {
          rows: Array<{ has_writes: boolean }>;
        };
        heard.push({ point: 'beforeStake', event, seesOwnWrites: written.rows[0]?.has_writes === true });
      },
      afterSettle(_tx, event) {
        heard.push({ point: 'afterSettle', event });
      },
    });
    try {
      await bets.singleRequest();
      await bets.stateful();
      await bets.live();
      await bets.provider();
    } finally {
      detach();
    }
    const stakes = heard.filter((item) => item.point === 'beforeStake');
    expect(stakes.map((item) => item.event.path)).toEqual(['single-request', 'stateful', 'live', 'provider']);
    for (const { event, seesOwnWrites } of stakes) {
      expect(event).toMatchObject({ siteId, userId: who.uid, currency, mode: 'real', amountMinor: 100n });
      expect(seesOwnWrites).toBe(true);
    }
    // The dice round ends at once, won or lost: its settlement is heard with what it paid.
    expect(heard.filter((item) => item.point === 'afterSettle').map((item) => item.event.path)).toEqual(['single-request']);
    await expectSoundLedger();
  });

  it('a hook that throws refuses the bet on every path: no money moves and no round, bet or provider transaction is recorded', async () => {
    const who = await fundedPlayer(10_000n);
    const bets = betsOf(who, await launch(who));
    const transfersBefore = await t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.userId, who.uid));
    const detach = services.roundIntake.attach({
      beforeStake() {
        throw new Error('refused by the hook');
      },
    });
    try {
      for (const place of [bets.singleRequest, bets.stateful, bets.live, bets.provider])
        await expect(place()).rejects.toThrow('refused by the hook');
    } finally {
      detach();
    }
    expect(await mainOf(who)).toBe(10_000n);
    expect(await t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.userId, who.uid))).toEqual(transfersBefore);
    expect(await t.db.select().from(gameRounds).where(eq(gameRounds.userId, who.uid))).toEqual([]);
    expect(await t.db.select().from(liveBets).where(eq(liveBets.userId, who.uid))).toEqual([]);
    expect(await t.db.select().from(providerTransactions).where(eq(providerTransactions.txId, bets.ids.provider))).toEqual([]);

    // Detached, the same requests go through: the refusal left nothing that would replay.
    await bets.singleRequest();
    await bets.stateful();
    await bets.live();
    await bets.provider();
    await expectSoundLedger();
  });

  it('parallel bets of one balance through two paths at once (live table and provider) take only what the balance covers; the ledger stays sound', async () => {
    const who = await fundedPlayer(1_000n);
    const token = await launch(who);
    const attempts = Array.from({ length: 8 }, () => betsOf(who, token)).flatMap((bets) => [bets.live, bets.provider]);
    const outcomes = await Promise.allSettled(attempts.map((place) => place()));
    const taken = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(taken).toHaveLength(10);
    // Refused as a short balance: the provider's INSUFFICIENT_FUNDS, the table's deposit or stake answer.
    const refusals = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [outcome.reason as { code?: string; type?: string }] : [],
    );
    for (const refusal of refusals)
      expect(refusal.code ?? refusal.type).toMatch(/^(INSUFFICIENT_FUNDS|UserNeedDepositException|InvalidParameterException)$/);
    expect(await mainOf(who)).toBe(0n);
    await expectSoundLedger();
  });
});
