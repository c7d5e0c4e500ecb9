/**
 * The simulator's playback on a clock the test moves (issue 14: "plays matches in real time … a
 * speed factor …; now and then … a producer outage"): messages go out when their minute comes,
 * nothing and no heartbeat goes out while the producer is down, and what it did not deliver is
 * in the recovery log.
 */
import { describe, expect, it } from 'vitest';
import { parseFeedMessage, type EventFeedMessage, type FeedMessage, type FeedMessageInput } from '../feed/messages';
import { createFeedProvider, type FeedProviderOptions } from './provider';

const START = Date.UTC(2026, 2, 7, 13, 0);

function provider(overrides: Partial<FeedProviderOptions>, startAt = START) {
  let clock = startAt;
  const sent: FeedMessage[] = [];
  const feed = createFeedProvider({
    seed: 'provider-test',
    producer: 'sim',
    speed: 60,
    days: 1,
    marginBp: 500,
    disorder: { duplicateRate: 0, swapRate: 0 },
    correctionRate: 0,
    rollbackRate: 0,
    outageRate: 0,
    outageMs: 10_000,
    now: () => clock,
    ...overrides,
  });
  feed.subscribe((message: FeedMessageInput) => sent.push(parseFeedMessage(message)));
  return { feed, sent, advance: (ms: number) => (clock += ms) };
}

const eventMessages = (messages: readonly FeedMessage[]) => messages.filter((m): m is EventFeedMessage => m.type !== 'alive');

describe('issue 14 simulator playback', () => {
  it('announces every fixture at once and plays the match under way as its minutes come, at the speed factor', () => {
    const { feed, sent, advance } = provider({});
    feed.tick();
    const announced = new Set(eventMessages(sent).map((m) => m.event_id));
    expect(announced).toEqual(new Set(feed.fixtures().map((fixture) => fixture.event_id)));
    const before = sent.length;
    // At 60× a second of wall time is a match minute: a few seconds bring the match under way on.
    advance(6_000);
    feed.tick();
    const live = eventMessages(sent.slice(before));
    expect(live.some((m) => m.type === 'odds_change' && m.event_status?.status === 'live')).toBe(true);
    feed.heartbeat();
    expect(sent.at(-1)).toMatchObject({ type: 'alive', producer: 'sim', subscribed: true });
  });

  it('a producer outage: no heartbeat and no message while down; recovery has everything that came due', () => {
    const { feed, sent, advance } = provider({ outageRate: 1, outageMs: 10_000 });
    feed.heartbeat();
    feed.tick();
    advance(6_000);
    feed.tick();
    feed.heartbeat();
    expect(sent).toEqual([]);
    const due = feed.recovery({}).map(parseFeedMessage);
    expect(due.length).toBeGreaterThan(feed.fixtures().length * 2);
    // Per event, in sequence from the first; and from a given sequence on when asked.
    const first = eventMessages(due)[0]!;
    const ofFirst = eventMessages(due).filter((m) => m.event_id === first.event_id);
    expect(ofFirst.map((m) => m.sequence)).toEqual(ofFirst.map((_, i) => i + 1));
    const after = eventMessages(feed.recovery({ [first.event_id]: 1 }).map(parseFeedMessage));
    expect(after.filter((m) => m.event_id === first.event_id)).toEqual(ofFirst.slice(1));

    advance(10_001);
    feed.tick();
    expect(eventMessages(sent).length).toBeGreaterThan(0);
    // What came due during the outage is not resent live: only recovery brings it.
    const sentOfFirst = eventMessages(sent).filter((m) => m.event_id === first.event_id);
    expect(sentOfFirst.length).toBeGreaterThan(0);
    for (const message of sentOfFirst) expect(message.sequence).toBeGreaterThan(ofFirst.length);
  });

  it('issue 14 restart: in real time, a simulator started again has the same fixtures under the same ids and plays the same messages', () => {
    const first = provider({ speed: 1 });
    const second = provider({ speed: 1 }, START + 20 * 60_000);
    const fixtures = new Map(first.feed.fixtures().map((fixture) => [fixture.event_id, fixture]));
    const common = second.feed.fixtures().filter((fixture) => fixtures.has(fixture.event_id));
    expect(common.length).toBeGreaterThan(second.feed.fixtures().length / 2);
    for (const fixture of common) expect(fixture).toEqual(fixtures.get(fixture.event_id));

    first.advance(20 * 60_000);
    first.feed.tick();
    second.feed.tick();
    // Past the announcement (whose timestamp is the start's), the same messages under the same sequences.
    const played = (feed: typeof first.feed) =>
      eventMessages(feed.recovery({}).map(parseFeedMessage)).filter((m) => m.sequence > 2 && fixtures.has(m.event_id));
    expect(played(second.feed).length).toBeGreaterThan(0);
    expect(played(second.feed)).toEqual(played(first.feed));
  });
});
