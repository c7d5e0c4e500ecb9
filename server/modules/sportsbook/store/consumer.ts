/**
 * The feed consumer (issue 14): the adapter's messages into the store, one at a time, and the
 * timers the pure parts have none of. A gap that does not fill within `gapTimeoutMs` asks the
 * provider for recovery, and one still open after another wait is skipped (the sequencer's
 * skipGap: a message lost for good must not stop the event). Liveness is checked on a timer, and
 * a producer back from an outage triggers a recovery of what it sent while we heard nothing.
 */
import type { FeedAdapter } from '../feed/adapter';
import type { FeedMessage } from '../feed/messages';
import type { ApplyResult, FeedStore } from './feed-store';

export interface FeedConsumerOptions {
  adapter: FeedAdapter;
  store: FeedStore;
  gapTimeoutMs?: number;
  livenessIntervalMs?: number;
  onError?: (error: unknown, what: string) => void;
  now?: () => number;
}

const DEFAULT_GAP_TIMEOUT_MS = 5_000;
const DEFAULT_LIVENESS_INTERVAL_MS = 1_000;

interface Gap {
  producer: string;
  eventId: string;
  since: number;
  recoveryAsked: boolean;
}

export function startFeedConsumer(options: FeedConsumerOptions): { stop(): Promise<void> } {
  const { adapter, store } = options;
  const now = options.now ?? Date.now;
  const gapTimeoutMs = options.gapTimeoutMs ?? DEFAULT_GAP_TIMEOUT_MS;
  const report = (error: unknown, what: string) => options.onError?.(error, what);
  const gaps = new Map<string, Gap>();
  /** Event messages handed to the store and not yet committed: a stop waits for them. */
  const inFlight = new Set<Promise<void>>();

  const recover = () => adapter.recover?.().catch((error: unknown) => report(error, 'feed recovery'));

  function track(message: FeedMessage, result: ApplyResult): void {
    if (message.type === 'alive') {
      if (result.transitions?.some((transition) => transition.change === 'recovered')) void recover();
      return;
    }
    const key = `${message.producer}\u0000${message.event_id}`;
    if (result.outcome === 'held' && !gaps.has(key))
      gaps.set(key, { producer: message.producer, eventId: message.event_id, since: now(), recoveryAsked: false });
    if (result.outcome === 'applied') gaps.delete(key);
  }

  // Heartbeats are awaited (an outage's suspension comes before what follows it); event messages
  // are handed over without waiting for their commit, so those arriving meanwhile are applied
  // together in the store's next batch (feed throughput), still in arrival order per event.
  adapter.subscribe(async (message) => {
    if (message.type === 'alive') return track(message, await store.apply(message));
    const applying = store
      .apply(message)
      .then((result) => track(message, result))
      .catch((error: unknown) => report(error, 'feed message'))
      .finally(() => inFlight.delete(applying));
    inFlight.add(applying);
  });

  async function checkGaps(): Promise<void> {
    for (const [key, gap] of gaps) {
      if (now() - gap.since < gapTimeoutMs) continue;
      if (!gap.recoveryAsked) {
        gap.recoveryAsked = true;
        gap.since = now();
        await recover();
        continue;
      }
      gaps.delete(key);
      await store.skipGap(gap.producer, gap.eventId);
    }
  }

  let ticking = false;
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = true;
    Promise.all([store.checkLiveness(), checkGaps()])
      .catch((error: unknown) => report(error, 'feed timers'))
      .finally(() => (ticking = false));
  }, options.livenessIntervalMs ?? DEFAULT_LIVENESS_INTERVAL_MS);

  return {
    async stop() {
      clearInterval(timer);
      await adapter.stop();
      await Promise.all([...inFlight]);
    },
  };
}
