/**
 * The site's feed end to end (issue 14: "the sportsbook reads its prices and results through one
 * feed adapter interface … the built-in feed simulator is the default provider … a speed factor
 * lets tests play a match in seconds. Messages are applied idempotently and in order per event").
 * The simulator runs as its own process on 127.0.0.1; the site's HTTP adapter and consumer feed the
 * store on a real database, which must receive the fixtures, live prices and a settlement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { and, eq, isNotNull } from 'drizzle-orm';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../../test/databases';
import { runMigrations } from '../../../db/migrate';
import { startSimulatorProcess, type SimulatorProcess } from './simulator-process';
import { createFeedStore, type FeedStore } from '../store/feed-store';
import { startFeedConsumer } from '../store/consumer';
import { createHttpFeedAdapter } from './http-adapter';
import { sportsbookEvents, sportsbookMarkets } from '../tables';

const TOKEN = 'feed-adapter-test-token-0123';
const ENTRY = fileURLToPath(new URL('../../../feed-simulator/main.ts', import.meta.url));

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 100_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.each(testDatabaseKinds())('the site fed by the simulator process on %s', (kind) => {
  let database: TestDatabase;
  let simulator: SimulatorProcess;
  let store: FeedStore;
  let consumer: { stop(): Promise<void> };
  const errors: unknown[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await runMigrations(database.handle);
    simulator = await startSimulatorProcess({
      entry: ENTRY,
      execArgv: ['--import', 'tsx'],
      env: { FEED_TOKEN: TOKEN, FEED_SPEED: '900', FEED_SEED: `adapter-${kind}`, FEED_ALIVE_MS: '200', LOG_LEVEL: 'warn' },
    });
    store = createFeedStore({ db: database.handle.db, livenessTimeoutMs: 5_000 });
    const adapter = createHttpFeedAdapter({
      url: simulator.url,
      token: TOKEN,
      lastApplied: () => store.lastApplied(),
      onFixture: (fixture) => store.upsertFixture(fixture),
      onError: (error) => errors.push(error),
      reconnectDelayMs: 200,
    });
    consumer = startFeedConsumer({ adapter, store, gapTimeoutMs: 1_000, onError: (error) => errors.push(error) });
  });
  afterAll(async () => {
    await consumer?.stop();
    await simulator?.stop();
    await database?.drop();
  });

  it('issue 14 fixtures, live prices and a settlement reach the store over HTTP', async () => {
    const db = database.handle.db;
    const fixtures = await waitFor('fixtures', async () => {
      const rows = await db.select().from(sportsbookEvents).where(isNotNull(sportsbookEvents.tournamentId));
      return rows.length > 0 ? rows : undefined;
    });
    expect(fixtures.every((event) => event.homeName && event.awayName && event.startTime)).toBe(true);

    const live = await waitFor('live prices', async () => {
      const [market] = await db
        .select({ eventId: sportsbookMarkets.eventId })
        .from(sportsbookMarkets)
        .innerJoin(sportsbookEvents, eq(sportsbookEvents.id, sportsbookMarkets.eventId))
        .where(and(eq(sportsbookEvents.status, 'live'), eq(sportsbookMarkets.status, 'active')))
        .limit(1);
      return market;
    });
    const state = await store.eventState(live.eventId);
    expect(Object.values(state!.markets).some((market) => Object.keys(market.odds).length > 0)).toBe(true);

    const closed = await waitFor('a settled match', async () => {
      const [event] = await db.select().from(sportsbookEvents).where(eq(sportsbookEvents.status, 'closed')).limit(1);
      return event;
    });
    const settled = await store.eventState(closed.id);
    const markets = Object.values(settled!.markets);
    expect(markets.length).toBeGreaterThan(0);
    expect(markets.every((market) => market.status === 'settled' && market.settlement?.certainty === 'confirmed')).toBe(true);
    expect(errors).toEqual([]);
  }, 150_000);
});
