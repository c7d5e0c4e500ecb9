/**
 * Analytics events (spec §4, §9): events sent before the tracker is ready are deferred and
 * replayed once it is; every event carries a timestamp at a fixed +3 hour offset.
 */
export const ANALYTICS_OFFSET_HOURS = 3;

export interface AnalyticsEvent {
  name: string;
  params: Record<string, unknown>;
}

/** ISO-like local time at UTC+3, e.g. 2026-11-22T07:05:00.000+03:00. */
export function analyticsTimestamp(at: Date): string {
  const shifted = new Date(at.getTime() + ANALYTICS_OFFSET_HOURS * 3_600_000);
  return `${shifted.toISOString().slice(0, -1)}+0${ANALYTICS_OFFSET_HOURS}:00`;
}

export function createTracker(send: (event: AnalyticsEvent) => Promise<unknown>, now: () => Date = () => new Date()) {
  let isReady = false;
  const deferred: AnalyticsEvent[] = [];

  function dispatch(event: AnalyticsEvent) {
    // Analytics must never break the page: a failed send is dropped.
    void send(event).catch(() => undefined);
  }

  return {
    track(name: string, params: Record<string, unknown> = {}) {
      const event = { name, params: { ...params, timestamp: analyticsTimestamp(now()) } };
      if (isReady) dispatch(event);
      else deferred.push(event);
    },
    /** The tracker is up: replay what was deferred, in order. */
    ready() {
      isReady = true;
      deferred.splice(0).forEach(dispatch);
    },
    pendingCount: () => deferred.length,
  };
}

export type Tracker = ReturnType<typeof createTracker>;

/** The browser's tracker, sending through events.handle in the page's language. */
export const siteTracker: Tracker | null =
  typeof window === 'undefined'
    ? null
    : createTracker(async (event) => {
        const { browserApi } = await import('./api/client');
        const lang = document.documentElement.lang === 'it' ? 'it' : 'en';
        return browserApi(lang).events.handle(event.name, event.params);
      });
