/**
 * The site's latest big wins as the rounds table holds them (issue 15: games.getWinners, asked
 * by game history): settled real-money rounds that paid at least `minMultiplier` stakes, newest
 * first. The round module answers the query, so no other module reads its tables.
 */
import { and, desc, eq, gte, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/retry';
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

export async function recentBigRounds(
  db: Executor,
  query: { siteId: string; minMultiplier: number; limit: number },
): Promise<BigRoundRow[]> {
  const rows = await db
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
        gte(gameRounds.payoutMinor, sql`${gameRounds.stakeMinor} * ${query.minMultiplier}`),
      ),
    )
    .orderBy(desc(gameRounds.settledAt), desc(gameRounds.id))
    .limit(query.limit);
  return rows.map((row) => ({ ...row, userId: row.userId! }));
}
