/**
 * The feed log's retention job on a real database (issue 14: "pruning of received feed messages
 * older than a retention window … keeping what settlement/rollback needs"): applied messages of a
 * finished event past the window go; held messages, the log of an event still in play and recent
 * messages stay; and after pruning, an old message is still told a duplicate and a rollback of the
 * pruned event's settlement still applies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../../test/databases';
import { runMigrations } from '../../../db/migrate';
import { parseFeedMessage, type FeedMessage } from '../feed/messages';
import { simulatedMatchFeed } from '../simulator/match-feed';
import { matchRng } from '../simulator/script';
import { sportsbookFeedMessages } from '../tables';
import { createFeedStore, type FeedStore } from './feed-store';
import { FEED_MESSAGE_RETENTION_MS, pruneFeedMessages } from './prune';

const DAY = 86_400_000;

function match(eventId: string, seed: number): FeedMessage[] {
  return simulatedMatchFeed(matchRng('prune-test', seed), {
    producer: 'sim',
    eventId,
    goals: { home: 1.5, away: 1.2 },
    marginBp: 500,
    kickOff: Date.UTC(2026, 0, 1, 15),
    correctionRate: 0,
    rollbackRate: 0,
  }).map((timed) => parseFeedMessage(timed.message));
}

describe.each(testDatabaseKinds())('the feed log retention job on %s', (kind) => {
  let database: TestDatabase;
  let store: FeedStore;
  const rowsOf = async (eventId: string) =>
    database.handle.db.select().from(sportsbookFeedMessages).where(eq(sportsbookFeedMessages.eventId, eventId));

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await runMigrations(database.handle);
    store = createFeedStore({ db: database.handle.db, now: () => Date.now(), livenessTimeoutMs: 600_000 });
  });
  afterAll(() => database.drop());

  it('removes only the applied messages of finished events older than the window, and the feed goes on as before', async () => {
    const done = match('prune:done', 1);
    const running = match('prune:running', 2);
    const gappy = match('prune:gappy', 3);
    for (const message of done) await store.apply(message);
    for (const message of running.slice(0, Math.floor(running.length / 2))) await store.apply(message);
    // The gappy event's third message waits for its second, which never came.
    expect((await store.apply(gappy[0]!)).outcome).toBe('applied');
    expect((await store.apply(gappy[2]!)).outcome).toBe('held');
    // Everything so far was received a month ago.
    await database.handle.db.update(sportsbookFeedMessages).set({ receivedAt: new Date(Date.now() - 30 * DAY) });
    const recent = match('prune:recent', 4);
    for (const message of recent) await store.apply(message);
    expect((await store.eventState('prune:recent'))?.status).toBe('closed');

    const before = {
      done: (await rowsOf('prune:done')).length,
      running: (await rowsOf('prune:running')).length,
      gappy: await rowsOf('prune:gappy'),
      recent: (await rowsOf('prune:recent')).length,
    };
    expect(before.done).toBe(done.length);
    const pruned = await pruneFeedMessages(database.handle.db, new Date(Date.now() - FEED_MESSAGE_RETENTION_MS));
    expect(pruned).toBe(before.done);
    expect(await rowsOf('prune:done')).toEqual([]);
    expect((await rowsOf('prune:running')).length).toBe(before.running);
    expect(await rowsOf('prune:gappy')).toEqual(before.gappy);
    expect((await rowsOf('prune:recent')).length).toBe(before.recent);
    // A second run finds nothing more.
    expect(await pruneFeedMessages(database.handle.db, new Date(Date.now() - FEED_MESSAGE_RETENTION_MS))).toBe(0);

    // The pruned event: an old message is still a duplicate (the cursor tells), and a late rollback
    // of its settlement still applies (it works from the market rows).
    expect((await store.apply(done[3]!)).outcome).toBe('duplicate');
    const settlement = done.findLast((message) => message.type === 'bet_settlement');
    if (settlement?.type !== 'bet_settlement') throw new Error('the match has no settlement');
    const market = settlement.markets[0]!;
    const rollback = parseFeedMessage({
      type: 'rollback_bet_settlement',
      producer: 'sim',
      event_id: 'prune:done',
      sequence: done.length + 1,
      timestamp: Date.now(),
      markets: [{ type: market.type, specifiers: market.specifiers }],
    });
    const applied = await store.apply(rollback);
    expect(applied.outcome).toBe('applied');
    expect(applied.effects.map((effect) => effect.kind)).toEqual(['rollback_settlement']);
    // The held message still waits for its gap: the event in play goes on where it was.
    const next = await store.apply(gappy[1]!);
    expect(next.outcome).toBe('applied');
    expect((await rowsOf('prune:gappy')).every((row) => row.applied)).toBe(true);
  });
});
