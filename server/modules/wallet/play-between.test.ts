/**
 * The wallet's read of real-money play over a window (issue 13 cashback: "net loss from the
 * ledger: real-money stakes minus wins"): per player and currency, what play transfers took
 * from and paid into the main account between two moments, and nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { runMigrations } from '../../db/migrate';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { inTransaction } from '../../db/retry';
import { ledgerTransfers, sites, users } from '../../db/schema';
import { house, move, player, type AccountRef } from './postings';
import { createWalletService, type WalletService } from './service';

const SITE = 'play-test';
const OTHER_SITE = 'play-test-other';

describe.each(testDatabaseKinds())('real-money play between two moments on %s', (kind) => {
  let database: TestDatabase;
  let wallet: WalletService;
  let sequence = 0;

  async function newPlayer(siteId = SITE): Promise<number> {
    const [row] = await database.handle.db
      .insert(users)
      .values({ siteId, login: `play${sequence++}@example.com`, currency: 'EUR', locale: 'en' })
      .returning({ id: users.id });
    return row!.id;
  }

  function move$(siteId: string, userId: number, kindName: string, from: AccountRef, to: AccountRef, amountMinor: bigint) {
    return wallet.transfer({
      siteId,
      userId,
      kind: kindName,
      currency: 'EUR',
      amountMinor,
      legs: move(from, to, amountMinor),
      idempotencyKey: `play-${sequence++}`,
      actor: 'system',
      reason: 'test',
    });
  }

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await runMigrations(database.handle);
    for (const id of [SITE, OTHER_SITE])
      await database.handle.db
        .insert(sites)
        .values({ id, name: id, hosts: [`${id}.test`], defaultCurrency: 'EUR', currencies: ['EUR'], locales: ['en'] });
    wallet = createWalletService(database.handle.db);
  });
  afterAll(() => database.drop());

  it('sums play transfers on the main account only: bets, wins, rollbacks and cash free-spin wins; not deposits, bonus money or another site', async () => {
    const from = new Date(Date.now() - 60_000);
    const one = await newPlayer();
    const two = await newPlayer();
    const elsewhere = await newPlayer(OTHER_SITE);
    for (const userId of [one, two]) await move$(SITE, userId, 'deposit', house('psp_clearing'), player(userId, 'main'), 10_000n);
    await move$(OTHER_SITE, elsewhere, 'deposit', house('psp_clearing'), player(elsewhere, 'main'), 10_000n);

    await move$(SITE, one, 'game_bet', player(one, 'main'), house('game', one), 1_000n);
    await move$(SITE, one, 'game_win', house('game', one), player(one, 'main'), 300n);
    await move$(SITE, one, 'provider_bet', player(one, 'main'), house('game', one), 500n);
    await move$(SITE, one, 'provider_rollback', house('game', one), player(one, 'main'), 500n);
    await move$(SITE, one, 'freespin_win', house('game', one), player(one, 'main'), 50n);
    // Bonus money: granted, staked and lost; none of it is the player's own.
    await move$(SITE, one, 'bonus_grant', house('bonus_cost', one), player(one, 'bonus'), 2_000n);
    await move$(SITE, one, 'game_bet', player(one, 'bonus'), house('game', one), 2_000n);
    await move$(SITE, two, 'game_bet', player(two, 'main'), house('game', two), 700n);
    await move$(OTHER_SITE, elsewhere, 'game_bet', player(elsewhere, 'main'), house('game', elsewhere), 900n);

    const to = new Date(Date.now() + 60_000);
    const rows = await wallet.realMoneyPlayBetween(SITE, from, to);
    expect(rows).toEqual([
      { userId: one, currency: 'EUR', stakedMinor: 1_500n, returnedMinor: 850n },
      { userId: two, currency: 'EUR', stakedMinor: 700n, returnedMinor: 0n },
    ]);
  });

  it('counts a transfer by when it was made: before the window or at its end it is out', async () => {
    const userId = await newPlayer();
    await move$(SITE, userId, 'deposit', house('psp_clearing'), player(userId, 'main'), 10_000n);
    const bet = (amountMinor: bigint) =>
      move$(SITE, userId, 'game_bet', player(userId, 'main'), house('game', userId), amountMinor);
    // A moment strictly after a transfer's time (the ledger refuses edits, so time itself must pass).
    const momentAfter = async (transferId: number) => {
      const [row] = await database.handle.db
        .select({ createdAt: ledgerTransfers.createdAt })
        .from(ledgerTransfers)
        .where(eq(ledgerTransfers.id, transferId));
      const after = row!.createdAt.getTime() + 2;
      while (Date.now() < after) await new Promise((resolve) => setTimeout(resolve, 1));
      return new Date(after);
    };
    const early = await bet(100n);
    const from = await momentAfter(early.transferId);
    const inside = await bet(200n);
    const to = await momentAfter(inside.transferId);
    await bet(400n);
    const window = await wallet.realMoneyPlayBetween(SITE, from, to);
    expect(window.filter((row) => row.userId === userId)).toEqual([
      { userId, currency: 'EUR', stakedMinor: 200n, returnedMinor: 0n },
    ]);
    expect(await wallet.realMoneyPlayBetween(SITE, to, to)).toEqual([]);
  });

  it('stakes for loyalty (issue 3 "earns a point per whole wager"): with no settling time a bet made at the reader\'s own moment is read', async () => {
    // The embedded database's clock counts whole milliseconds, so a bet committed in the
    // millisecond the accrual's transaction starts carries that transaction's now(). One
    // transaction makes the two moments equal on both databases.
    const userId = await newPlayer();
    await move$(SITE, userId, 'deposit', house('psp_clearing'), player(userId, 'main'), 10_000n);
    const read = await inTransaction(database.handle.db, async (tx) => {
      const bet = await wallet.transfer(
        {
          siteId: SITE,
          userId,
          kind: 'game_bet',
          currency: 'EUR',
          amountMinor: 250n,
          legs: move(player(userId, 'main'), house('game', userId), 250n),
          idempotencyKey: `play-${sequence++}`,
          actor: 'system',
          reason: 'test',
        },
        tx,
      );
      const stakes = await wallet.stakesAfter(bet.transferId - 1, { limit: 10, settledBeforeMs: 0 }, tx);
      return { bet, stakes };
    });
    expect(read.stakes).toEqual([{ transferId: read.bet.transferId, siteId: SITE, userId, currency: 'EUR', stakedMinor: 250n }]);
  });
});
