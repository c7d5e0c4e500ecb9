/**
 * The offer's read API over HTTP (issue 14: sportsbook.getSports with live and upcoming counts,
 * getEvents by sport, status, day and tournament with each event's main market, getEvent with all
 * markets grouped and named through the catalogue in the request's locale; bad parameters answer
 * InvalidParameterException naming the field). The store is fed a simulated match's real messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SportEventDetail, SportEventListItem, SportEventPage, SportSummary } from '#common/contract';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { parseFeedMessage } from './feed/messages';
import { readServerSentEvents } from './feed/sse';
import type { Fixture } from './feed/fixtures';
import { simulatedMatchFeed } from './simulator/match-feed';
import { matchRng } from './simulator/script';

const HOUR = 3_600_000;
const KICK_OFF = Date.UTC(2026, 5, 1, 18);

function fixture(id: string, home: string, away: string, startTime: number, tournament = 'offer:t1'): Fixture {
  return {
    event_id: id,
    sport: 'football',
    category: { id: 'offer:c1', name: 'Testland' },
    tournament: { id: tournament, name: `League ${tournament}` },
    competitors: [
      { id: `${id}:home`, name: home },
      { id: `${id}:away`, name: away },
    ],
    start_time: startTime,
  };
}

/** A simulated match's messages with the minute each goes out at. */
function matchFeed(eventId: string, kickOff: number) {
  return simulatedMatchFeed(matchRng('offer-test', eventId.length), {
    producer: 'sim',
    eventId,
    goals: { home: 1.4, away: 1.1 },
    marginBp: 500,
    kickOff,
    correctionRate: 0,
    rollbackRate: 0,
  }).map((timed) => ({ minute: timed.minute, message: parseFeedMessage(timed.message) }));
}

