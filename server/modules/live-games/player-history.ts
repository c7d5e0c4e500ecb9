/**
 * A player's real-money bets at the live tables as game history rows (issue 15: crash and live
 * roulette bets were missing from /profile/bets and the export). The same shape as the in-house
 * rounds' history (game-rounds), so game history can merge the two sources.
 */
import { and, eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/retry';
import { historyConditions, historyKind, historyStatus, type PlayerRoundsFilter } from '../game-rounds';
import { liveBets, liveRounds } from './tables';

/** The player's real live bets with their rounds (not yet ordered or paged), below a bet id when given. */
export function playerLiveBetsHistory(executor: Executor, filter: PlayerRoundsFilter, beforeId?: number) {
  const where = historyConditions(
    {
      siteId: liveBets.siteId,
      ownerKey: liveBets.ownerKey,
      mode: liveBets.mode,
      sysname: liveRounds.sysname,
      createdAt: liveBets.createdAt,
    },
    filter,
  );
  if (beforeId !== undefined) where.push(lt(liveBets.id, beforeId));
  return executor
    .select({
      kind: historyKind('live'),
      id: liveBets.id,
      roundId: liveBets.roundId,
      sysname: liveRounds.sysname,
      engine: liveRounds.engine,
      status: historyStatus(liveBets.status),
      currency: liveBets.currency,
      stakeMinor: liveBets.stakeMinor,
      payoutMinor: liveBets.payoutMinor,
      serverSeedHash: liveRounds.serverSeedHash,
      clientSeed: liveRounds.clientSeed,
      // A live round's fair stream is the table's, numbered by round.
      nonce: liveRounds.roundNo,
      createdAt: liveBets.createdAt,
      settledAt: liveBets.settledAt,
    })
    .from(liveBets)
    .innerJoin(liveRounds, eq(liveRounds.id, liveBets.roundId))
    .where(and(...where))
    .$dynamic();
}
