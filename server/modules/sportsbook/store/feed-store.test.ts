/**
 * The feed's store on a real database (issue 14: "messages are applied idempotently and in order
 * per event"; "suspends markets around dangerous moments, settles them at the end"; "a producer
 * outage"). A whole simulated match is applied as the feed delivers it, with duplicates and messages
 * out of order, and must end as the in-order delivery does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../../test/databases';
import { runMigrations } from '../../../db/migrate';
import { nextFloat } from '#common/games/fair';
import { marketTypesOf, parseMarketKey } from '#common/sportsbook/catalogue';
import { parseFeedMessage, type FeedMessage } from '../feed/messages';
import type { MarketEffect } from '../feed/market-state';
import { disorder } from '../simulator/feed-messages';
import { simulatedMatchFeed } from '../simulator/match-feed';
import { matchRng } from '../simulator/script';
import { createFeedStore, type BatchListener, type FeedStore } from './feed-store';

const GOALS = { home: 1.5, away: 1.2 };

function match(eventId: string, seed: number, rates = { correctionRate: 1, rollbackRate: 1 }): FeedMessage[] {
  return simulatedMatchFeed(matchRng('store-test', seed), {
    producer: 'sim',
    eventId,
    goals: GOALS,
    marginBp: 500,
    kickOff: Date.UTC(2026, 0, 1, 15),
    ...rates,
  }).map((timed) => parseFeedMessage(timed.message));
}

async function applyAll(store: FeedStore, messages: readonly FeedMessage[]) {
  const outcomes: string[] = [];
  const effects: MarketEffect[] = [];
  for (const message of messages) {
    const result = await store.apply(message);
    outcomes.push(result.outcome);
    effects.push(...result.effects);
  }
  return { outcomes, effects };
}

describe.each(testDatabaseKinds())('the sportsbook feed store on %s', (kind) => {
  let database: TestDatabase;
  let clock = 0;
  let store: FeedStore;
  const hooked: { eventId: string; effects: readonly MarketEffect[] }[] = [];
  const batches: Parameters<BatchListener>[0][] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await runMigrations(database.handle);
    store = createFeedStore({
      db: database.handle.db,
      now: () => clock,
      livenessTimeoutMs: 10_000,
      onBatch: (batch) => batches.push(batch),
      onEffects: async (_tx, eventId, effects) => {
        hooked.push({ eventId, effects });
      },
    });
  });
  afterAll(() => database.drop());

  it('issue 14 in order per event: duplicates and reordered messages end as the in-order feed', async () => {
    const inOrder = match('ordered', 1);
    const delivered = disorder(matchRng('disorder', 1), match('shuffled', 1), { duplicateRate: 0.2, swapRate: 0.3 });
    expect(delivered.length).toBeGreaterThan(inOrder.length);
    const ordered = await applyAll(store, inOrder);
    const shuffled = await applyAll(store, delivered);
    expect(shuffled.outcomes).toContain('duplicate');
    expect(shuffled.outcomes).toContain('held');
    expect(await store.eventState('shuffled')).toEqual(await store.eventState('ordered'));
    // The ticket side is told the same settlements, in the same order, whatever the delivery.
    expect(shuffled.effects).toEqual(ordered.effects);
    expect(hooked.filter((h) => h.eventId === 'shuffled').flatMap((h) => h.effects)).toEqual(ordered.effects);
  });

  it('issue 14 settles at the end: every market settled and confirmed, the late correction and the rollback reported', async () => {
    const state = await store.eventState('ordered');
    expect(state?.status).toBe('closed');
    const markets = Object.values(state!.markets);
    expect(markets.length).toBeGreaterThan(10);
    for (const market of markets) expect(market.settlement?.certainty).toBe('confirmed');
    const effects = (await applyAll(store, match('effects', 1))).effects;
    expect(effects.some((effect) => effect.kind === 'settle' && effect.correction)).toBe(true);
    expect(effects.some((effect) => effect.kind === 'rollback_settlement')).toBe(true);
  });

  it('issue 14 other sports: an ice hockey match is priced from its own catalogue markets and settled', async () => {
    const hockey = simulatedMatchFeed(matchRng('store-test', 9), {
      sport: 'ice_hockey',
      producer: 'sim',
      eventId: 'hockey',
      goals: { home: 3.1, away: 2.8 },
      marginBp: 500,
      kickOff: Date.UTC(2026, 0, 1, 19),
      correctionRate: 1,
      rollbackRate: 0,
    }).map((timed) => parseFeedMessage(timed.message));
    const { effects } = await applyAll(store, hockey);
    const state = await store.eventState('hockey');
    expect(state?.status).toBe('closed');
    const types = new Set(Object.keys(state!.markets).map((key) => parseMarketKey(key).type));
    expect(types.size).toBeGreaterThan(1);
    for (const type of types) expect(marketTypesOf('ice_hockey')).toContain(type);
    for (const market of Object.values(state!.markets)) expect(market.settlement?.certainty).toBe('confirmed');
    expect(effects.some((effect) => effect.kind === 'settle' && effect.correction)).toBe(true);
  });

  it.each([
    ['tennis', { home: 0.8, away: 0.74 }],
    ['basketball', { home: 112, away: 108 }],
  ] as const)(
    'issue 14 other sports: a %s match plays live from its own script, priced from its catalogue markets and settled',
    async (sport, rates) => {
      const messages = simulatedMatchFeed(matchRng('store-test', 11), {
        sport,
        producer: 'sim',
        eventId: sport,
        goals: rates,
        marginBp: 500,
        kickOff: Date.UTC(2026, 0, 1, 15),
        correctionRate: 0,
        rollbackRate: 0,
      }).map((timed) => parseFeedMessage(timed.message));
      // In play: live prices go out more than once, and betting stops at dangerous moments.
      const live = messages.filter((message) => message.type === 'odds_change' && message.event_status?.status === 'live');
      expect(live.length).toBeGreaterThan(5);
      expect(messages.some((message) => message.type === 'bet_stop')).toBe(true);
      const { effects } = await applyAll(store, messages);
      const state = await store.eventState(sport);
      expect(state?.status).toBe('closed');
      const types = new Set(Object.keys(state!.markets).map((key) => parseMarketKey(key).type));
      expect([...types].sort()).toEqual([...marketTypesOf(sport)].sort());
      for (const market of Object.values(state!.markets)) expect(market.settlement?.certainty).toBe('confirmed');
      expect(effects.filter((effect) => effect.kind === 'settle').length).toBeGreaterThan(0);
    },
  );

  it('issue 14 feed throughput: odds changes arriving together are one batch that reads and writes only the selections they change, ending as the in-order feed', async () => {
    const [burst, twin] = ['burst', 'burst-twin'].map((eventId) => match(eventId, 6, { correctionRate: 0, rollbackRate: 0 }));
    const live = burst!.findIndex((message) => message.type === 'odds_change' && message.event_status?.status === 'live');
    await applyAll(store, burst!.slice(0, live + 1));
    await applyAll(store, twin!.slice(0, live + 1));
    const prices = (eventId: string, base: FeedMessage) => {
      if (base.type !== 'odds_change') throw new Error('an odds change');
      const { sequence, timestamp } = base;
      const oneXtwo = base.markets.find((market) => market.type === '1x2')!;
      // Only the home win moves: the other selections keep their price.
      return Array.from({ length: 20 }, (_, k) =>
        parseFeedMessage({
          type: 'odds_change',
          producer: 'sim',
          event_id: eventId,
          sequence: sequence + 1 + k,
          timestamp: timestamp + k,
          markets: [
            {
              ...oneXtwo,
              outcomes: oneXtwo.outcomes.map((outcome) =>
                outcome.id === '1' ? { ...outcome, odds: (2 + k / 100).toFixed(2) } : outcome,
              ),
            },
          ],
        }),
      );
    };
    const inOrder = prices('burst-twin', twin![live]!);
    for (const message of inOrder) await store.apply(message);
    const sent = prices('burst', burst![live]!);
    // As a feed delivers them: a pair swapped, one sent twice, and a message already applied (stale).
    const delivered = [burst![live]!, ...sent.slice(0, 5), sent[6]!, sent[5]!, ...sent.slice(7), sent[10]!];
    const before = batches.length;
    const results = await Promise.all(delivered.map((message) => store.apply(message)));
    const burstBatches = batches.slice(before).filter((batch) => batch.eventId === 'burst');
    expect(burstBatches).toEqual([{ eventId: 'burst', messages: delivered.length, marketsLoaded: 1, outcomesWritten: 1 }]);
    expect(results.map((result) => result.outcome).filter((outcome) => outcome === 'duplicate')).toHaveLength(2);
    expect(results.map((result) => result.outcome)).toContain('held');
    expect((await store.lastApplied()).burst).toBe(
      Math.max(...sent.map((message) => (message.type === 'alive' ? 0 : message.sequence))),
    );
    expect((await store.eventState('burst'))!.markets).toEqual((await store.eventState('burst-twin'))!.markets);
  });

  it('issue 14 in order per event: a message whose effects fail costs only itself its batch; those before it are applied, those after it wait for it', async () => {
    const failing = createFeedStore({
      db: database.handle.db,
      onEffects: async (_tx, _eventId, effects) => {
        if (effects.some((effect) => effect.kind === 'cancel')) throw new Error('the ticket side failed');
      },
    });
    const base = { producer: 'sim', event_id: 'poison', timestamp: 0 };
    const market = { type: '1x2', specifiers: {} };
    const prices = (sequence: number, home: string) =>
      parseFeedMessage({
        ...base,
        type: 'odds_change',
        sequence,
        markets: [{ ...market, status: 'active', outcomes: [{ id: '1', odds: home, active: true }] }],
      });
    const cancel = parseFeedMessage({ ...base, type: 'bet_cancel', sequence: 2, markets: [market] });
    const results = await Promise.allSettled([prices(1, '2.00'), cancel, prices(3, '2.20')].map((m) => failing.apply(m)));
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value.outcome : 'failed'))).toEqual([
      'applied',
      'failed',
      'held',
    ]);
    expect((await failing.eventState('poison'))!.markets['1x2']).toMatchObject({ status: 'active', odds: { '1': 20_000n } });
  });

  it('issue 14 idempotent: applying a message a second time changes nothing', async () => {
    const messages = match('twice', 2, { correctionRate: 0, rollbackRate: 0 });
    const firstHalf = messages.slice(0, Math.floor(messages.length / 2));
    await applyAll(store, firstHalf);
    const before = await store.eventState('twice');
    const rng = matchRng('pick', 2);
    const again = firstHalf[Math.floor(nextFloat(rng) * firstHalf.length)]!;
    expect((await store.apply(again)).outcome).toBe('duplicate');
    expect(await store.eventState('twice')).toEqual(before);
  });

  it('issue 14 in order per event: a message lost for good holds its successors until the gap is skipped', async () => {
    const messages = match('lost', 5, { correctionRate: 0, rollbackRate: 0 });
    const lost = 4;
    const outcomes = (
      await applyAll(
        store,
        messages.filter((_, index) => index !== lost),
      )
    ).outcomes;
    expect(outcomes.slice(lost)).toEqual(outcomes.slice(lost).map(() => 'held'));
    const stuck = await store.eventState('lost');
    await store.skipGap('sim', 'lost');
    const skipped = await store.eventState('lost');
    expect(skipped).not.toEqual(stuck);
    expect(skipped?.status).toBe('closed');
    expect((await store.lastApplied()).lost).toBe(messages.length);
  });

  it('issue 14 dangerous moments: a bet stop suspends the open markets until the next prices', async () => {
    const messages = match('danger', 3, { correctionRate: 0, rollbackRate: 0 });
    const stop = messages.findIndex((message) => message.type === 'bet_stop');
    await applyAll(store, messages.slice(0, stop + 1));
    const stopped = await store.eventState('danger');
    const statuses = new Set(Object.values(stopped!.markets).map((market) => market.status));
    expect(statuses.has('active')).toBe(false);
    await store.apply(messages[stop + 1]!);
    const reopened = await store.eventState('danger');
    expect(Object.values(reopened!.markets).some((market) => market.status === 'active')).toBe(true);
  });

  it('issue 14 producer outage: a silent producer has its markets suspended, and they come back on its recovery', async () => {
    const messages = match('outage', 4, { correctionRate: 0, rollbackRate: 0 });
    const live = messages.findIndex((message) => message.type === 'odds_change' && message.event_status?.status === 'live');
    await store.apply(parseFeedMessage({ type: 'alive', producer: 'sim', timestamp: clock, subscribed: true }));
    await applyAll(store, messages.slice(0, live + 1));
    const open = await store.eventState('outage');
    const active = Object.entries(open!.markets).filter(([, market]) => market.status === 'active');
    expect(active.length).toBeGreaterThan(0);

    clock += 5_000;
    expect(await store.checkLiveness()).toEqual([]);
    clock += 10_000;
    expect(await store.checkLiveness()).toEqual([{ producer: 'sim', change: 'down' }]);
    const down = await store.eventState('outage');
    for (const [key] of active) expect(down!.markets[key]!.status).toBe('suspended');
    // Settled matches stay as they were: an outage suspends only what is open.
    expect((await store.eventState('ordered'))!.markets).toEqual((await store.eventState('shuffled'))!.markets);

    await store.apply(parseFeedMessage({ type: 'alive', producer: 'sim', timestamp: clock, subscribed: true }));
    expect(await store.eventState('outage')).toEqual(open);
  });
});
