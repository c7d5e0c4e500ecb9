/**
 * Producer liveness (issue 14): a producer sends an alive message every few seconds; a producer
 * silent for longer than the timeout, or one that says it is no longer subscribed, is down, and
 * every market it prices must be suspended until it is back. This tracker is pure: it is told of
 * heartbeats and asked at a given time, and reports the transitions the caller acts on.
 */
export interface ProducerState {
  readonly lastAliveAt: number;
  readonly up: boolean;
}

export type LivenessState = ReadonlyMap<string, ProducerState>;

export const NO_PRODUCERS: LivenessState = new Map();

export type LivenessTransition = { producer: string; change: 'down' | 'recovered' };

/** Records a heartbeat; a producer that was down and is subscribed again has recovered. */
export function recordAlive(
  state: LivenessState,
  producer: string,
  at: number,
  subscribed: boolean,
): { state: LivenessState; transitions: LivenessTransition[] } {
  const before = state.get(producer);
  // A heartbeat older than the one already seen (reordered) says nothing new.
  if (before && at < before.lastAliveAt) return { state, transitions: [] };
  const next = new Map(state).set(producer, { lastAliveAt: at, up: subscribed });
  const wasUp = before?.up ?? false;
  const transitions: LivenessTransition[] = [];
  if (before && wasUp && !subscribed) transitions.push({ producer, change: 'down' });
  if (before && !wasUp && subscribed) transitions.push({ producer, change: 'recovered' });
  return { state: next, transitions };
}

/** Marks down every producer whose last heartbeat is more than `timeoutMs` before `now`. */
export function checkLiveness(
  state: LivenessState,
  now: number,
  timeoutMs: number,
): { state: LivenessState; transitions: LivenessTransition[] } {
  const next = new Map(state);
  const transitions: LivenessTransition[] = [];
  for (const [producer, producerState] of state)
    if (producerState.up && now - producerState.lastAliveAt > timeoutMs) {
      next.set(producer, { ...producerState, up: false });
      transitions.push({ producer, change: 'down' });
    }
  return { state: next, transitions };
}

export function isProducerUp(state: LivenessState, producer: string): boolean {
  return state.get(producer)?.up ?? false;
}
