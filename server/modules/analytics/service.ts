/** Visits (GET /hit) and analytics events (events.handle), stored for reporting. */
import type { Database } from '../../db/client';
import { analyticsEvents, hits } from './tables';

export interface HitInput {
  siteId: string;
  visitorId: string;
  uid: number;
  referrer: string | null;
  trackId: string | null;
  seonSession: string | null;
  userAgent: string | null;
}

/**
 * A track id starting td_ carries a name and a value: td_{name}_{value} (spec §7). The value is
 * everything after the second underscore, so values may contain underscores themselves.
 */
export function splitTrackId(trackId: string | null): { name: string | null; value: string | null } {
  if (!trackId?.startsWith('td_')) return { name: null, value: null };
  const rest = trackId.slice(3);
  const cut = rest.indexOf('_');
  if (cut <= 0) return { name: rest || null, value: null };
  return { name: rest.slice(0, cut), value: rest.slice(cut + 1) || null };
}

export function createAnalyticsService(db: Database) {
  return {
    async recordHit(input: HitInput): Promise<void> {
      const track = splitTrackId(input.trackId);
      await db.insert(hits).values({ ...input, trackName: track.name, trackValue: track.value });
    },
    async recordEvent(input: {
      siteId: string;
      visitorId: string;
      uid: number;
      eventName: string;
      eventParams: Record<string, unknown>;
    }): Promise<void> {
      await db.insert(analyticsEvents).values(input);
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