describe.each(testDatabaseKinds())('the sportsbook offer API on %s', (kind) => {
  let t: TestApp;
  /** What of the match in play was not applied yet (after minute 30). */
  const rest: ReturnType<typeof matchFeed> = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    const store = t.services.sportsbook.feed;
    // One match in play (to minute 30), two not started on different days and tournaments, one over.
    const feeds = [
      { fx: fixture('offer:live', 'Alpha FC', 'Beta United', KICK_OFF), lastMinute: 30 },
      { fx: fixture('offer:soon', 'Gamma', 'Delta', KICK_OFF + 2 * HOUR), lastMinute: -1 },
      { fx: fixture('offer:later', 'Epsilon', 'Zeta', KICK_OFF + 26 * HOUR, 'offer:t2'), lastMinute: -1 },
      { fx: fixture('offer:over', 'Eta', 'Theta', KICK_OFF - 4 * HOUR), lastMinute: Infinity },
    ];
    for (const { fx, lastMinute } of feeds) {
      await store.upsertFixture(fx);
      // The announcement (fixture and pre-match prices) always; then the match as far as it has gone.
      for (const [index, { minute, message }] of matchFeed(fx.event_id, fx.start_time).entries())
        if (index < 2 || (minute >= 0 && minute <= lastMinute)) await store.apply(message);
        else if (fx.event_id === 'offer:live' && minute > lastMinute) rest.push({ minute, message });
    }
  });
  afterAll(() => t.close());

  const data = async <T>(name: string, params: Record<string, string> = {}, locale = 'en') => {
    const answer = await t.api(name, { params, locale });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as T;
  };

  it('issue 14 getSports: every sport with its live and upcoming events counted', async () => {
    const sports = await data<SportSummary[]>('sportsbook.getSports');
    expect(sports.find((s) => s.sport === 'football')).toEqual({ sport: 'football', live: 1, upcoming: 2 });
    expect(sports.find((s) => s.sport === 'tennis')).toEqual({ sport: 'tennis', live: 0, upcoming: 0 });
  });

  it('issue 14 getEvents: live and upcoming by sport, day and tournament, each with its main market priced', async () => {
    const live = await data<SportEventPage>('sportsbook.getEvents', { sport: 'football', status: 'live' });
    expect(live.items.map((event) => event.id)).toEqual(['offer:live']);
    const [event] = live.items;
    expect(event!.competitors.map((c) => c.name)).toEqual(['Alpha FC', 'Beta United']);
    expect(event!.clock_minute).toBe(30);
    expect(event!.main_market?.type).toBe('1x2');
    expect(event!.main_market?.outcomes.map((o) => o.id)).toEqual(['1', 'X', '2']);
    for (const outcome of event!.main_market!.outcomes) expect(Number(outcome.odds)).toBeGreaterThan(1);

    const upcoming = await data<SportEventPage>('sportsbook.getEvents', { sport: 'football', status: 'upcoming' });
    expect(upcoming.items.map((e) => e.id)).toEqual(['offer:soon', 'offer:later']);
    expect(upcoming.total).toBe(2);
    const nextDay = new Date(KICK_OFF + 26 * HOUR).toISOString().slice(0, 10);
    const byDay = await data<SportEventPage>('sportsbook.getEvents', { sport: 'football', day: nextDay });
    expect(byDay.items.map((e) => e.id)).toEqual(['offer:later']);
    const byTournament = await data<SportEventPage>('sportsbook.getEvents', { sport: 'football', tournament: 'offer:t1' });
    expect(byTournament.items.map((e) => e.id)).toEqual(['offer:soon']);
    const paged = await data<SportEventPage>('sportsbook.getEvents', { sport: 'football', offset: '1', count: '1' });
    expect(paged).toMatchObject({ total: 2, items: [{ id: 'offer:later' }] });
  });

  it('issue 14 /betting search and top leagues: events by team or league name, leagues of a sport busiest first', async () => {
    const byTeam = await data<SportEventPage>('sportsbook.getEvents', { sport: 'football', search: 'epsil' });
    expect(byTeam).toMatchObject({ total: 1, items: [{ id: 'offer:later' }] });
    const byLeague = await data<SportEventPage>('sportsbook.getEvents', { sport: 'football', search: 'league offer:t1' });
    expect(byLeague.items.map((e) => e.id)).toEqual(['offer:soon']);
    // LIKE's own wildcards are taken literally: "%" matches no name.
    expect((await data<SportEventPage>('sportsbook.getEvents', { sport: 'football', search: '%%' })).total).toBe(0);
    const leagues = await data<{ id: string; live: number; upcoming: number }[]>('sportsbook.getTournaments', {
      sport: 'football',
    });
    // t1 has the match in play and one to come; t2 one to come; the match that is over counts nowhere.
    expect(leagues.map(({ id, live, upcoming }) => ({ id, live, upcoming }))).toEqual([
      { id: 'offer:t1', live: 1, upcoming: 1 },
      { id: 'offer:t2', live: 0, upcoming: 1 },
    ]);
    expect(await data('sportsbook.getTournaments', { sport: 'tennis' })).toEqual([]);
  });

  it('issue 14 getEvent: every market grouped by type, named in the request locale with the competitors', async () => {
    const en = await data<SportEventDetail>('sportsbook.getEvent', { event_id: 'offer:live' }, 'en');
    const it_ = await data<SportEventDetail>('sportsbook.getEvent', { event_id: 'offer:live' }, 'it');
    expect(en.groups.length).toBeGreaterThan(3);
    expect(new Set(en.groups.map((g) => g.type)).size).toBe(en.groups.length);
    for (const group of en.groups) for (const market of group.markets) expect(market.type).toBe(group.type);
    const winner = (detail: SportEventDetail) => detail.groups.find((g) => g.type === '1x2')!.markets[0]!;
    expect(winner(en).outcomes.map((o) => o.name)).toEqual(['Alpha FC', 'Draw', 'Beta United']);
    expect(winner(it_).outcomes.map((o) => o.name)).toEqual(['Alpha FC', 'Pareggio', 'Beta United']);
    const total = (detail: SportEventDetail) =>
      detail.groups.find((g) => g.type === 'total')!.markets.find((m) => m.specifiers.total === '2.5')!;
    expect([total(en).name, total(it_).name]).toEqual(['Total 2.5', 'Totale 2,5']);
    // The same prices whatever the language.
    expect(winner(it_).outcomes.map((o) => o.odds)).toEqual(winner(en).outcomes.map((o) => o.odds));

    const over = await data<SportEventDetail>('sportsbook.getEvent', { event_id: 'offer:over' });
    expect(over.event.status).toBe('closed');
    for (const group of over.groups) for (const market of group.markets) expect(market.status).toBe('settled');
  });

  /** Reads `prices` events of a stream until `enough` says so (the stream is then closed), within a deadline. */
  async function readPrices<T>(path: string, enough: (events: T[]) => boolean, onOpen?: () => Promise<void>): Promise<T[]> {
    const response = await t.request(path);
    expect(response.status).toBe(200);
    const events: T[] = [];
    let opened = false;
    const deadline = setTimeout(() => void response.body?.cancel().catch(() => undefined), 30_000);
    try {
      await readServerSentEvents(response.body!, async (data) => {
        events.push(JSON.parse(data) as T);
        if (!opened && onOpen) {
          opened = true;
          await onOpen();
        }
        return !enough(events);
      });
    } finally {
      clearTimeout(deadline);
    }
    return events;
  }

  it('issue 14 prices reach open pages in real time: the event’s stream sends its state, then each change', async () => {
    const before = await data<SportEventDetail>('sportsbook.getEvent', { event_id: 'offer:live' }, 'it');
    const next = rest.findIndex((timed) => timed.message.type === 'odds_change');
    let after: SportEventDetail | undefined;
    // Changes may be sent as they happen, one by one: read until the state after the last one arrives.
    const events = await readPrices<SportEventDetail>(
      '/platform/sportsbook/prices?event_id=offer:live&locale=it',
      (received) => after !== undefined && JSON.stringify(received.at(-1)) === JSON.stringify(after),
      async () => {
        for (const { message } of rest.slice(0, next + 1)) await t.services.sportsbook.feed.apply(message);
        after = await data<SportEventDetail>('sportsbook.getEvent', { event_id: 'offer:live' }, 'it');
      },
    );
    expect(events[0]).toEqual(before);
    expect(after).not.toEqual(before);
    expect(events.at(-1)).toEqual(after);
  });

  it('issue 14 price stream of every event in play: each live event with its main market, never one not in play', async () => {
    const live = await data<SportEventPage>('sportsbook.getEvents', { sport: 'football', status: 'live' });
    const [first] = await readPrices<SportEventListItem>('/platform/sportsbook/prices', (received) => received.length >= 1);
    expect(first).toEqual(live.items[0]);
    const bad = await t.request('/platform/sportsbook/prices?event_id=no-such-event');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { error_data: { field: string } } }).error.error_data.field).toBe('event_id');
  });

  it('issue 14 bad input: InvalidParameterException naming the field, an unknown event as event_id', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['sportsbook.getEvents', { sport: 'curling' }, 'sport'],
      ['sportsbook.getEvents', {}, 'sport'],
      ['sportsbook.getEvents', { sport: 'football', status: 'finished' }, 'status'],
      ['sportsbook.getEvents', { sport: 'football', day: '2026-02-31x' }, 'day'],
      ['sportsbook.getEvents', { sport: 'football', count: '0' }, 'count'],
      ['sportsbook.getEvents', { sport: 'football', offset: '-1' }, 'offset'],
      ['sportsbook.getEvents', { sport: 'football', search: 'a' }, 'search'],
      ['sportsbook.getTournaments', { sport: 'curling' }, 'sport'],
      ['sportsbook.getEvent', {}, 'event_id'],
      ['sportsbook.getEvent', { event_id: 'no-such-event' }, 'event_id'],
    ];
    for (const [name, params, field] of cases) {
      const answer = await t.api(name, { params });
      expect(answer.status, `${name} ${JSON.stringify(params)}`).toBe(400);
      expect(answer.body.error?.type).toBe('InvalidParameterException');
      expect(answer.body.error?.error_data?.field, `${name} ${JSON.stringify(params)}`).toBe(field);
    }
  });
});
