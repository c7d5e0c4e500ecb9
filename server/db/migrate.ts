import { join } from 'node:path';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { DatabaseHandle } from './client';
import { projectRoot } from '../project-root';

/** Arbitrary constant naming the lock that serialises migrations and seeding across processes. */
export const SCHEMA_LOCK_KEY = 72_410_001;

export function migrationsFolder(): string {
  return join(projectRoot(), 'server', 'db', 'migrations');
}

/** Applies the committed SQL migrations; safe to call from several processes at once. */
export async function runMigrations(handle: DatabaseHandle): Promise<void> {
  await handle.withAdvisoryLock(SCHEMA_LOCK_KEY, async (db) => {
    const config = { migrationsFolder: migrationsFolder() };
    if (handle.kind === 'pglite') await migratePglite(db as unknown as PgliteDatabase, config);
    else await migratePg(db as unknown as NodePgDatabase, config);
  });
}
