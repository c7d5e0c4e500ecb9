/**
 * Prices to open pages in real time (issue 14: "prices reach open pages in real time (server-sent
 * events)"): GET /platform/sportsbook/prices?event_id=…&locale=… streams `prices` events, each the
 * event with all its markets as sportsbook.getEvent answers; without event_id, every event in play
 * with its main market, as in sportsbook.getEvents. A first `prices` event carries the current
 * state, so a page never waits for the next change. Streams are capped per client address and in
 * total with the live tables' limits (LIVE_STREAMS_*), in a pool of their own.
 */
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { ApiError } from '#common/errors';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#common/locale';
import { marketKey, marketTypesOf } from '#common/sportsbook/catalogue';
import type { SportEventDetail, SportEventListItem } from '#common/contract/sportsbook';
import type { AppEnv } from '../../web/app-env';
import { createStreamSlots, DEFAULT_LIVE_STREAM_LIMITS, type LiveStreamLimits } from '../live-games';
import { LIVE_STATUSES } from './offer';
import type { SportsbookService } from './service';

const KEEPALIVE_MS = 15_000;
const RETRY_AFTER_S = 30;
const EVENT_ID = /^[\w:.-]{1,64}$/;

function invalid(c: Context<AppEnv>, field: string): Response {
  return c.json({ error: new ApiError('InvalidParameterException', `Invalid parameter: ${field}`, { field }).toBody() }, 400);
}

/** The list item of an event in play: the event and its main market only. */
function listItem(detail: SportEventDetail): SportEventListItem {
  const [main] = marketTypesOf(detail.event.sport);
  const key = main && marketKey(main);
  const market = detail.groups.flatMap((group) => group.markets).find((candidate) => candidate.key === key);
  return { ...detail.event, main_market: market ?? null };
}

/** What a stream sends after a change of `eventId`, or nothing when the change is not its business. */
async function update(service: SportsbookService, eventId: string, only: string | undefined, locale: Locale) {
  if (only !== undefined && eventId !== only) return undefined;
  const detail = await service.getEvent(eventId, locale).catch(() => undefined);
  if (!detail) return undefined;
  if (only !== undefined) return detail;
  return LIVE_STATUSES.includes(detail.event.status) ? listItem(detail) : undefined;
}

export function createSportsbookRoutes(options: { limits?: Partial<LiveStreamLimits> } = {}) {
  const limits = { ...DEFAULT_LIVE_STREAM_LIMITS, ...options.limits };
  const slots = createStreamSlots(limits);
  const routes = new Hono<AppEnv>();
  routes.get('/prices', async (c) => {
    const service = c.get('services').sportsbook;
    const only = c.req.query('event_id');
    const locale = c.req.query('locale') ?? c.get('site').locales[0] ?? DEFAULT_LOCALE;
    if (!isLocale(locale)) return invalid(c, 'locale');
    if (only !== undefined && (!EVENT_ID.test(only) || !(await service.getEvent(only, locale).catch(() => undefined))))
      return invalid(c, 'event_id');
    const slot = slots.take(c.get('identity').ip);
    if ('refused' in slot) {
      c.header('Retry-After', String(RETRY_AFTER_S));
      return c.json(
        { error: new ApiError('TooManyRequestsException', 'Too many streams', { retry_after: RETRY_AFTER_S }).toBody() },
        429,
      );
    }
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      // Changed events waiting to be sent: a burst of changes to one event is sent once, as it stands.
      const changed = new Set<string>();
      let wake: (() => void) | undefined;
      const unsubscribe = service.feed.onChange((eventId) => {
        changed.add(eventId);
        wake?.();
      });
      stream.onAbort(() => wake?.());
      try {
        if (only !== undefined) changed.add(only);
        else for (const eventId of await service.liveEventIds()) changed.add(eventId);
        while (!stream.aborted) {
          for (const eventId of [...changed]) {
            changed.delete(eventId);
            const data = await update(service, eventId, only, locale);
            if (data) await stream.writeSSE({ event: 'prices', data: JSON.stringify(data) });
          }
          if (changed.size > 0) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, KEEPALIVE_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          if (changed.size === 0 && !stream.aborted) await stream.write(': keepalive\n\n');
        }
      } finally {
        unsubscribe();
        slot.release();
      }
    });
  });
  return routes;
}
