/**
 * Applying feed messages once and in order per event (issue 14). Feeds resend and reorder: each
 * event message carries the event's sequence number, and this pure sequencer decides per message
 * whether to apply it (with any held successors it releases), drop it as a duplicate, or hold it
 * until the gap before it is filled. Heartbeats have no event and pass straight through.
 * When a gap never fills (a message lost for good), the caller skips it after its own timeout
 * and asks the producer for recovery; the sequencer has no clock.
 */
import type { EventFeedMessage, FeedMessage } from './messages';

interface EventQueue {
  /** The sequence number applied next. */
  readonly next: number;
  readonly held: ReadonlyMap<number, EventFeedMessage>;
}

export type SequencerState = ReadonlyMap<string, EventQueue>;

export const EMPTY_SEQUENCER: SequencerState = new Map();

export type SequenceDecision =
  { action: 'apply'; messages: FeedMessage[] } | { action: 'drop_duplicate' } | { action: 'hold'; waitingFor: number };

const FIRST_SEQUENCE = 1;

function queueOf(state: SequencerState, eventId: string): EventQueue {
  return state.get(eventId) ?? { next: FIRST_SEQUENCE, held: new Map() };
}

function withQueue(state: SequencerState, eventId: string, queue: EventQueue): SequencerState {
  return new Map(state).set(eventId, queue);
}

/** Applies from `queue.next` on while the held messages are contiguous. */
function release(queue: EventQueue): { queue: EventQueue; messages: EventFeedMessage[] } {
  const held = new Map(queue.held);
  const messages: EventFeedMessage[] = [];
  let next = queue.next;
  for (let message = held.get(next); message; message = held.get(next)) {
    messages.push(message);
    held.delete(next);
    next++;
  }
  return { queue: { next, held }, messages };
}

export function sequence(state: SequencerState, message: FeedMessage): { state: SequencerState; decision: SequenceDecision } {
  if (message.type === 'alive') return { state, decision: { action: 'apply', messages: [message] } };
  const queue = queueOf(state, message.event_id);
  if (message.sequence < queue.next || queue.held.has(message.sequence)) return { state, decision: { action: 'drop_duplicate' } };
  const held = new Map(queue.held).set(message.sequence, message);
  if (message.sequence > queue.next)
    return {
      state: withQueue(state, message.event_id, { next: queue.next, held }),
      decision: { action: 'hold', waitingFor: queue.next },
    };
  const released = release({ next: queue.next, held });
  return {
    state: withQueue(state, message.event_id, released.queue),
    decision: { action: 'apply', messages: released.messages },
  };
}

/** Gives up on the missing messages before the lowest held one and applies from there. */
export function skipGap(state: SequencerState, eventId: string): { state: SequencerState; messages: FeedMessage[] } {
  const queue = queueOf(state, eventId);
  if (queue.held.size === 0) return { state, messages: [] };
  const released = release({ next: Math.min(...queue.held.keys()), held: queue.held });
  return { state: withQueue(state, eventId, released.queue), messages: released.messages };
}

/** After recovery the producer resends the event's state: expect `nextSequence` next and forget what was held. */
export function resetEvent(state: SequencerState, eventId: string, nextSequence: number): SequencerState {
  return withQueue(state, eventId, { next: nextSequence, held: new Map() });
}

/** Forgets an event that is over (closed), so the state does not grow with every past match. */
export function forgetEvent(state: SequencerState, eventId: string): SequencerState {
  const copy = new Map(state);
  copy.delete(eventId);
  return copy;
}
