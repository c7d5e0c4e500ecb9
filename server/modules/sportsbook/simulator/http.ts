/**
 * The feed simulator's own HTTP protocol (issue 14: the odds feed talks to us over its own
 * protocol, even the demo one). Every route but /health asks for the shared token as a bearer:
 *
 *   GET  /feed/v1/fixtures   the scheduled fixtures (who, where, when), like real feeds' fixture API
 *   GET  /feed/v1/stream     Server-Sent Events, one `message` event per feed message as it goes out
 *   POST /feed/v1/recovery   {"after": {"<event id>": <last applied sequence>}} → every message due so
 *                            far after those (events not named: from their first message)
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { FeedMessageInput } from '../feed/messages';
import type { FeedProvider } from './provider';

/** The published token of the demo simulator: any reader of this repository knows it, so only demo sites take it. */
export const DEMO_FEED_TOKEN = 'feed-sandbox-only-not-a-secret';

/** Comment lines that keep idle proxies from closing the stream. */
const KEEPALIVE_MS = 15_000;

const recoveryBody = z.object({ after: z.record(z.string().max(64), z.number().int().nonnegative()).default({}) });

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer /, '') ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function createFeedSimulatorApp(provider: FeedProvider, token: string): Hono {
  const app = new Hono();
  app.get('/health', (c) => c.json({ ok: true }));
  app.use('/feed/*', async (c, next) => {
    if (!tokenMatches(c.req.header('authorization'), token)) return c.json({ error: 'unauthorized' }, 401);
    await next();
  });
  app.get('/feed/v1/fixtures', (c) => c.json({ fixtures: provider.fixtures() }));
  app.post('/feed/v1/recovery', async (c) => {
    const body = recoveryBody.safeParse(await c.req.json().catch(() => undefined));
    if (!body.success) return c.json({ error: 'the body must be {"after": {"<event id>": <sequence>}}' }, 400);
    return c.json({ messages: provider.recovery(body.data.after) });
  });
  app.get('/feed/v1/stream', (c) =>
    streamSSE(c, async (stream) => {
      const queue: FeedMessageInput[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = provider.subscribe((message) => {
        queue.push(message);
        wake?.();
      });
      stream.onAbort(() => wake?.());
      try {
        while (!stream.aborted) {
          for (let message = queue.shift(); message; message = queue.shift())
            await stream.writeSSE({ event: 'message', data: JSON.stringify(message) });
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, KEEPALIVE_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          if (queue.length === 0 && !stream.aborted) await stream.write(': keepalive\n\n');
        }
      } finally {
        unsubscribe();
      }
    }),
  );
  return app;
}
