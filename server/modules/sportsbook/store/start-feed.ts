/**
 * The site's odds feed at start-up (issue 14): a configured provider (FEED_URL and FEED_TOKEN), or
 * the built-in simulator started as a child process with the published demo token; either way the
 * HTTP adapter and the consumer feed the store, and stopping stops all of it.
 */
import { createHttpFeedAdapter } from '../feed/http-adapter';
import { startSimulatorProcess, type SimulatorProcess } from '../feed/simulator-process';
import { DEMO_FEED_TOKEN } from '../simulator/http';
import { startFeedConsumer } from './consumer';
import type { FeedStore } from './feed-store';

export type FeedSource =
  { kind: 'provider'; url: string; token: string } | { kind: 'simulator'; entry: string; speed: number; execArgv?: string[] };

export interface StartFeedOptions {
  store: FeedStore;
  source: FeedSource;
  onError: (error: unknown, what: string) => void;
}

export interface RunningFeed {
  url: string;
  /** The simulator child's pid when the site started one. */
  simulatorPid?: number;
  stop(): Promise<void>;
}

export async function startSportsbookFeed(options: StartFeedOptions): Promise<RunningFeed> {
  const { source, store } = options;
  let simulator: SimulatorProcess | undefined;
  if (source.kind === 'simulator')
    simulator = await startSimulatorProcess({
      entry: source.entry,
      execArgv: source.execArgv,
      env: { FEED_TOKEN: DEMO_FEED_TOKEN, FEED_SPEED: String(source.speed) },
    });
  const url = simulator?.url ?? (source.kind === 'provider' ? source.url : '');
  const adapter = createHttpFeedAdapter({
    url,
    token: source.kind === 'provider' ? source.token : DEMO_FEED_TOKEN,
    lastApplied: () => store.lastApplied(),
    onFixture: (fixture) => store.upsertFixture(fixture),
    onError: options.onError,
  });
  const consumer = startFeedConsumer({ adapter, store, onError: options.onError });
  return {
    url,
    simulatorPid: simulator?.pid,
    async stop() {
      await consumer.stop();
      await simulator?.stop();
    },
  };
}
