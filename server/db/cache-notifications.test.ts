/**
 * Issue 12: "Caches are invalidated across processes so an operator's edit shows at once
 * everywhere." An edit made straight in the database (as an operator's SQL or a back-office tool
 * would, without calling any service) reaches the cached site list and the cached translations
 * through the change notification, long before the caches' 30 s safety-net age. A player's
 * balances moved by anyone are named to every process the same way (migration 0031).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { eventually } from '../../test/eventually';
import { testDatabaseKinds } from '../../test/databases';
import { editTranslationInDatabase } from '../../test/content-edits';
import { sites } from './schema';
import { CACHE_CHANGE_CHANNEL, changedPlayersOf } from './cache-notifications';
import { createBalanceChangeTeller } from '../modules/wallet';

describe.each(testDatabaseKinds())('cache invalidation by change notification on %s (issue 12)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows a site renamed in the database on the next reads, with nobody calling invalidate()', async () => {
    const site = await t.services.sites.resolveSite('127.0.0.1');
    // Read twice so the list is cached.
    expect((await t.services.sites.resolveSite('127.0.0.1')).name).toBe(site.name);
    const renamed = `${site.name} renamed ${Date.now()}`;
    await t.db.update(sites).set({ name: renamed }).where(eq(sites.id, site.id));
    const seen = await eventually(
      () => t.services.sites.resolveSite('127.0.0.1'),
      (value) => value.name === renamed,
    );
    expect(seen.name).toBe(renamed);
  });

  it('shows a translation edited in the database on the next reads, with nobody calling invalidate()', async () => {
    const site = await t.services.sites.resolveSite('127.0.0.1');
    const before = await t.services.content.getTranslations(site.id, 'en');
    const key = Object.keys(before)[0];
    if (!key) throw new Error('the seed has no English translations');
    const edited = `edited ${Date.now()}`;
    await editTranslationInDatabase(t.db, { siteId: site.id, locale: 'en', key, text: edited });
    const seen = await eventually(
      () => t.services.content.getTranslations(site.id, 'en'),
      (table) => table[key] === edited,
    );
    expect(seen[key]).toBe(edited);
  });

  /** Runs `change`, then waits for a marker sent after it: answers what this process heard in between. */
  async function heardDuring(change: () => Promise<unknown>): Promise<string[]> {
    const heard: string[] = [];
    const unlisten = await t.database.handle.listen(CACHE_CHANGE_CHANNEL, (payload) => heard.push(payload));
    try {
      await change();
      const marker = `marker ${Date.now()}`;
      await t.db.execute(sql`SELECT pg_notify(${CACHE_CHANGE_CHANNEL}, ${marker})`);
      await eventually(async () => heard.includes(marker), Boolean);
      return heard.slice(0, heard.indexOf(marker)).filter((payload) => payload.startsWith('ledger_accounts'));
    } finally {
      await unlisten();
    }
  }

  /** Player accounts with no postings, of user ids no test player has. */
  async function playerAccounts(firstUserId: number, count: number): Promise<number[]> {
    const site = await t.services.sites.resolveSite('127.0.0.1');
    await t.db.execute(sql`
      INSERT INTO ledger_accounts (site_id, owner_kind, user_id, type, currency)
      SELECT ${site.id}, 'player', ${firstUserId}::bigint + g, 'main', 'EUR' FROM generate_series(0, ${count - 1}) AS g`);
    return Array.from({ length: count }, (_, index) => firstUserId + index);
  }

  it('names the players whose accounts a statement updated, not the house, and nobody for a statement that updates none (migration 0031)', async () => {
    const [first, second] = await playerAccounts(900_000_001, 2);
    const heard = await heardDuring(async () => {
      await t.db.execute(
        sql`UPDATE ledger_accounts SET balance_minor = balance_minor WHERE user_id IN (${first}, ${second}) OR owner_kind <> 'player'`,
      );
      await t.db.execute(sql`UPDATE ledger_accounts SET balance_minor = balance_minor + 1 WHERE user_id = -1`);
    });
    expect(heard).toEqual([`ledger_accounts ${first},${second}`]);
    expect(changedPlayersOf(heard[0]?.split(' ')[1])).toEqual([first, second]);
  });

  it('names everyone when the players would not fit in a notification, or accounts are deleted (migration 0031)', async () => {
    const players = await playerAccounts(9_100_000_000, 800);
    const heard = await heardDuring(async () => {
      await t.db.execute(sql`UPDATE ledger_accounts SET balance_minor = balance_minor WHERE user_id >= ${players[0]}`);
      await t.db.execute(sql`DELETE FROM ledger_accounts WHERE user_id >= ${players[0]}`);
    });
    expect(heard).toEqual(['ledger_accounts *', 'ledger_accounts *']);
    expect(changedPlayersOf('*')).toBeUndefined();
  });

  it('leaves the shared rounds and the provider money to their caller, who tells every process after the commit, the players written meanwhile together (migration 0031)', async () => {
    const settings = (
      (await t.db.execute(
        sql`SELECT proname, array_to_string(proconfig, ',') AS config FROM pg_proc WHERE proname IN ('play_rounds', 'provider_money')`,
      )) as unknown as { rows: { proname: string; config: string | null }[] }
    ).rows;
    expect(settings.map((row) => row.proname).sort()).toEqual(['play_rounds', 'provider_money']);
    for (const row of settings) expect(row.config?.split(',')).toContain('casino.balance_changes_told_by=caller');
    const teller = createBalanceChangeTeller(t.database.handle.notify);
    const heard = await heardDuring(async () => {
      teller.tell([900_000_101, 900_000_102]);
      teller.tell([900_000_103]);
      await teller.sent();
    });
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.flatMap((payload) => changedPlayersOf(payload.split(' ')[1]) ?? []).sort()).toEqual([
      900_000_101, 900_000_102, 900_000_103,
    ]);
  });

  it('a teller closed before its database (shutdown, a test’s end) sends what is pending once more, then nothing: a failure is not tried again every second for as long as the process lives', async () => {
    const closing = createBalanceChangeTeller(t.database.handle.notify);
    const heard = await heardDuring(async () => {
      closing.tell([900_000_201]);
      await closing.close();
    });
    expect(heard.flatMap((payload) => changedPlayersOf(payload.split(' ')[1]) ?? [])).toContain(900_000_201);

    // A database that is gone: each try fails; a closed teller makes one last one and stops.
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      let tries = 0;
      const failing = createBalanceChangeTeller(async () => {
        tries += 1;
        throw new Error('the database is closed');
      });
      failing.tell([900_000_202]);
      await failing.sent();
      expect(tries).toBe(1);
      await failing.close();
      expect(tries).toBe(2);
      failing.tell([900_000_203]);
      // Past the retry interval (1 s): nothing more was tried.
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      expect(tries).toBe(2);
      expect(warnings).toHaveBeenCalledTimes(2);
    } finally {
      warnings.mockRestore();
    }
  });
});
