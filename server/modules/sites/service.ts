/**
 * Sites: a request's host picks the site; an unknown host gets the default site. Rows change
 * rarely, so they are cached for a few seconds per process: a second process sees an operator's
 * change as soon as its cache expires, never a divergent state.
 */
import { asc } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sites } from './tables';
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

const CACHE_TTL_MS = 5_000;

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
  let cache: { sites: Site[]; loadedAt: number } | undefined;

  async function listSites(): Promise<Site[]> {
    if (cache && Date.now() - cache.loadedAt < CACHE_TTL_MS) return cache.sites;
    const rows = await db.select().from(sites).orderBy(asc(sites.sortOrder), asc(sites.id));
    cache = { sites: rows.map(toSite), loadedAt: Date.now() };
    return cache.sites;
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
    invalidate() {
      cache = undefined;
    },
  };
}

export type SiteService = ReturnType<typeof createSiteService>;
