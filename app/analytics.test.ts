import { describe, expect, it } from 'vitest';
import { analyticsTimestamp, createTracker, type AnalyticsEvent } from './analytics';

describe('analytics (spec §4: events before the tracker is ready are deferred and replayed)', () => {
  it('holds events until ready, then replays them in order and sends later ones at once', () => {
    const sent: AnalyticsEvent[] = [];
    const tracker = createTracker(async (event) => sent.push(event));
    tracker.track('first', { a: 1 });
    tracker.track('second');
    expect(sent).toEqual([]);
    expect(tracker.pendingCount()).toBe(2);
    tracker.ready();
    tracker.track('third');
    expect(sent.map((event) => event.name)).toEqual(['first', 'second', 'third']);
    expect(sent[0]?.params.a).toBe(1);
    expect(tracker.pendingCount()).toBe(0);
  });

  it('a failing send does not throw into the page', () => {
    const tracker = createTracker(() => Promise.reject(new Error('offline')));
    tracker.ready();
    expect(() => tracker.track('x')).not.toThrow();
  });
});

describe('analytics timestamp (spec §9: fixed +3 hour offset)', () => {
  it('shifts UTC by three hours and says so', () => {
    expect(analyticsTimestamp(new Date('2026-11-22T22:30:00.000Z'))).toBe('2026-11-23T01:30:00.000+03:00');
  });
});
