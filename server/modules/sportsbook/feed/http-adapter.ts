/**
 * The site's side of the feed's HTTP protocol (issue 14; the simulator serves it, see
 * simulator/http.ts): fixtures, a Server-Sent Events stream, and recovery. Each connection opens
 * the stream first, then asks for everything after the last sequence applied per event, so nothing
 * falls between the two; what arrives twice the store drops. A broken stream is opened again after
 * a pause, with the same recovery. Handler calls run one at a time, in arrival order.
 */
import type { FeedAdapter, FeedHandler } from './adapter';
import { parseFixture, type Fixture } from './fixtures';
import { parseFeedMessage, type FeedMessage } from './messages';
import { readServerSentEvents } from './sse';

export interface HttpFeedAdapterOptions {
  url: string;
  token: string;
  /** The last sequence applied per event (the store's cursors): where recovery resumes. */
  lastApplied: () => Promise<Record<string, number>>;
  /** Stores a fixture before its event's messages are applied. */
  onFixture: (fixture: Fixture) => Promise<void>;
  onError?: (error: unknown, what: string) => void;
  reconnectDelayMs?: number;
}

const DEFAULT_RECONNECT_DELAY_MS = 2_000;

export function createHttpFeedAdapter(options: HttpFeedAdapterOptions): FeedAdapter {
  const headers = { authorization: `Bearer ${options.token}` };
  const knownEvents = new Set<string>();
  let handler: FeedHandler | undefined;
  let stopped = false;
  let connection: AbortController | undefined;
  let running: Promise<void> | undefined;
  /** One handler call after another, in the order messages arrived. */
  let chain: Promise<void> = Promise.resolve();

  const report = (error: unknown, what: string) => options.onError?.(error, what);

  async function getJson<T>(path: string, init?: RequestInit): Promise<T> {
    const response = await fetch(`${options.url}${path}`, { ...init, headers: { ...headers, ...init?.headers } });
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  async function refreshFixtures(): Promise<void> {
    const { fixtures } = await getJson<{ fixtures: unknown[] }>('/feed/v1/fixtures');
    for (const raw of fixtures) {
      const fixture = parseFixture(raw);
      await options.onFixture(fixture);
      knownEvents.add(fixture.event_id);
    }
  }

  async function handle(message: FeedMessage): Promise<void> {
    if (message.type !== 'alive' && !knownEvents.has(message.event_id)) {
      await refreshFixtures();
      // Asked once: an event the provider has no fixture for must not cost a request per message.
      knownEvents.add(message.event_id);
    }
    await handler?.(message);
  }

  /** Queues a raw message; one that does not parse is reported and skipped, never applied. */
  function enqueue(raw: unknown): Promise<void> {
    chain = chain.then(async () => {
      try {
        await handle(parseFeedMessage(raw));
      } catch (error) {
        report(error, 'feed message');
      }
    });
    return chain;
  }

  async function recover(): Promise<void> {
    const after = await options.lastApplied();
    const { messages } = await getJson<{ messages: unknown[] }>('/feed/v1/recovery', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ after }),
    });
    for (const raw of messages) void enqueue(raw);
    await chain;
  }

  async function connectOnce(): Promise<void> {
    connection = new AbortController();
    const response = await fetch(`${options.url}/feed/v1/stream`, { headers, signal: connection.signal });
    if (!response.ok || !response.body) throw new Error(`the feed stream answered ${response.status}`);
    await refreshFixtures();
    // The stream is open: what goes out from here reaches us; recovery brings what went before.
    const streamed = readServerSentEvents(response.body, (data) => {
      try {
        void enqueue(JSON.parse(data));
      } catch (error) {
        report(error, 'feed message');
      }
    });
    // A stop aborts the stream while recovery may still run: its rejection gets a handler now and
    // is awaited below, never left unhandled in between.
    streamed.catch(() => undefined);
    await recover();
    await streamed;
  }

  async function run(): Promise<void> {
    while (!stopped) {
      try {
        await connectOnce();
      } catch (error) {
        if (!stopped) report(error, 'feed connection');
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, options.reconnectDelayMs ?? DEFAULT_RECONNECT_DELAY_MS));
    }
  }

  return {
    subscribe(next) {
      if (handler) throw new Error('the feed adapter has a handler already');
      handler = next;
      running = run();
    },
    recover,
    async stop() {
      stopped = true;
      connection?.abort();
      await running;
      await chain;
    },
  };
}
