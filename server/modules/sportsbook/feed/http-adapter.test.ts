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
import { createTestDatabase, testDatabaseKinds, type DatabaseKind, type TestDatabase } from '../../../../test/databases';
import { runMigrations } from '../../../db/migrate';
import { startSimulatorProcess } from './simulator-process';
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

interface FedSite {
  /** The simulator process's address. */
  url: string;
  database: TestDatabase;
  store: FeedStore;
  errors: unknown[];
  stop(): Promise<void>;
}

/** A database and store fed by a simulator process started with `env`, as the site's start-up does. */
async function fedSite(
  kind: DatabaseKind,
  env: Record<string, string>,
  timers: { livenessTimeoutMs: number; livenessIntervalMs?: number },
): Promise<FedSite> {
  const database = await createTestDatabase(kind);
  await runMigrations(database.handle);
  const simulator = await startSimulatorProcess({
    entry: ENTRY,
    execArgv: ['--import', 'tsx'],
    env: { FEED_TOKEN: TOKEN, FEED_SPEED: '900', LOG_LEVEL: 'warn', ...env },
  });
  const store = createFeedStore({ db: database.handle.db, livenessTimeoutMs: timers.livenessTimeoutMs });
  const errors: unknown[] = [];
  const adapter = createHttpFeedAdapter({
    url: simulator.url,
    token: TOKEN,
    lastApplied: () => store.lastApplied(),
    onFixture: (fixture) => store.upsertFixture(fixture),
    onError: (error) => errors.push(error),
    reconnectDelayMs: 200,
  });
  const consumer = startFeedConsumer({
    adapter,
    store,
    gapTimeoutMs: 1_000,
    livenessIntervalMs: timers.livenessIntervalMs,
    onError: (error) => errors.push(error),
  });
  return {
    url: simulator.url,
    database,
    store,
    errors,
    async stop() {
      await consumer.stop();
      await simulator.stop();
      await database.drop();
    },
  };
}

/** A closed match whose every market is settled and confirmed. */
async function settledMatch(site: FedSite) {
  const closed = await waitFor('a settled match', async () => {
    const [event] = await site.database.handle.db
      .select()
      .from(sportsbookEvents)
      .where(eq(sportsbookEvents.status, 'closed'))
      .limit(1);
    return event;
  });
  return Object.values((await site.store.eventState(closed.id))!.markets);
}

describe.each(testDatabaseKinds())('the site fed by the simulator process on %s', (kind) => {
  let site: FedSite;
  let database: TestDatabase;
  let store: FeedStore;

  beforeAll(async () => {
    site = await fedSite(
      kind,
      { FEED_SEED: `adapter-${kind}`, FEED_ALIVE_MS: '200', FEED_OUTAGE_RATE: '0' },
      { livenessTimeoutMs: 5_000 },
    );
    ({ database, store } = site);
  });
  afterAll(() => site?.stop());

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

    const markets = await settledMatch(site);
    expect(markets.length).toBeGreaterThan(0);
    expect(markets.every((market) => market.status === 'settled' && market.settlement?.certainty === 'confirmed')).toBe(true);
    expect(site.errors).toEqual([]);
  }, 150_000);
});

describe('the feed adapter with the wrong token', () => {
  let site: FedSite;

  beforeAll(async () => {
    site = await fedSite('pglite', { FEED_SEED: 'wrong-token', FEED_OUTAGE_RATE: '0' }, { livenessTimeoutMs: 5_000 });
  });
  afterAll(() => site?.stop());

  it('issue 14 own protocol: a site without the feed’s token is refused and applies nothing', async () => {
    const applied: unknown[] = [];
    const errors: unknown[] = [];
    const adapter = createHttpFeedAdapter({
      url: site.url,
      token: 'not-the-feed-token-0123456789',
      lastApplied: async () => ({}),
      onFixture: async (fixture) => void applied.push(fixture),
      onError: (error) => errors.push(error),
      reconnectDelayMs: 100,
    });
    adapter.subscribe((message) => void applied.push(message));
    try {
      await waitFor('the refusal', async () => (errors.length > 0 ? true : undefined), 30_000);
    } finally {
      await adapter.stop();
    }
    expect(String(errors[0])).toMatch(/401/);
    expect(applied).toEqual([]);
  });
});

describe.each(testDatabaseKinds())('a producer outage of the simulator process on %s', (kind) => {
  let site: FedSite;

  beforeAll(async () => {
    // Heartbeats every 100 ms, silent for 1.5 s about once a second: the site notices within 0.6 s.
    site = await fedSite(
      kind,
      { FEED_SEED: `outage-${kind}`, FEED_ALIVE_MS: '100', FEED_OUTAGE_RATE: '0.1', FEED_OUTAGE_MS: '1500' },
      { livenessTimeoutMs: 600, livenessIntervalMs: 100 },
    );
  });
  afterAll(() => site?.stop());

  it('issue 14 producer outage: markets are suspended while it is silent, open again after, and recovery loses no message', async () => {
    const db = site.database.handle.db;
    const suspendedByOutage = await waitFor('markets suspended by an outage', async () => {
      const rows = await db
        .select({ eventId: sportsbookMarkets.eventId, key: sportsbookMarkets.key })
        .from(sportsbookMarkets)
        .where(and(isNotNull(sportsbookMarkets.statusBeforeOutage), eq(sportsbookMarkets.status, 'suspended')));
      return rows.length > 0 ? rows : undefined;
    });
    await waitFor('the markets back after the outage', async () => {
      const [still] = await db
        .select({ key: sportsbookMarkets.key })
        .from(sportsbookMarkets)
        .where(
          and(
            eq(sportsbookMarkets.eventId, suspendedByOutage[0]!.eventId),
            eq(sportsbookMarkets.key, suspendedByOutage[0]!.key),
            isNotNull(sportsbookMarkets.statusBeforeOutage),
          ),
        );
      return still ? undefined : true;
    });
    // Messages sent while the producer was silent were lost on the stream; recovery brought them.
    const markets = await settledMatch(site);
    expect(markets.every((market) => market.status === 'settled' && market.settlement?.certainty === 'confirmed')).toBe(true);
  }, 150_000);
});
