/**
 * What a big win is (issue 15: the home page's recent big wins, games.getWinners): a round that
 * paid at least BIG_WIN_MULTIPLIER times its stake. The round tables' partial indexes for the list
 * and the queries that read them share this condition word for word, with the number written in
 * (not a parameter), so the planner can prove the query stays inside the index. Changing the
 * number needs a migration of those indexes.
 */
import { sql, type SQLWrapper } from 'drizzle-orm';

export const BIG_WIN_MULTIPLIER = 5;

export function bigWinCondition(stake: SQLWrapper, payout: SQLWrapper) {
  return sql`${payout} >= ${stake} * ${sql.raw(String(BIG_WIN_MULTIPLIER))}`;
}
