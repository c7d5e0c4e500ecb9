/**
 * Retention of the feed's message log (issue 14: "pruning of received feed messages older than a
 * retention window"). The log (sportsbook_feed_messages) is read back only for messages held
 * until a gap before them fills; duplicates are told by the event's cursor, and settlements,
 * cancels and their rollbacks work from the market rows the messages were applied to, and the
 * bets from their own legs and wager record. So an applied message may go once it is older than
 * the window and its event's feed story is over (closed, cancelled, abandoned). Kept: every held
 * message, whatever its age, and the whole log of an event still open, postponed or waiting for
 * results — a late correction or a dispute over a match under way reads it.
 */
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { EventStatus } from '#common/sportsbook/types';
import { sportsbookEvents, sportsbookFeedMessages } from '../tables';

/** How long an applied message of a finished event is kept after it was received. */
export const FEED_MESSAGE_RETENTION_MS = 14 * 86_400_000;
/** Events whose feed is over: nothing more is applied to them but a rollback, which reads market rows. */
export const FINISHED_EVENT_STATUSES: readonly EventStatus[] = ['closed', 'cancelled', 'abandoned'];

/** Deletes the applied messages of finished events received before `before`; answers how many went. */
export async function pruneFeedMessages(db: Database, before: Date): Promise<number> {
  const finished = db
    .select({ id: sportsbookEvents.id })
    .from(sportsbookEvents)
    .where(inArray(sportsbookEvents.status, [...FINISHED_EVENT_STATUSES]));
  const deleted = await db
    .delete(sportsbookFeedMessages)
    .where(
      and(
        eq(sportsbookFeedMessages.applied, true),
        lt(sportsbookFeedMessages.receivedAt, before),
        inArray(sportsbookFeedMessages.eventId, finished),
      ),
    )
    .returning({ n: sql<number>`1` });
  return deleted.length;
}
