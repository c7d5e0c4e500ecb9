/**
 * The sportsbook's service (issue 14): the feed's store (store/feed-store.ts) that the feed adapter
 * feeds, the offer's reads for the product API, and the retention of the feed's message log.
 */
import type { Database } from '../../db/client';
import { createOfferReads } from './offer';
import { createFeedStore, type EffectsHandler } from './store/feed-store';
import { FEED_MESSAGE_RETENTION_MS, pruneFeedMessages } from './store/prune';

export interface SportsbookServiceDeps {
  db: Database;
  /** The ticket side's hook on settlements, cancels and their rollbacks; none until tickets exist. */
  onEffects?: EffectsHandler;
  livenessTimeoutMs?: number;
  now?: () => number;
}

export function createSportsbookService(deps: SportsbookServiceDeps) {
  const feed = createFeedStore(deps);
  const now = deps.now ?? Date.now;
  return {
    feed,
    ...createOfferReads(deps.db),
    /** The retention job: the feed log's applied messages of finished events past the window go (store/prune.ts). */
    pruneFeedMessages: () => pruneFeedMessages(deps.db, new Date(now() - FEED_MESSAGE_RETENTION_MS)),
  };
}

export type SportsbookService = ReturnType<typeof createSportsbookService>;
