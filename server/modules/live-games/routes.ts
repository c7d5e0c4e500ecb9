/**
 * GET /platform/live/{sysname}/events: the live table's events as Server-Sent Events (spec §2
 * live games; docs/live-games.md). The current state comes first, so a reconnecting client is
 * up to date at once; a comment every 15 s keeps proxies from closing an idle stream.
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { ApiError } from '#common/errors';
import type { AppEnv } from '../../web/app-env';
import { createLiveEvents, type LiveEvent, type LiveEvents } from './events';
import type { LiveGamesService } from './service';

const SYSNAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const KEEPALIVE_MS = 15_000;

const hubs = new WeakMap<LiveGamesService, LiveEvents>();

function hubOf(service: LiveGamesService): LiveEvents {
  let hub = hubs.get(service);
  if (!hub) {
    hub = createLiveEvents(service);
    hubs.set(service, hub);
  }
  return hub;
}

export function createLiveRoutes() {
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
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      const queue: LiveEvent[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = await hubOf(service).subscribe(table, (event) => {
        queue.push(event);
        wake?.();
      });
      let isOpen = true;
      stream.onAbort(() => {
        isOpen = false;
        wake?.();
      });
      try {
        await stream.writeSSE({ event: 'hello', data: JSON.stringify({ sysname }), retry: 1000 });
        while (isOpen) {
          const event = queue.shift();
          if (event) {
            await stream.writeSSE({ event: event.event, data: JSON.stringify(event.data) });
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
    });
  });
  return routes;
}
