/**
 * The one path by which every process learns that cached rows changed (issue 12): the database
 * triggers of migration 0016 NOTIFY 'cache_change' with the table's name on every change, and each
 * process drops its cached copy of that table's rows. PostgreSQL delivers the notification to every
 * process on commit; PGlite to its own process.
 */
import type { DatabaseHandle } from './client';

export const CACHE_CHANGE_CHANNEL = 'cache_change';

/** What to drop for each table; anything else that reports a change is ignored. */
export type CacheInvalidators = Record<string, () => void>;

export async function invalidateCachesOnChange(database: DatabaseHandle, invalidators: CacheInvalidators): Promise<void> {
  const invalidateAll = () => Object.values(invalidators).forEach((invalidate) => invalidate());
  await database.listen(CACHE_CHANGE_CHANNEL, (table) => invalidators[table]?.(), invalidateAll);
}
