/**
 * GET /platform/live/{sysname}/events: the live table's events as Server-Sent Events (spec §2
 * live games; docs/live-games.md). The current state comes first, so a reconnecting client is
 * up to date at once; a comment every 15 s keeps proxies from closing an idle stream.
 *
 * Streams are capped per client address and in total, and a reader too slow to take the events
 * (its unsent events past a bound) is dropped rather than buffered for (issue 11).
 */
import { Hono, type Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { ApiError } from '#common/errors';
import type { AppEnv } from '../../web/app-env';
import { createLiveEvents, type LiveEvent, type LiveEvents } from './events';
import type { LiveGamesService, LiveTable } from './service';
import { createStreamSlots, DEFAULT_LIVE_STREAM_LIMITS, type LiveStreamLimits, type SlotRefusal } from './stream-slots';

const SYSNAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const KEEPALIVE_MS = 15_000;
/** How long a refused client should wait before trying again. */
const RETRY_AFTER_S = 30;

const hubs = new WeakMap<LiveGamesService, LiveEvents>();

function hubOf(service: LiveGamesService): LiveEvents {
  let hub = hubs.get(service);
  if (!hub) {
    hub = createLiveEvents(service);
    hubs.set(service, hub);
  }
  return hub;
}

export interface LiveRoutesOptions {
  limits?: Partial<LiveStreamLimits>;
  /** The event hub of a service; tests hand in one they drive. */
  hubFor?: (service: LiveGamesService) => LiveEvents;
}

function refusal(c: Context<AppEnv>, refused: SlotRefusal): Response {
  const message =
    refused === 'client' ? 'Too many live streams from this address' : 'Too many live streams on the server, try again later';
  c.header('Retry-After', String(RETRY_AFTER_S));
  return c.json({ error: new ApiError('TooManyRequestsException', message, { retry_after: RETRY_AFTER_S }).toBody() }, 429);
}

/** An event as it goes on the wire, with its size counted against the reader's buffer bound. */
interface Pending {
  event: string;
  data: string;
  bytes: number;
}

function pending(event: LiveEvent): Pending {
  const data = JSON.stringify(event.data);
  return { event: event.event, data, bytes: Buffer.byteLength(data) + event.event.length + 16 };
}

/**
 * Sends the table's events to one reader until it leaves or falls too far behind: while a write
 * waits for the reader, new events queue; past maxBufferBytes the stream is aborted.
 */
async function forwardEvents(
  stream: SSEStreamingApi,
  subscribe: LiveEvents['subscribe'],
  table: LiveTable,
  maxBufferBytes: number,
) {
  const queue: Pending[] = [];
  let queuedBytes = 0;
  let wake: (() => void) | undefined;
  let isOpen = true;
  stream.onAbort(() => {
    isOpen = false;
    wake?.();
  });
  const unsubscribe = await subscribe(table, (event) => {
    const next = pending(event);
    queue.push(next);
    queuedBytes += next.bytes;
    if (queuedBytes > maxBufferBytes) stream.abort();
    wake?.();
  });
  try {
    await stream.writeSSE({ event: 'hello', data: JSON.stringify({ sysname: table.sysname }), retry: 1000 });
    while (isOpen) {
      const next = queue[0];
      if (next) {
        await stream.writeSSE({ event: next.event, data: next.data });
        queue.shift();
        queuedBytes -= next.bytes;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, KEEPALIVE_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
      if (isOpen && queue.length === 0) await stream.write(': keepalive\n\n');
    }
  } finally {
    unsubscribe();
  }
}

export function createLiveRoutes(options: LiveRoutesOptions = {}) {
  const limits = { ...DEFAULT_LIVE_STREAM_LIMITS, ...options.limits };
  const slots = createStreamSlots(limits);
  const hubFor = options.hubFor ?? hubOf;
  const routes = new Hono<AppEnv>();
  routes.get('/:sysname/events', async (c) => {
    const sysname = c.req.param('sysname');
    const notFound = () =>
      c.json(
        {
          error: new ApiError('InvalidParameterException', 'Invalid parameter: sysname', {
            field: 'sysname',
            errorType: 'wrongField',
          }).toBody(),
        },
        404,
      );
    if (!SYSNAME.test(sysname)) return notFound();
    const service = c.get('services').liveGames;
    let table;
    try {
      table = await service.tableFor(c.get('site').id, sysname);
    } catch {
      return notFound();
    }
    const slot = slots.take(c.get('identity').ip);
    if ('refused' in slot) return refusal(c, slot.refused);
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      try {
        await forwardEvents(stream, hubFor(service).subscribe, table, limits.maxBufferBytes);
      } finally {
        slot.release();
      }
    });
  });
  return routes;
}
