/**
 * A player's real-money rounds for their game history and its export (issue 5; spec §7
 * games.getHistory, createhistoryexportrequest): the round module answers the query, so no other
 * module reads its tables. The query has the shape every history source shares (issue 15: the
 * live tables' bets are merged with these rounds), so game history can page their union.
 */
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { GameHistoryKind } from '#common/contract';
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

/** The columns a history source is filtered on. */
export interface HistoryColumns {
  siteId: AnyPgColumn;
  ownerKey: AnyPgColumn;
  mode: AnyPgColumn;
  sysname: AnyPgColumn;
  createdAt: AnyPgColumn;
}

/** A filter's conditions on a history source: its site, the player, real money, the game and the creation time. */
export function historyConditions(columns: HistoryColumns, filter: PlayerRoundsFilter): SQL[] {
  const where: SQL[] = [
    eq(columns.siteId, filter.siteId),
    eq(columns.ownerKey, `user:${filter.userId}`),
    eq(columns.mode, 'real'),
  ];
  if (filter.sysname) where.push(eq(columns.sysname, filter.sysname));
  if (filter.dateFrom) where.push(gte(columns.createdAt, filter.dateFrom));
  if (filter.dateTo) where.push(lt(columns.createdAt, filter.dateTo));
  return where;
}

/** The literal naming a source in the union (text, so both branches agree on the column's type). */
export const historyKind = (kind: GameHistoryKind) => sql<GameHistoryKind>`${kind}::text`.as('kind');

/** A source's status as text: each source has its own statuses (a round is open or settled, a live bet open, won or lost). */
export const historyStatus = (column: AnyPgColumn) => sql<string>`${column}`.as('status');

/**
 * The player's real rounds as history rows (not yet ordered or paged), below an id when given:
 * the page unions it with the live bets, the export walks it by id.
 */
export function playerRoundsHistory(executor: Executor, filter: PlayerRoundsFilter, beforeId?: number) {
  const where = historyConditions(gameRounds, filter);
  if (beforeId !== undefined) where.push(lt(gameRounds.id, beforeId));
  return executor
    .select({
      kind: historyKind('round'),
      id: gameRounds.id,
      roundId: sql<number>`${gameRounds.id}`.mapWith(Number).as('round_id'),
      sysname: gameRounds.sysname,
      engine: gameRounds.engine,
      status: historyStatus(gameRounds.status),
      currency: gameRounds.currency,
      stakeMinor: gameRounds.stakeMinor,
      payoutMinor: gameRounds.payoutMinor,
      serverSeedHash: gameRounds.serverSeedHash,
      clientSeed: gameRounds.clientSeed,
      nonce: gameRounds.nonce,
      createdAt: gameRounds.createdAt,
      settledAt: gameRounds.settledAt,
    })
    .from(gameRounds)
    .where(and(...where))
    .$dynamic();
}

/** One history row, whichever source it came from. */
export type PlayerHistoryRow = Awaited<ReturnType<typeof playerRoundsHistory>>[number];
