import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FeedMessage } from './messages';
import { EMPTY_SEQUENCER, sequence, skipGap, type SequencerState } from './sequencer';

function betStop(eventId: string, sequenceNumber: number): FeedMessage {
  return { type: 'bet_stop', producer: 'live', event_id: eventId, timestamp: sequenceNumber, sequence: sequenceNumber };
}

/** Feeds every message and returns the (event, sequence) pairs in the order they were applied. */
function applyAll(messages: FeedMessage[], start: SequencerState = EMPTY_SEQUENCER) {
  let state = start;
  const applied: string[] = [];
  for (const message of messages) {
    const step = sequence(state, message);
    state = step.state;
    if (step.decision.action === 'apply')
      for (const m of step.decision.messages) if (m.type !== 'alive') applied.push(`${m.event_id}#${m.sequence}`);
  }
  return { state, applied };
}

describe('issue 14 feed: messages are applied idempotently and in order per event', () => {
  it('whatever the duplicates and the order, each event’s messages are applied once, in sequence order', () => {
    const deliveries = fc.record({ a: fc.integer({ min: 1, max: 12 }), b: fc.integer({ min: 1, max: 12 }) }).chain(({ a, b }) => {
      const all = [
        ...Array.from({ length: a }, (_, i) => betStop('a', i + 1)),
        ...Array.from({ length: b }, (_, i) => betStop('b', i + 1)),
      ];
      // Every message at least once, some twice or three times, then all of it in any order.
      const copies = fc.array(fc.integer({ min: 1, max: 3 }), { minLength: all.length, maxLength: all.length });
      return copies.chain((counts) => {
        const sent = all.flatMap((message, i) => Array<FeedMessage>(counts[i]!).fill(message));
        return fc.shuffledSubarray(sent, { minLength: sent.length }).map((order) => ({ all, order }));
      });
    });
    fc.assert(
      fc.property(deliveries, ({ all, order }) => {
        const { applied } = applyAll(order);
        for (const event of ['a', 'b']) {
          const expected = all
            .filter((m) => m.type !== 'alive' && m.event_id === event)
            .map((m) => `${event}#${(m as { sequence: number }).sequence}`);
          expect(applied.filter((entry) => entry.startsWith(`${event}#`))).toEqual(expected);
        }
      }),
    );
  });

  it('a message ahead of a gap is held, then released with its successor when the gap fills', () => {
    let state = EMPTY_SEQUENCER;
    const first = sequence(state, betStop('e', 2));
    expect(first.decision).toEqual({ action: 'hold', waitingFor: 1 });
    state = first.state;
    const second = sequence(state, betStop('e', 1));
    expect(
      second.decision.action === 'apply' && second.decision.messages.map((m) => (m as { sequence: number }).sequence),
    ).toEqual([1, 2]);
    expect(sequence(second.state, betStop('e', 2)).decision).toEqual({ action: 'drop_duplicate' });
  });

  it('a gap that never fills can be skipped: the held messages are applied from the lowest on', () => {
    const { state } = applyAll([betStop('e', 1), betStop('e', 4), betStop('e', 5), betStop('e', 7)]);
    const skipped = skipGap(state, 'e');
    expect(skipped.messages.map((m) => (m as { sequence: number }).sequence)).toEqual([4, 5]);
    expect(sequence(skipped.state, betStop('e', 3)).decision).toEqual({ action: 'drop_duplicate' });
    expect(sequence(skipped.state, betStop('e', 6)).decision.action).toBe('apply');
  });

  it('heartbeats pass straight through', () => {
    const alive: FeedMessage = { type: 'alive', producer: 'live', timestamp: 1, subscribed: true };
    expect(sequence(EMPTY_SEQUENCER, alive).decision).toEqual({ action: 'apply', messages: [alive] });
  });
});
