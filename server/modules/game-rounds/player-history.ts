/**
 * A player's real-money rounds for their game history and its export (issue 5; spec §7
 * games.getHistory, createhistoryexportrequest): the round module answers the query, so no other
 * module reads its tables. Newest first; paged by offset for the list and by id (keyset) for the
 * export, which may read many thousands of rows.
 */
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/retry';
import { gameRounds } from './tables';

export interface PlayerRoundsFilter {
  siteId: string;
  userId: number;
  /** Only this game. */
  sysname?: string;
  /** Rounds played at or after this moment. */
  dateFrom?: Date;
  /** Rounds played before this moment. */
  dateTo?: Date;
}

export type PlayerRoundRow = typeof gameRounds.$inferSelect;

function conditions(filter: PlayerRoundsFilter): SQL[] {
  const where: SQL[] = [
    eq(gameRounds.siteId, filter.siteId),
    eq(gameRounds.ownerKey, `user:${filter.userId}`),
    eq(gameRounds.mode, 'real'),
  ];
  if (filter.sysname) where.push(eq(gameRounds.sysname, filter.sysname));
  if (filter.dateFrom) where.push(gte(gameRounds.createdAt, filter.dateFrom));
  if (filter.dateTo) where.push(lt(gameRounds.createdAt, filter.dateTo));
  return where;
}

/** One page of the player's real rounds, newest first, and how many match in all. */
export async function listPlayerRounds(
  executor: Executor,
  filter: PlayerRoundsFilter,
  offset: number,
  count: number,
): Promise<{ rows: PlayerRoundRow[]; total: number }> {
  const where = and(...conditions(filter));
  const rows = await executor.select().from(gameRounds).where(where).orderBy(desc(gameRounds.id)).offset(offset).limit(count);
  const [total] = await executor
    .select({ n: sql<number>`count(*)::int` })
    .from(gameRounds)
    .where(where);
  return { rows, total: total?.n ?? 0 };
}

/** The rounds below an id (all when undefined), newest first: the export walks them batch by batch. */
export async function listPlayerRoundsBefore(
  executor: Executor,
  filter: PlayerRoundsFilter,
  beforeId: number | undefined,
  count: number,
): Promise<PlayerRoundRow[]> {
  const where = conditions(filter);
  if (beforeId !== undefined) where.push(lt(gameRounds.id, beforeId));
  return executor
    .select()
    .from(gameRounds)
    .where(and(...where))
    .orderBy(desc(gameRounds.id))
    .limit(count);
}
