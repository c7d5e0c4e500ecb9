/**
 * The site's latest big wins at external providers (issue 15: games.getWinners lists aggregator
 * rounds as it lists in-house ones; asked by game history): ended rounds whose applied wins are
 * at least BIG_WIN_MULTIPLIER times their applied bets, newest first, with the game the session
 * was launched for. Read from the partial index provider_rounds_big_wins (its condition is the
 * query's); the stake and payout are the round's own columns, kept by each bet, win and rollback.
 */
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/retry';
import { bigWinCondition } from '../../db/big-win';
import { providerRounds, providerSessions } from './tables';

export function bigProviderRoundsQuery(db: Executor, query: { siteId: string; limit: number }) {
  return db
    .select({
      id: providerRounds.id,
      userId: providerRounds.userId,
      sysname: providerSessions.sysname,
      currency: providerRounds.currency,
      stakeMinor: providerRounds.stakeMinor,
      payoutMinor: providerRounds.payoutMinor,
      settledAt: providerRounds.endedAt,
    })
    .from(providerRounds)
    .innerJoin(providerSessions, eq(providerSessions.id, providerRounds.sessionId))
    .where(
      and(
        eq(providerRounds.siteId, query.siteId),
        isNotNull(providerRounds.endedAt),
        sql`${providerRounds.stakeMinor} > 0`,
        bigWinCondition(providerRounds.stakeMinor, providerRounds.payoutMinor),
      ),
    )
    .orderBy(desc(providerRounds.endedAt), desc(providerRounds.id))
    .limit(query.limit);
}
