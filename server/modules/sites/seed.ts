/** A site as content/sites.json declares it, written by the content seed (server/modules/content/seed.ts). */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sites } from './tables';

export interface SiteSeed {
  id: string;
  name: string;
  hosts: string[];
  defaultCurrency: string;
  currencies: string[];
  locales: string[];
  settings?: Record<string, unknown>;
  isMaintenance?: boolean;
}

/** Adds or refreshes a site; sortOrder is its place in sites.json. */
export async function seedSite(db: Database, seed: SiteSeed, sortOrder: number): Promise<void> {
  await db
    .insert(sites)
    .values({ ...seed, settings: seed.settings ?? {}, sortOrder })
    // Stored settings win; settings new to content/ are added (as for content entries).
    .onConflictDoUpdate({ target: sites.id, set: { settings: sql`excluded.settings || ${sites.settings}` } });
}
