/**
 * Shared balance reads (issue 12; shared-balances.ts) on a real database: one statement answers
 * every player and currency asked together, as wallet.balances answers each, and a request never
 * gets a read older than its asking: a balance read right after a transfer committed (in this
 * process or another) shows it, while other requests' reads of the same balance are in flight.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { runMigrations } from '../../db/migrate';
import { sites, users } from '../../db/schema';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { house, move, player } from './postings';
import { createWalletService, type WalletService } from './service';
import { createSharedBalances } from './shared-balances';

const SITE = 'shared-balances-test';
const OTHER_SITE = 'shared-balances-other';

describe.each(testDatabaseKinds())('shared balance reads on %s', (kind) => {
  let database: TestDatabase;
  let wallet: WalletService;
  let nextLogin = 0;

  async function newPlayer(currency = 'EUR'): Promise<number> {
    const [row] = await database.handle.db
      .insert(users)
      .values({ siteId: SITE, login: `s${nextLogin++}@example.com`, currency, locale: 'en' })
      .returning({ id: users.id });
    return row!.id;
  }

  const credit = (
    service: WalletService,
    userId: number,
    amountMinor: bigint,
    type: 'main' | 'bonus' = 'main',
    currency = 'EUR',
  ) =>
    service.transfer({
      siteId: SITE,
      userId,
      kind: type === 'main' ? 'deposit' : 'bonus',
      currency,
      amountMinor,
      legs: move(house(type === 'main' ? 'psp_clearing' : 'bonus_cost'), player(userId, type), amountMinor),
      actor: 'psp:test',
      reason: 'shared balances test',
    });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await runMigrations(database.handle);
    await database.handle.db.insert(sites).values({
      id: SITE,
      name: 'Shared balances test',
      hosts: ['shared-balances.test'],
      defaultCurrency: 'EUR',
      currencies: ['EUR', 'USD'],
      locales: ['en'],
    });
    await database.handle.db.insert(sites).values({
      id: OTHER_SITE,
      name: 'Shared balances, another site',
      hosts: ['shared-balances-other.test'],
      defaultCurrency: 'EUR',
      currencies: ['EUR'],
      locales: ['en'],
    });
    wallet = createWalletService(database.handle.db);
  });
  afterAll(() => database.drop());

  it('balancesOfPlayers answers each player and currency as wallet.balances does, zeros for accounts not opened', async () => {
    const [rich, twoCurrencies, none] = [await newPlayer(), await newPlayer(), await newPlayer()];
    await credit(wallet, rich, 1_234n);
    await credit(wallet, rich, 55n, 'bonus');
    await credit(wallet, twoCurrencies, 700n, 'main', 'USD');
    await credit(wallet, twoCurrencies, 300n);
    const asked = [
      { userId: rich, currency: 'EUR' },
      { userId: twoCurrencies, currency: 'USD' },
      { userId: twoCurrencies, currency: 'EUR' },
      { userId: none, currency: 'EUR' },
    ];
    const together = await wallet.balancesOfPlayers(SITE, asked);
    const each = await Promise.all(asked.map(({ userId, currency }) => wallet.balances(SITE, userId, currency)));
    expect(together).toEqual(each);
    expect(together.map((balances) => balances.main)).toEqual([1_234n, 700n, 300n, 0n]);
  });

  it('requests asked together are answered from shared reads, each with its own player and its own copy', async () => {
    const players = [await newPlayer(), await newPlayer(), await newPlayer()];
    await Promise.all(players.map((userId, index) => credit(wallet, userId, BigInt(100 * (index + 1)))));
    let statements = 0;
    const counted: Pick<WalletService, 'balancesOfPlayers'> = {
      balancesOfPlayers: (siteId, asked) => {
        statements++;
        return wallet.balancesOfPlayers(siteId, asked);
      },
    };
    const shared = createSharedBalances(counted, { lanes: 1 });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => shared(SITE, players[index % 3]!, 'EUR')));
    // The same player asked on another site, in the same read: that site's accounts, none opened there.
    const [, here, elsewhere] = await Promise.all([
      shared(SITE, players[1]!, 'EUR'),
      shared(SITE, players[0]!, 'EUR'),
      shared(OTHER_SITE, players[0]!, 'EUR'),
    ]);
    expect([here.main, elsewhere.main]).toEqual([100n, 0n]);
    expect(answers.map((balances) => balances.main)).toEqual(
      Array.from({ length: 30 }, (_, index) => BigInt(100 * ((index % 3) + 1))),
    );
    // The first request reads alone; the 29 that asked while it was in flight share one more read;
    // then one alone again, and the two that asked meanwhile in one read of two sites: a statement for each.
    expect(statements).toBe(5);
    answers[0]!.main = -1n;
    expect(answers[3]!.main).toBe(100n);
  });

  it('a read that took its snapshot before a transfer committed answers only those who asked before it; a request after the commit gets a read of its own that shows the transfer', async () => {
    const userId = await newPlayer();
    await credit(wallet, userId, 10n);
    let releaseFirst = () => {};
    const firstAnswered = new Promise<void>((resolve) => (releaseFirst = resolve));
    let reads = 0;
    let isFirstRead = false;
    // The first read runs its statement at once, then its answer is held (a slow network).
    const slowFirst: Pick<WalletService, 'balancesOfPlayers'> = {
      balancesOfPlayers: async (siteId, asked) => {
        const isFirst = reads++ === 0;
        const balances = await wallet.balancesOfPlayers(siteId, asked);
        if (isFirst) {
          isFirstRead = true;
          await firstAnswered;
        }
        return balances;
      },
    };
    const shared = createSharedBalances(slowFirst, { lanes: 2 });
    const before = shared(SITE, userId, 'EUR');
    // The transfer commits once the first read's statement has run (its snapshot taken): on a
    // loaded machine a statement only sent may run after the commit, and see it.
    while (!isFirstRead) await new Promise((resolve) => setImmediate(resolve));
    await credit(wallet, userId, 5n);
    const after = shared(SITE, userId, 'EUR');
    // Joined to the held read, it would wait for it (and show 10): give it a bounded time instead.
    const answer = await Promise.race([
      after.then((balances) => balances.main),
      new Promise((resolve) => setTimeout(() => resolve('still waiting for the read that started before it asked'), 5_000)),
    ]);
    expect(answer).toBe(15n);
    releaseFirst();
    expect((await before).main).toBe(10n);
  });

  it('§5 a balance read right after a transfer committed shows it, while other reads of it are in flight (here and from another process on PostgreSQL)', async () => {
    const other = kind === 'postgres' ? await openDatabase({ url: database.url!, poolSize: 3 }) : undefined;
    try {
      const otherProcess = createWalletService(other?.db ?? database.handle.db);
      const userId = await newPlayer();
      const shared = createSharedBalances(wallet, { lanes: 2 });
      let isRunning = true;
      // Other requests of the player's, keeping reads of the balance in flight the whole time.
      const storm = (async () => {
        while (isRunning) await Promise.all(Array.from({ length: 4 }, () => shared(SITE, userId, 'EUR')));
      })();
      try {
        let expected = 0n;
        for (let step = 1; step <= 25; step++) {
          await credit(step % 2 === 0 ? otherProcess : wallet, userId, BigInt(step));
          expected += BigInt(step);
          const seen = await Promise.all([shared(SITE, userId, 'EUR'), shared(SITE, userId, 'EUR')]);
          expect(seen.map((balances) => balances.main)).toEqual([expected, expected]);
        }
      } finally {
        // Also when an expectation failed: a storm left running would hold the file until its timeout.
        isRunning = false;
        await storm;
      }
    } finally {
      await other?.close();
    }
  });
});
