/**
 * Issue 12, idle memory: the production entry prepares the embedded database in a process of its
 * own (boot.ts prepareInChildProcess, prepare-database.ts), then boots on the folder without
 * migrating or seeding again. The folder it leaves is migrated and seeded; a preparation that
 * fails stops the start with its cause.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { readSiteSeeds } from '../test/fixtures';
import { boot, prepareInChildProcess } from './boot';
import { migrationsFolder } from './db/migrate';

const ENTRY = fileURLToPath(new URL('./prepare-database.ts', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'prepare-database-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the embedded database prepared in a process of its own (issue 12, idle memory)', () => {
  it('leaves a fresh folder migrated and seeded, and the site boots on it without preparing it again', async () => {
    const dataDir = join(folder, 'db');
    await prepareInChildProcess(ENTRY, dataDir, ['--import', 'tsx']);

    const { database } = await boot({ dataDir, isPrepared: true, logLevel: 'silent' });
    try {
      const count = async (query: ReturnType<typeof sql>) =>
        ((await database.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]?.n;
      const journal = JSON.parse(readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
        entries: unknown[];
      };
      expect(await count(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`)).toBe(journal.entries.length);
      expect(await count(sql`SELECT count(*)::int AS n FROM sites`)).toBe(readSiteSeeds().length);
      expect(await count(sql`SELECT count(*)::int AS n FROM content_entries`)).toBeGreaterThan(0);
      // Its one process forgets the balances it writes itself: no notification is paid for per bet (migration 0031).
      expect(
        await count(
          sql`SELECT count(*)::int AS n FROM pg_trigger WHERE tgname = 'ledger_accounts_balance_change' AND tgenabled = 'D'`,
        ),
      ).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('rejects with the cause when the preparation fails (a data folder that cannot be made)', async () => {
    const blocker = join(folder, 'a-file');
    writeFileSync(blocker, 'not a folder');
    await expect(prepareInChildProcess(ENTRY, join(blocker, 'db'), ['--import', 'tsx'])).rejects.toThrow(
      'preparing the database failed (exit code 1)',
    );
  });
});
