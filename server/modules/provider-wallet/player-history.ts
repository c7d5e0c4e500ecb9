/**
 * A player's rounds at external providers as game-history rows (issue 15: aggregator rounds appear
 * in /profile/bets and its export like in-house rounds). The row shape is the one every history
 * source shares (game-rounds/player-history.ts), so game history pages the union of the sources.
 * A provider round's stake is its applied bets, its payout its wins; a round whose every bet was
 * rolled back shows `rolled_back`, one the provider has not ended `open`, the others `settled`.
 * External games have no provably fair seeds: those columns are empty.
 */
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/retry';
import { historyKind, type PlayerRoundsFilter } from '../game-rounds';
import { providerRounds, providerSessions, providerTransactions } from './tables';

/** Sum of a round's transactions of one kind and status, as bigint (sum of bigint is numeric). */
function roundSum(kind: 'bet' | 'win', status: 'applied' | 'rolled_back') {
  return sql`coalesce((select sum(${providerTransactions.amountMinor}) from ${providerTransactions}
    where ${providerTransactions.provider} = ${providerRounds.provider} and ${providerTransactions.roundId} = ${providerRounds.roundId}
      and ${providerTransactions.kind} = ${kind} and ${providerTransactions.status} = ${status}), 0)::bigint`;
}

export function playerProviderRoundsHistory(executor: Executor, filter: PlayerRoundsFilter, beforeId?: number) {
  const where: SQL[] = [eq(providerRounds.siteId, filter.siteId), eq(providerRounds.userId, filter.userId)];
  if (filter.sysname) where.push(eq(providerSessions.sysname, filter.sysname));
  if (filter.dateFrom) where.push(gte(providerRounds.createdAt, filter.dateFrom));
  if (filter.dateTo) where.push(lt(providerRounds.createdAt, filter.dateTo));
  if (beforeId !== undefined) where.push(lt(providerRounds.id, beforeId));
  const staked = roundSum('bet', 'applied');
  return executor
    .select({
      kind: historyKind('provider'),
      id: providerRounds.id,
      roundId: sql<number>`${providerRounds.id}`.mapWith(Number).as('round_id'),
      sysname: providerSessions.sysname,
      engine: sql<string>`${providerRounds.provider}`.as('engine'),
      status: sql<string>`case
        when ${staked} = 0 and ${roundSum('bet', 'rolled_back')} > 0 then 'rolled_back'
        when ${providerRounds.endedAt} is null then 'open'
        else 'settled' end`.as('status'),
      currency: providerRounds.currency,
      stakeMinor: sql<bigint>`${staked}`.mapWith(BigInt).as('stake_minor'),
      payoutMinor: sql<bigint>`${roundSum('win', 'applied')}`.mapWith(BigInt).as('payout_minor'),
      serverSeedHash: sql<string>`''::text`.as('server_seed_hash'),
      clientSeed: sql<string>`''::text`.as('client_seed'),
      // No fair stream: an empty cell in the export.
      nonce: sql<number>`null::integer`.as('nonce'),
      createdAt: providerRounds.createdAt,
      settledAt: providerRounds.endedAt,
    })
    .from(providerRounds)
    .innerJoin(providerSessions, eq(providerSessions.id, providerRounds.sessionId))
    .where(and(...where))
    .$dynamic();
}
