/**
 * The one path by which every process learns that cached rows changed (issue 12): the database
 * triggers of migration 0016 NOTIFY 'cache_change' with the table's name on every change, and each
 * process drops its cached copy of that table's rows. A trigger that knows whose rows changed adds
 * them after a space (migration 0031: 'ledger_accounts 12,40', or '*' for everyone), and the
 * process drops only those. PostgreSQL delivers the notification to every process on commit;
 * PGlite to its own process.
 */
import type { DatabaseHandle } from './client';

export const CACHE_CHANGE_CHANNEL = 'cache_change';

/** What to drop for each table, told whose rows changed when the trigger says; anything else that reports a change is ignored. */
export type CacheInvalidators = Record<string, (changed?: string) => void>;

export async function invalidateCachesOnChange(database: DatabaseHandle, invalidators: CacheInvalidators): Promise<void> {
  const invalidateAll = () => Object.values(invalidators).forEach((invalidate) => invalidate());
  await database.listen(CACHE_CHANGE_CHANNEL, (payload) => invalidateWhatChanged(payload, invalidators), invalidateAll);
}

function invalidateWhatChanged(payload: string, invalidators: CacheInvalidators): void {
  const space = payload.indexOf(' ');
  if (space < 0) return invalidators[payload]?.();
  invalidators[payload.slice(0, space)]?.(payload.slice(space + 1));
}

/**
 * The players a change names ('12,40'), or undefined for everyone ('*', nothing, or anything that
 * is not a list of ids: a change not understood forgets more, never less).
 */
export function changedPlayersOf(changed: string | undefined): number[] | undefined {
  if (!changed || !/^\d+(,\d+)*$/.test(changed)) return undefined;
  return changed.split(',').map(Number);
}
