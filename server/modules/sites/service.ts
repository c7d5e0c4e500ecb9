/**
 * Sites: a request's host picks the site; an unknown host gets the default site. Rows change
 * rarely, so they are cached per process until the database says they changed (invalidate(), from
 * the change notification every process listens to), reloaded by one caller at a time.
 */
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Executor } from '../../db/retry';
import { sites } from './tables';
import { createReloadingCache } from '../../db/reloading-cache';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#common/locale';

export type SiteRow = typeof sites.$inferSelect;

export interface Site {
  id: string;
  name: string;
  hosts: string[];
  defaultCurrency: string;
  currencies: string[];
  locales: Locale[];
  settings: Record<string, unknown>;
  isMaintenance: boolean;
}

/** Only the safety net for a lost change notification: an older list is answered while it reloads. */
const CACHE_MAX_AGE_MS = 30_000;

/**
 * Operators must keep players of some jurisdictions out: a site lists them in
 * settings.blocked_countries (ISO codes) and their visitors get the forbidden page.
 */
export function isCountryBlocked(site: Site, country: string | null): boolean {
  const blocked = site.settings.blocked_countries;
  return country !== null && Array.isArray(blocked) && blocked.includes(country);
}

export function hostnameOf(hostHeader: string | null | undefined): string {
  const host = (hostHeader ?? '').trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.split(':')[0] ?? '';
}

function toSite(row: SiteRow): Site {
  const locales = row.locales.filter(isLocale);
  return {
    id: row.id,
    name: row.name,
    hosts: row.hosts,
    defaultCurrency: row.defaultCurrency,
    currencies: row.currencies,
    locales: locales.length ? locales : [DEFAULT_LOCALE],
    settings: row.settings,
    isMaintenance: row.isMaintenance,
  };
}

export function createSiteService(db: Database) {
  const cache = createReloadingCache({ maxAgeMs: CACHE_MAX_AGE_MS, maxEntries: 1 });

  function listSites(): Promise<Site[]> {
    return cache.get('sites', async () => {
      const rows = await db.select().from(sites).orderBy(asc(sites.sortOrder), asc(sites.id));
      return rows.map(toSite);
    });
  }

  return {
    listSites,
    /** The site serving this Host header; the default site for an unknown host. */
    async resolveSite(hostHeader: string | null | undefined): Promise<Site> {
      const all = await listSites();
      const hostname = hostnameOf(hostHeader);
      const byHost = all.find((site) => site.hosts.includes(hostname));
      const fallback = all.find((site) => site.settings.isDefault === true) ?? all[0];
      const site = byHost ?? fallback;
      if (!site) throw new Error('No site is configured: run the seed');
      return site;
    },
    /**
     * A site's settings read in the caller's transaction, not from the cache: inside an open
     * transaction on the embedded database's one connection, a cache reload would wait for it.
     */
    async settingsIn(executor: Executor, siteId: string): Promise<Record<string, unknown> | undefined> {
      const [row] = await executor.select({ settings: sites.settings }).from(sites).where(eq(sites.id, siteId));
      return row?.settings;
    },
    /** The sites table changed: the next request reads it again (cache-notifications.ts calls this). */
    invalidate() {
      cache.invalidate();
    },
    /** Changes whenever the sites change: keys of what was rendered from them (the anonymous page cache). */
    version: () => cache.version(),
  };
}

export type SiteService = ReturnType<typeof createSiteService>;
