/**
 * provider_money reads its rows by key however the tables have grown since a connection planned it
 * (issue 12; migration 0029). The function's plans are generic and made once per connection, so a
 * plan made while provider_transactions was young stays while it grows: it joined the whole table
 * by hash (a sequential scan per call), and with sequential scans priced out it took the round
 * index on the provider alone (every row of the provider per call). Here a connection plans the
 * function on empty provider tables, the tables then get thousands of rows, and the next shared
 * bet and win must still touch a handful of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createSeededTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { fundedUser } from '../../../test/host-player';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { createServices } from '../../services';

const GAME = 'fox-fortune';
const PROVIDER = 'demo-aggregator';
const FILLER_ROWS = 3_000;
const PROVIDER_TABLES = ['provider_transactions', 'provider_rounds', 'provider_sessions'];

interface TableCounters {
  table: string;
  seqScans: number;
  rowsFetchedByIndex: number;
}

describe.each(testDatabaseKinds())('provider money on grown tables on %s (issue 12)', (kind) => {
  let database: TestDatabase;
  // One connection, so the plans measured are the ones the first call made.
  let handle: DatabaseHandle;
  // The test's services: their balance-change teller closes before the database does.
  let opened: ReturnType<typeof createServices> | undefined;

  beforeAll(async () => {
    database = await createSeededTestDatabase(kind);
    handle = database.url ? await openDatabase({ url: database.url, poolSize: 1 }) : database.handle;
  });
  afterAll(async () => {
    await opened?.balanceChanges?.close();
    if (handle !== database.handle) await handle.close();
    await database.drop();
  });

  /** The cumulative counters of the provider tables, this connection's pending ones flushed first. */
  async function counters(): Promise<TableCounters[]> {
    await handle.db.execute(sql`SELECT pg_stat_force_next_flush()`);
    const answer = (await handle.db.execute(sql`
      SELECT relname, seq_scan, idx_tup_fetch FROM pg_stat_user_tables
      WHERE relname IN (${sql.join(
        PROVIDER_TABLES.map((table) => sql`${table}`),
        sql`, `,
      )}) ORDER BY relname`)) as unknown as {
      rows: Array<{ relname: string; seq_scan: number | string; idx_tup_fetch: number | string | null }>;
    };
    return answer.rows.map((row) => ({
      table: row.relname,
      seqScans: Number(row.seq_scan),
      rowsFetchedByIndex: Number(row.idx_tup_fetch ?? 0),
    }));
  }

  it('§5 a shared bet and win read their transactions, rounds and session by key after the tables grew under a plan made when they were empty', async () => {
    const services = createServices(handle.db);
    opened = services;
    const site = await services.sites.resolveSite('127.0.0.1');
    const currency = site.defaultCurrency;
    const user = await fundedUser(
      { services },
      { siteId: site.id, currency, amountMinor: 100_000n, tag: `grown-tables-${kind}` },
    );
    const session = await services.providerWallet.openProviderSession(site.id, user.id, GAME, currency);
    const playRound = async (round: string) => {
      const common = { token: session.token, player_id: user.id, round_id: round, currency };
      const bet = await services.providerWallet.bet(PROVIDER, site.id, {
        ...common,
        transaction_id: `${round}-bet`,
        amount: 100n,
      });
      const win = await services.providerWallet.win(PROVIDER, site.id, {
        ...common,
        transaction_id: `${round}-win`,
        amount: 50n,
      });
      return [bet, win];
    };

    // The first call plans the function on this connection while the provider tables are empty.
    const callsBefore = services.providerWallet.sharedMoneyStats()!.calls;
    await playRound('young-round');
    expect(services.providerWallet.sharedMoneyStats()!.calls - callsBefore).toBe(2);

    await handle.db.execute(sql`
      INSERT INTO provider_rounds (provider, round_id, site_id, user_id, session_id, currency, stake_minor)
      SELECT ${PROVIDER}, 'filler-round-' || g, ${site.id}, ${user.id}, ${session.sessionId}, ${currency}, 1
      FROM generate_series(1, ${FILLER_ROWS}) AS g`);
    await handle.db.execute(sql`
      INSERT INTO provider_transactions (provider, tx_id, kind, status, site_id, user_id, session_id, round_id, currency,
        amount_minor, request_hash)
      SELECT ${PROVIDER}, 'filler-' || g, 'bet', 'applied', ${site.id}, ${user.id}, ${session.sessionId}, 'filler-round-' || g,
        ${currency}, 1, 'filler'
      FROM generate_series(1, ${FILLER_ROWS}) AS g`);

    const before = await counters();
    const answers = await playRound('grown-round');
    const after = await counters();
    expect(answers.map((answer) => answer.status)).toEqual(['OK', 'OK']);
    expect(services.providerWallet.sharedMoneyStats()!.calls - callsBefore).toBe(4);
    const spent = after.map((row) => {
      const earlier = before.find((candidate) => candidate.table === row.table);
      return {
        table: row.table,
        seqScans: row.seqScans - (earlier?.seqScans ?? 0),
        // A whole provider's rows through the round index would be thousands.
        readsFewRows: row.rowsFetchedByIndex - (earlier?.rowsFetchedByIndex ?? 0) < 50,
      };
    });
    expect(spent).toEqual(PROVIDER_TABLES.toSorted().map((table) => ({ table, seqScans: 0, readsFewRows: true })));
  });
});
