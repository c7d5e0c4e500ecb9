import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '../../test/databases';
import { CONTENT_DIR, readSiteSeeds } from '../../test/fixtures';
import { openDatabase, type DatabaseHandle } from './client';
import { migrationsFolder, runMigrations, SCHEMA_LOCK_KEY } from './migrate';
import { seedContent } from '../modules/content';

/** What a process does before serving (server/boot.ts), without the rest of boot. */
async function migrateAndSeed(handle: DatabaseHandle): Promise<void> {
  await runMigrations(handle);
  await handle.withAdvisoryLock(SCHEMA_LOCK_KEY, (db) => seedContent(db));
}

function slugsIn(dir: string, collection: string): string[] {
  const folder = join(dir, collection);
  return existsSync(folder)
    ? readdirSync(folder)
        .filter((f) => f.endsWith('.json'))
        .map((f) => f.slice(0, -5))
    : [];
}
function collectionsIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** Rows the seed should leave: one per site, locale, collection and slug found in any layer of content/. */
function expectedEntryCount(): number {
  let count = 0;
  for (const site of readSiteSeeds()) {
    for (const locale of site.locales) {
      const layers = [
        join(CONTENT_DIR, 'shared', '_all'),
        join(CONTENT_DIR, 'shared', locale),
        join(CONTENT_DIR, 'sites', site.id, '_all'),
        join(CONTENT_DIR, 'sites', site.id, locale),
      ];
      const collections = new Set(layers.flatMap(collectionsIn));
      for (const collection of collections) count += new Set(layers.flatMap((layer) => slugsIn(layer, collection))).size;
    }
  }
  return count;
}

// Only PostgreSQL has several processes racing for one database: PGlite is embedded in one
// process, so there is nobody to race with and the advisory lock is a no-op there.
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'migrations and seed from two processes at once on PostgreSQL (architecture §1: N processes, one database)',
  () => {
    it.each([1, 2, 3])('succeed once and leave one set of rows (round %i)', async () => {
      const database = await createTestDatabase('postgres');
      const second = await openDatabase({ url: database.url, poolSize: 2 });
      try {
        await Promise.all([migrateAndSeed(database.handle), migrateAndSeed(second)]);
        const db = database.handle.db;
        const journal = JSON.parse(readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
          entries: unknown[];
        };
        const count = async (query: ReturnType<typeof sql>) =>
          ((await db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]?.n;
        expect(await count(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`)).toBe(journal.entries.length);
        expect(await count(sql`SELECT count(*)::int AS n FROM sites`)).toBe(readSiteSeeds().length);
        expect(await count(sql`SELECT count(*)::int AS n FROM content_entries`)).toBe(expectedEntryCount());
        // Running it again (a third process starting later) changes nothing.
        await migrateAndSeed(second);
        expect(await count(sql`SELECT count(*)::int AS n FROM content_entries`)).toBe(expectedEntryCount());
      } finally {
        await second.close();
        await database.drop();
      }
    });
  },
);
