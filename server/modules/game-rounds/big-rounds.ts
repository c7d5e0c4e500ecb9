/**
 * The site's latest big wins as the rounds table holds them (issue 15: games.getWinners, asked
 * by game history): settled real-money rounds that paid at least BIG_WIN_MULTIPLIER stakes, newest
 * first, read from the partial index game_rounds_big_wins (its condition is the query's). The
 * round module answers the query, so no other module reads its tables.
 */
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { Executor } from '../../db/retry';
import { bigWinCondition } from '../../db/big-win';
import { gameRounds } from './tables';

export interface BigRoundRow {
  id: number;
  userId: number;
  sysname: string;
  currency: string;
  stakeMinor: bigint;
  payoutMinor: bigint;
  settledAt: Date | null;
}

export async function recentBigRounds(db: Executor, query: { siteId: string; limit: number }): Promise<BigRoundRow[]> {
  const rows = await bigRoundsQuery(db, query);
  return rows.map((row) => ({ ...row, userId: row.userId! }));
}

/** The query itself (its plan is checked against the index in big-wins.test.ts). */
export function bigRoundsQuery(db: Executor, query: { siteId: string; limit: number }) {
  return db
    .select({
      id: gameRounds.id,
      userId: gameRounds.userId,
      sysname: gameRounds.sysname,
      currency: gameRounds.currency,
      stakeMinor: gameRounds.stakeMinor,
      payoutMinor: gameRounds.payoutMinor,
      settledAt: gameRounds.settledAt,
    })
    .from(gameRounds)
    .where(
      and(
        eq(gameRounds.siteId, query.siteId),
        eq(gameRounds.mode, 'real'),
        eq(gameRounds.status, 'settled'),
        isNotNull(gameRounds.userId),
        bigWinCondition(gameRounds.stakeMinor, gameRounds.payoutMinor),
      ),
    )
    .orderBy(desc(gameRounds.settledAt), desc(gameRounds.id))
    .limit(query.limit);
}
