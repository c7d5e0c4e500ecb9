/**
 * What a real-money single-request round costs the database, and the guarantees the faster
 * write keeps (issue 12: "a real-money round is 17–21 sequential statements"; "where you change
 * how a transfer is written, the concurrency tests must still pass on both databases";
 * architecture §5: every key applied once, no negative balance, the audit chain verifies).
 * Statements are counted through the database client, never timed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer } from '../../../test/host-player';
import { signedInPlayer } from '../../../test/player';
import { checkLedger } from '../wallet';
import { auditLog, ledgerTransfers } from '../../db/schema';
import type { Gambler } from '../round-intake';
import type { PlayResult } from './service';
import { gameRounds } from './tables';

const DICE = 'dice-roll';
const SLOT = 'aurora-fortune';

/**
 * Statements of a settled real round once the player's seed and ledger accounts exist and the
 * player's rows are in the process's cache: the seed lock with the request-id lookup, the round
 * insert (written settled, advancing the nonce in the same statement) and the ledger's one call
 * (ledger_write_batch: locks, transfers, postings, balances, audit). It was 17–21 before issue 12,
 * 7 with the ledger's lock, write and audit insert as three statements; a change that adds one fails here.
 */
const ROUND_STATEMENTS = 3;

describe.each(testDatabaseKinds())('a real round’s cost and the batch write on %s', (kind) => {
  let t: TestApp;
  let siteId: string;
  let currency: string;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const site = await t.services.sites.resolveSite('127.0.0.1');
    siteId = site.id;
    currency = site.defaultCurrency;
  });
  afterAll(() => t.close());

  async function fundedGambler(amount: string): Promise<Gambler> {
    const { uid } = await signedInPlayer(t);
    await fundPlayer(t, { uid, siteId, currency }, amount);
    return { siteId, uid, visitorId: '', locale: 'en', siteCurrency: currency };
  }

  const play = (who: Gambler, sysname: string, bet: unknown, requestId = `cost-${kind}-${sequence++}`) =>
    t.services.gameRounds.play(who, { sysname, mode: 'real', bet: JSON.stringify(bet), requestId });

  async function statementsOf(fn: () => Promise<unknown>): Promise<number> {
    const before = t.database.handle.statements();
    await fn();
    return t.database.handle.statements() - before;
  }

  it(`a settled real dice or slot round, lost or won, costs at most ${ROUND_STATEMENTS} statements`, async () => {
    const who = await fundedGambler('100.00');
    // Two rounds first: the first opens the house account, the second remembers its id (wallet resolveAccountId).
    for (let i = 0; i < 2; i++) await play(who, DICE, { stake: '0.10', direction: 'under', target: '50.00' });
    // A near-certain win (payout: stake and payout transfers) and a near-certain loss (stake only).
    const win = await statementsOf(() => play(who, DICE, { stake: '0.10', direction: 'under', target: '95.00' }));
    const loss = await statementsOf(() => play(who, DICE, { stake: '0.10', direction: 'over', target: '95.00' }));
    await play(who, SLOT, { stake: '0.10' });
    const slot = await statementsOf(() => play(who, SLOT, { stake: '0.10' }));
    expect({ win, loss, slot }).toEqual({
      win: expect.any(Number) as number,
      loss: expect.any(Number) as number,
      slot: expect.any(Number) as number,
    });
    expect(Math.max(win, loss, slot)).toBeLessThanOrEqual(ROUND_STATEMENTS);
    // The counter counts: a round is never free.
    expect(Math.min(win, loss, slot)).toBeGreaterThan(0);
  });

  it('the answer’s balance is the balance the ledger holds after the round (taken from the write, not read again)', async () => {
    const who = await fundedGambler('10.00');
    for (let i = 0; i < 5; i++) {
      const result: PlayResult = await play(who, DICE, { stake: '0.50', direction: 'under', target: '50.00' });
      const balances = await t.services.wallet.balances(siteId, who.uid, currency);
      expect(result.balance).toEqual({ amount: (Number(balances.main) / 100).toFixed(2), currency });
    }
  });

  it('one request id played in parallel is one round and one stake: the twins are replays, the balance moves once', async () => {
    const who = await fundedGambler('5.00');
    const requestId = `twin-${kind}-${sequence++}`;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => play(who, DICE, { stake: '1.00', direction: 'under', target: '50.00' }, requestId)),
    );
    const rounds = new Set(results.map((result) => result.round.id));
    expect(rounds.size).toBe(1);
    expect(results.filter((result) => !result.is_replay)).toHaveLength(1);
    const [round] = results;
    const bets = await t.db
      .select({ id: ledgerTransfers.id })
      .from(ledgerTransfers)
      .where(like(ledgerTransfers.idempotencyKey, `round:${round?.round.id}:%`));
    expect(bets.length).toBe(round?.round.payout.amount === '0.00' ? 1 : 2);
    const balances = await t.services.wallet.balances(siteId, who.uid, currency);
    const payoutMinor = BigInt(Math.round(Number(round?.round.payout.amount) * 100));
    expect(balances.main).toBe(500n - 100n + payoutMinor);
    expect((await checkLedger(t.db)).isSound).toBe(true);
  });

  it('parallel rounds of one player never overdraw, each stake and payout is audited once on the player’s chain', async () => {
    const who = await fundedGambler('4.00');
    const settled = await Promise.allSettled(
      Array.from({ length: 10 }, () => play(who, DICE, { stake: '1.00', direction: 'under', target: '50.00' })),
    );
    const played = settled.flatMap((item) => (item.status === 'fulfilled' ? [item.value] : []));
    expect(played.length).toBeGreaterThanOrEqual(4);
    const balances = await t.services.wallet.balances(siteId, who.uid, currency);
    expect(balances.main).toBeGreaterThanOrEqual(0n);
    const expected = played.reduce(
      (sum, result) => sum - 100n + BigInt(Math.round(Number(result.round.payout.amount) * 100)),
      400n,
    );
    expect(balances.main).toBe(expected);
    const [entries] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(and(eq(auditLog.stream, `player:${who.uid}`), like(auditLog.action, 'transfer.game_%')));
    const transfers = played.reduce((sum, result) => sum + (result.round.payout.amount === '0.00' ? 1 : 2), 0);
    expect(entries?.n).toBe(transfers);
    const rounds = await t.db.select({ id: gameRounds.id }).from(gameRounds).where(eq(gameRounds.userId, who.uid));
    expect(rounds.length).toBe(played.length);
    expect((await checkLedger(t.db)).isSound).toBe(true);
  });
});
