/**
 * Issue 11: live-event streams have a cap per client address and in total, a closed stream frees
 * its slot, and a reader that stops taking events is dropped once its unsent events pass a bound
 * (200 stalled streams took 100 MB). The routes run in a Hono app with a hub the test drives.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Hono } from 'hono';
import type { AppEnv } from '../../web/app-env';
import type { LiveEvent, LiveEvents } from './events';
import { createLiveRoutes } from './routes';
import type { LiveStreamLimits } from './stream-slots';

type Listener = (event: LiveEvent) => void;

/** A hub whose events the test sends; the first event of a subscription is a small state, as the real one. */
function drivenHub() {
  const listeners = new Set<Listener>();
  const hub: LiveEvents = {
    async subscribe(_table, listener) {
      listeners.add(listener);
      listener({ event: 'state', data: { round: null } as never });
      return () => listeners.delete(listener);
    },
  };
  return {
    hub,
    listeners,
    tick(n: number) {
      const event = { event: 'tick', data: { round_id: 'r1', multiplier: n, server_time: 'x'.repeat(64) } } as const;
      for (const listener of listeners) listener(event);
    },
  };
}

function liveApp(hub: LiveEvents, limits: Partial<LiveStreamLimits>) {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('services', { liveGames: { tableFor: async (siteId: string, sysname: string) => ({ siteId, sysname }) } } as never);
    c.set('site', { id: 'site-1' } as never);
    c.set('identity', { ip: c.req.header('x-client') ?? '10.0.0.1' } as never);
    await next();
  });
  app.route('/platform/live', createLiveRoutes({ limits, hubFor: () => hub }));
  return app;
}

const opened: ReadableStreamDefaultReader<Uint8Array>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((reader) => reader.cancel().catch(() => undefined)));
});

async function open(app: Hono<AppEnv>, client: string) {
  const response = await app.request('http://127.0.0.1/platform/live/crash/events', { headers: { 'x-client': client } });
  const reader = response.status === 200 ? response.body?.getReader() : undefined;
  if (reader) opened.push(reader);
  return { response, reader };
}

/** Reads a stream until it ends, or until the text read matches. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, isEnough: (text: string) => boolean = () => false) {
  const decoder = new TextDecoder();
  let text = '';
  while (!isEnough(text)) {
    const { done, value } = await reader.read();
    if (done) return { text, isEnded: true };
    text += decoder.decode(value, { stream: true });
  }
  return { text, isEnded: false };
}

describe('live-event streams per client and in total (issue 11)', () => {
  it('refuses the (N+1)th stream from one address with 429 TooManyRequestsException; other addresses still connect', async () => {
    const { hub } = drivenHub();
    const app = liveApp(hub, { perClient: 2, total: 10 });
    expect((await open(app, '10.0.0.1')).response.status).toBe(200);
    expect((await open(app, '10.0.0.1')).response.status).toBe(200);
    const refused = (await open(app, '10.0.0.1')).response;
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect(((await refused.json()) as { error: { type: string } }).error.type).toBe('TooManyRequestsException');
    expect((await open(app, '10.0.0.2')).response.status).toBe(200);
  });

  it('refuses past the total cap whoever asks', async () => {
    const { hub } = drivenHub();
    const app = liveApp(hub, { perClient: 5, total: 2 });
    expect((await open(app, '10.0.1.1')).response.status).toBe(200);
    expect((await open(app, '10.0.1.2')).response.status).toBe(200);
    expect((await open(app, '10.0.1.3')).response.status).toBe(429);
  });

  it('of many streams opened at once from one address, exactly the cap is served (a race)', async () => {
    const { hub } = drivenHub();
    const app = liveApp(hub, { perClient: 3, total: 100 });
    const answers = await Promise.all(Array.from({ length: 12 }, () => open(app, '10.0.2.1')));
    const statuses = answers.map(({ response }) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
  });

  it('closing a stream frees its slot', async () => {
    const { hub, listeners } = drivenHub();
    const app = liveApp(hub, { perClient: 1, total: 10 });
    const first = await open(app, '10.0.3.1');
    expect(first.response.status).toBe(200);
    expect((await open(app, '10.0.3.1')).response.status).toBe(429);
    await first.reader?.cancel();
    await vi.waitFor(() => expect(listeners.size).toBe(0));
    expect((await open(app, '10.0.3.1')).response.status).toBe(200);
  });
});

describe('back-pressure on live-event streams (issue 11: a stalled reader is dropped)', () => {
  it('drops a reader that stops reading once its unsent events pass the bound, and keeps one that reads', async () => {
    const driven = drivenHub();
    const app = liveApp(driven.hub, { perClient: 10, total: 10, maxBufferBytes: 4096 });
    const stalled = await open(app, '10.0.4.1');
    const reading = await open(app, '10.0.4.2');
    if (!stalled.reader || !reading.reader) throw new Error('both streams should be open');
    const ticks = 200; // about 20 kB of events, five times the bound
    let readText = '';
    for (let n = 1; n <= ticks; n++) {
      driven.tick(n);
      // The reading client takes each tick before the next is sent, as a live client would.
      readText += (await readUntil(reading.reader, (text) => (readText + text).includes(`"multiplier":${n},`))).text;
    }
    expect(driven.listeners.size).toBe(1);
    const left = await readUntil(stalled.reader);
    expect(left.isEnded).toBe(true);
    expect(left.text.split('event: tick').length - 1).toBeLessThan(ticks);
    expect(readText.split('event: tick').length - 1).toBe(ticks);
  });

  it('a dropped stream frees its slot', async () => {
    const driven = drivenHub();
    const app = liveApp(driven.hub, { perClient: 1, total: 10, maxBufferBytes: 1024 });
    expect((await open(app, '10.0.5.1')).response.status).toBe(200);
    for (let n = 1; n <= 50; n++) driven.tick(n);
    await vi.waitFor(() => expect(driven.listeners.size).toBe(0));
    expect((await open(app, '10.0.5.1')).response.status).toBe(200);
  });
});
