/**
 * The ledger's rules (architecture §5) on a real database: zero-sum postings, cached balances,
 * no negative player balance, idempotency keys bound to their request, row locks under
 * concurrency, the append-only hash-chained audit log and the invariant checker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openDatabase } from '../../db/client';
import { runMigrations } from '../../db/migrate';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { auditLog, ledgerTransfers, users, sites } from '../../db/schema';
import { chainedHash, contentHash } from './audit';
import { checkLedger } from './ledger-check';
import { house, move, player, InvalidTransferError } from './postings';
import { createWalletService, IdempotencyConflictError, InsufficientFundsError, type WalletService } from './service';

const SITE = 'wallet-test';

describe.each(testDatabaseKinds())('wallet ledger on %s', (kind) => {
  let database: TestDatabase;
  let wallet: WalletService;
  let nextLogin = 0;

  async function newPlayer(): Promise<number> {
    const [row] = await database.handle.db
      .insert(users)
      .values({ siteId: SITE, login: `p${nextLogin++}@example.com`, currency: 'EUR', locale: 'en' })
      .returning({ id: users.id });
    return row!.id;
  }

  const deposit = (userId: number, amountMinor: bigint, key?: string) =>
    wallet.transfer({
      siteId: SITE,
      userId,
      kind: 'deposit',
      currency: 'EUR',
      amountMinor,
      legs: move(house('psp_clearing'), player(userId, 'main'), amountMinor),
      idempotencyKey: key,
      actor: 'psp:test',
      reason: 'test deposit',
    });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await runMigrations(database.handle);
    await database.handle.db.insert(sites).values({
      id: SITE,
      name: 'Wallet test',
      hosts: ['wallet.test'],
      defaultCurrency: 'EUR',
      currencies: ['EUR'],
      locales: ['en'],
    });
    wallet = createWalletService(database.handle.db);
  });
  afterAll(() => database.drop());

  it('a transfer moves money and the cached balances follow its postings', async () => {
    const userId = await newPlayer();
    await deposit(userId, 2_500n);
    await wallet.transfer({
      siteId: SITE,
      userId,
      kind: 'bet',
      currency: 'EUR',
      amountMinor: 700n,
      legs: move(player(userId, 'main'), house('game'), 700n),
      actor: 'system',
      reason: 'test bet',
    });
    const balances = await wallet.balances(SITE, userId, 'EUR');
    expect(balances.main).toBe(1_800n);
    expect(balances.bonus).toBe(0n);
    expect((await checkLedger(database.handle.db)).isSound).toBe(true);
  });

  it('postings that do not sum to zero, zero amounts and a non-positive headline are refused before anything is written', async () => {
    const userId = await newPlayer();
    const base = { siteId: SITE, userId, kind: 'deposit', currency: 'EUR', actor: 'test', reason: 'bad' };
    await expect(
      wallet.transfer({
        ...base,
        amountMinor: 100n,
        legs: [
          { account: player(userId, 'main'), amountMinor: 100n },
          { account: house('psp_clearing'), amountMinor: -99n },
        ],
      }),
    ).rejects.toBeInstanceOf(InvalidTransferError);
    await expect(
      wallet.transfer({ ...base, amountMinor: 0n, legs: move(house('psp_clearing'), player(userId, 'main'), 0n) }),
    ).rejects.toBeInstanceOf(InvalidTransferError);
    await expect(
      wallet.transfer({ ...base, amountMinor: -5n, legs: move(house('psp_clearing'), player(userId, 'main'), 5n) }),
    ).rejects.toBeInstanceOf(InvalidTransferError);
    expect((await wallet.balances(SITE, userId, 'EUR')).main).toBe(0n);
  });

  it('a player balance never goes below zero: the transfer is refused and nothing moves', async () => {
    const userId = await newPlayer();
    await deposit(userId, 500n);
    await expect(
      wallet.transfer({
        siteId: SITE,
        userId,
        kind: 'bet',
        currency: 'EUR',
        amountMinor: 501n,
        legs: move(player(userId, 'main'), house('game'), 501n),
        actor: 'system',
        reason: 'too much',
      }),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    expect((await wallet.balances(SITE, userId, 'EUR')).main).toBe(500n);
  });

  it('the database itself refuses a negative player balance (a CHECK, not only code)', async () => {
    const userId = await newPlayer();
    await deposit(userId, 100n);
    await expect(
      database.handle.db.execute(sql`UPDATE ledger_accounts SET balance_minor = -1 WHERE user_id = ${userId}`),
    ).rejects.toThrow();
  });

  it('an idempotency key replayed with the same request returns the first transfer and moves nothing', async () => {
    const userId = await newPlayer();
    const first = await deposit(userId, 1_000n, `dep-${userId}`);
    const again = await deposit(userId, 1_000n, `dep-${userId}`);
    expect(again).toEqual({ transferId: first.transferId, isReplay: true });
    expect((await wallet.balances(SITE, userId, 'EUR')).main).toBe(1_000n);
  });

  it('the same idempotency key with a different request is refused as a duplicate', async () => {
    const userId = await newPlayer();
    await deposit(userId, 1_000n, `dup-${userId}`);
    await expect(deposit(userId, 2_000n, `dup-${userId}`)).rejects.toBeInstanceOf(IdempotencyConflictError);
    expect((await wallet.balances(SITE, userId, 'EUR')).main).toBe(1_000n);
  });

  it('concurrent replays of one key apply it once', async () => {
    const userId = await newPlayer();
    const results = await Promise.all(Array.from({ length: 8 }, () => deposit(userId, 300n, `race-${userId}`)));
    expect(results.filter((result) => !result.isReplay)).toHaveLength(1);
    expect((await wallet.balances(SITE, userId, 'EUR')).main).toBe(300n);
  });

  it('concurrent debits from one balance never overdraw it (row locks in account-id order)', async () => {
    const userId = await newPlayer();
    await deposit(userId, 1_000n);
    const attempts = await Promise.allSettled(
      Array.from({ length: 12 }, () =>
        wallet.transfer({
          siteId: SITE,
          userId,
          kind: 'bet',
          currency: 'EUR',
          amountMinor: 100n,
          legs: move(player(userId, 'main'), house('game'), 100n),
          actor: 'system',
          reason: 'race',
        }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(10);
    expect((await wallet.balances(SITE, userId, 'EUR')).main).toBe(0n);
    expect((await checkLedger(database.handle.db)).isSound).toBe(true);
  });

  // Issue 12: a round's stake and payout are written as one batch (transferAll); each stays its own transfer.
  const bet = (userId: number, amountMinor: bigint, key: string) => ({
    siteId: SITE,
    userId,
    kind: 'game_bet',
    currency: 'EUR',
    amountMinor,
    legs: move(player(userId, 'main'), house('game', userId), amountMinor),
    idempotencyKey: key,
    actor: `player:${userId}`,
    reason: 'batch test bet',
  });
  const win = (userId: number, amountMinor: bigint, key: string) => ({
    ...bet(userId, amountMinor, key),
    kind: 'game_win',
    legs: move(house('game', userId), player(userId, 'main'), amountMinor),
    reason: 'batch test win',
  });

  it('a batch is all or nothing, in order: a stake the balance does not cover is refused even when the payout after it would', async () => {
    const userId = await newPlayer();
    await deposit(userId, 100n);
    await expect(
      wallet.transferAll([bet(userId, 150n, `b-${userId}-1`), win(userId, 300n, `w-${userId}-1`)]),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    const [keys] = await database.handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(ledgerTransfers)
      .where(sql`${ledgerTransfers.idempotencyKey} LIKE ${`%-${userId}-1`}`);
    expect(keys?.n).toBe(0);
    const done = await wallet.transferAll([bet(userId, 100n, `b-${userId}-2`), win(userId, 250n, `w-${userId}-2`)]);
    expect(done.results.map((result) => result.isReplay)).toEqual([false, false]);
    expect(done.playerBalances).toEqual([{ userId, type: 'main', balanceMinor: 250n }]);
    expect((await wallet.balances(SITE, userId, 'EUR')).main).toBe(250n);
    expect((await checkLedger(database.handle.db)).isSound).toBe(true);
  });

  it('the same batch sent in parallel applies each key once; the twins are replays of the first transfers', async () => {
    const userId = await newPlayer();
    await deposit(userId, 1_000n);
    const batch = () => wallet.transferAll([bet(userId, 400n, `pb-${userId}`), win(userId, 700n, `pw-${userId}`)]);
    const outcomes = await Promise.all(Array.from({ length: 8 }, batch));
    const firsts = outcomes.filter((outcome) => outcome.results.every((result) => !result.isReplay));
    expect(firsts).toHaveLength(1);
    const ids = new Set(outcomes.flatMap((outcome) => outcome.results.map((result) => result.transferId)));
    expect(ids.size).toBe(2);
    expect((await wallet.balances(SITE, userId, 'EUR')).main).toBe(1_300n);
    // A batch with one key applied and one new: the first is a replay, only the second moves.
    const mixed = await wallet.transferAll([bet(userId, 400n, `pb-${userId}`), bet(userId, 300n, `pb2-${userId}`)]);
    expect(mixed.results.map((result) => result.isReplay)).toEqual([true, false]);
    expect((await wallet.balances(SITE, userId, 'EUR')).main).toBe(1_000n);
    expect((await checkLedger(database.handle.db)).isSound).toBe(true);
  });

  it('parallel batches of many players and one player keep every audit chain verifiable and every balance equal to its postings', async () => {
    const players = await Promise.all(Array.from({ length: 4 }, newPlayer));
    await Promise.all(players.map((userId) => deposit(userId, 10_000n)));
    await Promise.all(
      Array.from({ length: 24 }, (_, index) => {
        const userId = players[index % 2 === 0 ? 0 : index % players.length] ?? 0;
        return wallet.transferAll([bet(userId, 10n, `many-${userId}-${index}`), win(userId, 15n, `many-w-${userId}-${index}`)]);
      }),
    );
    const report = await checkLedger(database.handle.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  });

  // Issue 12, group commit: batches made outside a transaction share calls (transfer-groups.ts).
  it('§5 group commit: parallel batches share calls, yet each is all or nothing on its own: refused ones (funds, a key bound elsewhere) move nothing, the others all move, twins replay', async () => {
    // One lane: while its call runs, every other batch waits and the next call carries them all.
    const grouped = createWalletService(database.handle.db, { groupLanes: 1 });
    const rich = await Promise.all(Array.from({ length: 6 }, newPlayer));
    const poor = await Promise.all(Array.from({ length: 3 }, newPlayer));
    const taken = await newPlayer();
    await Promise.all([...rich, ...poor, taken].map((userId) => deposit(userId, 100n, `gd-${userId}`)));
    const statsBefore = grouped.groupCommitStats();
    const twin = rich[0]!;
    const batches = [
      ...rich.map((userId) => () => grouped.transferAll([bet(userId, 60n, `g-${userId}`), win(userId, 90n, `gw-${userId}`)])),
      // The win would cover the stake, but it comes after it: refused whole.
      ...poor.map((userId) => () => grouped.transferAll([bet(userId, 700n, `g-${userId}`), win(userId, 900n, `gw-${userId}`)])),
      // The deposit's key again, for another request.
      () => grouped.transferAll([bet(taken, 10n, `gd-${taken}`)]),
      () => grouped.transferAll([bet(twin, 60n, `g-${twin}`), win(twin, 90n, `gw-${twin}`)]),
    ];
    const outcomes = await Promise.allSettled(batches.map((batch) => batch()));
    const stats = grouped.groupCommitStats();
    expect(stats.groups - statsBefore.groups).toBe(batches.length);
    expect(stats.calls - statsBefore.calls).toBeLessThan(batches.length);

    const fulfilled = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    const reasons = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    expect(fulfilled).toHaveLength(rich.length + 1);
    expect(reasons.filter((reason) => reason instanceof InsufficientFundsError)).toHaveLength(poor.length);
    expect(reasons.filter((reason) => reason instanceof IdempotencyConflictError)).toHaveLength(1);
    const twinOutcomes = [outcomes[0], outcomes.at(-1)].map((outcome) =>
      outcome?.status === 'fulfilled' ? outcome.value.results : [],
    );
    expect(twinOutcomes[0]!.map((result) => result.transferId)).toEqual(twinOutcomes[1]!.map((result) => result.transferId));
    expect(twinOutcomes.flat().filter((result) => result.isReplay)).toHaveLength(2);

    for (const userId of rich) expect((await wallet.balances(SITE, userId, 'EUR')).main).toBe(130n);
    for (const userId of [...poor, taken]) expect((await wallet.balances(SITE, userId, 'EUR')).main).toBe(100n);
    const [written] = await database.handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(ledgerTransfers)
      .where(
        sql`${ledgerTransfers.userId} IN (${sql.join(
          [...poor, taken].map((id) => sql`${id}`),
          sql`, `,
        )}) AND ${ledgerTransfers.kind} <> 'deposit'`,
      );
    expect(written?.n).toBe(0);
    const report = await checkLedger(database.handle.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  });

  it('§5 two processes grouping their own callers (two pools on PostgreSQL; on PGlite two wallets over the one database) never overdraw one balance together and keep its audit chain whole', async () => {
    const other = kind === 'postgres' ? await openDatabase({ url: database.url!, poolSize: 5 }) : undefined;
    try {
      const secondProcess = createWalletService(other?.db ?? database.handle.db);
      const userId = await newPlayer();
      await deposit(userId, 1_000n);
      const debit = (service: WalletService, index: number) => service.transferAll([bet(userId, 100n, `two-${userId}-${index}`)]);
      const attempts = await Promise.allSettled(
        Array.from({ length: 24 }, (_, index) => debit(index % 2 === 0 ? wallet : secondProcess, index)),
      );
      expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(10);
      const refusals = attempts.flatMap((attempt) => (attempt.status === 'rejected' ? [attempt.reason as unknown] : []));
      expect(refusals.every((reason) => reason instanceof InsufficientFundsError)).toBe(true);
      expect((await wallet.balances(SITE, userId, 'EUR')).main).toBe(0n);
      const report = await checkLedger(database.handle.db);
      expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
    } finally {
      await other?.close();
    }
  });

  it('a transfer inside a caller transaction that rolls back leaves no trace, and the next one still works', async () => {
    const userId = await newPlayer();
    await expect(
      database.handle.db.transaction(async (tx) => {
        await wallet.transfer(
          {
            siteId: SITE,
            userId,
            kind: 'bonus',
            currency: 'EUR',
            amountMinor: 50n,
            legs: move(house('bonus_cost'), player(userId, 'bonus'), 50n),
            actor: 'system',
            reason: 'rolled back',
          },
          tx,
        );
        throw new Error('caller fails after the transfer');
      }),
    ).rejects.toThrow('caller fails');
    expect((await wallet.balances(SITE, userId, 'EUR')).bonus).toBe(0n);
    await wallet.transfer({
      siteId: SITE,
      userId,
      kind: 'bonus',
      currency: 'EUR',
      amountMinor: 50n,
      legs: move(house('bonus_cost'), player(userId, 'bonus'), 50n),
      actor: 'system',
      reason: 'after',
    });
    expect((await wallet.balances(SITE, userId, 'EUR')).bonus).toBe(50n);
  });

  it('§5 a transfer reads its rows by key however many accounts there are: no sequential scan of accounts, transfers or audit log (issue 12)', async () => {
    // A thousand accounts, and the planner told so: it priced a hash join over every account (the
    // balance update) below the primary key, so each call read the whole table.
    await database.handle.db.execute(sql`
      INSERT INTO ledger_accounts (site_id, owner_kind, user_id, type, currency)
      SELECT ${SITE}, 'player', 50000000 + g, 'main', 'EUR' FROM generate_series(1, 1000) AS g`);
    await database.handle.db.execute(sql`ANALYZE ledger_accounts`);
    const userId = await newPlayer();
    await deposit(userId, 1_000n);
    const scans = await database.handle.db.transaction(async (tx) => {
      // This backend's counters, before and after: their difference is the transfer's statements
      // (the counters also hold what earlier transactions here have not yet reported).
      const counters = async () => {
        const answer = (await tx.execute(sql`
          SELECT relname, seq_scan, idx_scan FROM pg_stat_xact_user_tables
          WHERE relname IN ('ledger_accounts', 'ledger_transfers', 'audit_log') ORDER BY relname`)) as unknown as {
          rows: Array<{ relname: string; seq_scan: number | string; idx_scan: number | string | null }>;
        };
        return answer.rows.map((row) => ({
          table: row.relname,
          seqScans: Number(row.seq_scan),
          indexScans: Number(row.idx_scan ?? 0),
        }));
      };
      const before = await counters();
      await wallet.transfer(
        {
          siteId: SITE,
          userId,
          kind: 'bet',
          currency: 'EUR',
          amountMinor: 300n,
          legs: move(player(userId, 'main'), house('game'), 300n),
          idempotencyKey: `scan-${userId}`,
          actor: 'system',
          reason: 'index test',
        },
        tx,
      );
      return (await counters()).map((row) => {
        const earlier = before.find((candidate) => candidate.table === row.table);
        return {
          ...row,
          seqScans: row.seqScans - (earlier?.seqScans ?? 0),
          indexScans: row.indexScans - (earlier?.indexScans ?? 0),
        };
      });
    });
    expect(scans.map((row) => row.table)).toEqual(['audit_log', 'ledger_accounts', 'ledger_transfers']);
    for (const row of scans) expect(row, row.table).toMatchObject({ seqScans: 0 });
    expect(scans.find((row) => row.table === 'ledger_accounts')?.indexScans).toBeGreaterThan(0);
    expect((await wallet.balances(SITE, userId, 'EUR')).main).toBe(700n);
  });

  it('the ledger and its audit log are append-only: updates and deletes are refused', async () => {
    const appendOnly = { cause: expect.objectContaining({ message: expect.stringMatching(/append-only/) }) };
    await expect(database.handle.db.execute(sql`DELETE FROM ledger_postings`)).rejects.toMatchObject(appendOnly);
    await expect(database.handle.db.execute(sql`UPDATE audit_log SET reason = 'edited'`)).rejects.toMatchObject(appendOnly);
  });

  it('the checker finds an edited audit entry, a cached balance that disagrees and an unbalanced transfer', async () => {
    const userId = await newPlayer();
    await deposit(userId, 100n);
    expect((await checkLedger(database.handle.db)).isSound).toBe(true);
    // Tampering as an attacker with table rights would: triggers off, rows changed.
    await database.handle.db.execute(sql`ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only`);
    await database.handle.db.execute(sql`ALTER TABLE ledger_postings DISABLE TRIGGER ledger_postings_append_only`);
    try {
      await database.handle.db.execute(sql`UPDATE audit_log SET reason = 'edited' WHERE stream = ${`player:${userId}`}`);
      await database.handle.db.execute(
        sql`UPDATE ledger_accounts SET balance_minor = balance_minor + 1 WHERE user_id = ${userId}`,
      );
      await database.handle.db.execute(
        sql`UPDATE ledger_postings SET amount_minor = amount_minor + 7 WHERE id = (SELECT max(id) FROM ledger_postings)`,
      );
      const report = await checkLedger(database.handle.db);
      expect(report.isSound).toBe(false);
      expect(report.auditProblems.some((problem) => problem.stream === `player:${userId}`)).toBe(true);
      expect(report.balanceMismatches.length).toBeGreaterThan(0);
      expect(report.unbalancedTransfers.length).toBe(1);
    } finally {
      await database.handle.db.execute(sql`UPDATE audit_log SET reason = 'test deposit' WHERE stream = ${`player:${userId}`}`);
      await database.handle.db.execute(
        sql`UPDATE ledger_accounts SET balance_minor = balance_minor - 1 WHERE user_id = ${userId}`,
      );
      await database.handle.db.execute(
        sql`UPDATE ledger_postings SET amount_minor = amount_minor - 7 WHERE id = (SELECT max(id) FROM ledger_postings)`,
      );
      await database.handle.db.execute(sql`ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only`);
      await database.handle.db.execute(sql`ALTER TABLE ledger_postings ENABLE TRIGGER ledger_postings_append_only`);
    }
    expect((await checkLedger(database.handle.db)).isSound).toBe(true);
  });

  it('§5 audit chain: a transfer entry is chained by the database as the verifier recomputes it, and an edit of its amount or of its hash version is found', async () => {
    const userId = await newPlayer();
    await deposit(userId, 100n);
    // An action recorded by the application (version 1) between two transfers: one chain, both versions.
    await wallet.recordAction({
      stream: `player:${userId}`,
      actor: 'operator:test',
      action: 'note',
      subject: `user:${userId}`,
      reason: 'test',
      payload: {},
    });
    await deposit(userId, 250n);
    const entries = await database.handle.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.stream, `player:${userId}`))
      .orderBy(auditLog.seq);
    expect(entries.map((entry) => [entry.seq, entry.hashVersion])).toEqual([
      [1, 2],
      [2, 1],
      [3, 2],
    ]);
    expect(entries[1]!.prevHash).toBe(entries[0]!.hash);
    expect(entries[2]!.prevHash).toBe(entries[1]!.hash);
    expect((await checkLedger(database.handle.db)).isSound).toBe(true);
    for (const entry of entries.filter((item) => item.hashVersion === 2))
      expect(entry.hash).toBe(chainedHash(entry.prevHash, entry.stream, entry.seq, entry.subject, contentHash(entry)));

    const edits = [
      sql`UPDATE audit_log SET payload = jsonb_set(payload, '{amountMinor}', '"99"') WHERE stream = ${`player:${userId}`} AND seq = 1`,
      sql`UPDATE audit_log SET hash_version = 1 WHERE stream = ${`player:${userId}`} AND seq = 3`,
    ];
    for (const edit of edits) {
      // Each edit in a transaction rolled back afterwards, triggers off as an attacker with table rights would.
      const report = await database.handle.db
        .transaction(async (tx) => {
          await tx.execute(sql`ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only`);
          await tx.execute(edit);
          throw new FoundReport(await checkLedger(tx));
        })
        .catch((error: unknown) => {
          if (error instanceof FoundReport) return error.report;
          throw error;
        });
      expect(report.isSound).toBe(false);
      expect(report.auditProblems.filter((problem) => problem.stream === `player:${userId}`).length).toBeGreaterThan(0);
    }
    expect((await checkLedger(database.handle.db)).isSound).toBe(true);
  });
});

/** Carries a report out of a transaction that must roll back. */
class FoundReport extends Error {
  constructor(readonly report: Awaited<ReturnType<typeof checkLedger>>) {
    super('rolled back on purpose');
  }
}
