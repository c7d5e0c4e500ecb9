/**
 * The sportsbook's service (issue 14): the feed's store (store/feed-store.ts) that the feed adapter
 * feeds, and the offer's reads for the product API.
 */
import type { Database } from '../../db/client';
import { createOfferReads } from './offer';
import { createFeedStore, type EffectsHandler } from './store/feed-store';

export interface SportsbookServiceDeps {
  db: Database;
  /** The ticket side's hook on settlements, cancels and their rollbacks; none until tickets exist. */
  onEffects?: EffectsHandler;
  livenessTimeoutMs?: number;
  now?: () => number;
}

export function createSportsbookService(deps: SportsbookServiceDeps) {
  const feed = createFeedStore(deps);
  return { feed, ...createOfferReads(deps.db) };
}

export type SportsbookService = ReturnType<typeof createSportsbookService>;
