/**
 * What the integration tests compare answers with: the seed files under content/, read
 * straight from disk (never through the server code under test), and small request helpers.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SiteSeed } from '../server/modules/sites';

export const CONTENT_DIR = fileURLToPath(new URL('../content', import.meta.url));

/** A site as content/sites.json declares it: the shape the sites module seeds. */
export type SiteSeedFile = SiteSeed;

export function readSiteSeeds(): SiteSeedFile[] {
  return JSON.parse(readFileSync(join(CONTENT_DIR, 'sites.json'), 'utf8')) as SiteSeedFile[];
}

export function siteSeed(id: string): SiteSeedFile {
  const site = readSiteSeeds().find((seed) => seed.id === id);
  if (!site) throw new Error(`content/sites.json has no site ${id}`);
  return site;
}

/** The site a request for an unknown host falls back to: the one flagged isDefault. */
export function defaultSiteSeed(): SiteSeedFile {
  const seeds = readSiteSeeds();
  return seeds.find((seed) => seed.settings?.isDefault === true) ?? (seeds[0] as SiteSeedFile);
}

/** A shared content file, e.g. sharedContent('en', 'pages', 'about'). */
export function sharedContent<T = Record<string, unknown>>(locale: string, collection: string, slug: string): T {
  return JSON.parse(readFileSync(join(CONTENT_DIR, 'shared', locale, collection, `${slug}.json`), 'utf8')) as T;
}

/** Slugs of a shared collection in one locale folder, sorted. */
export function sharedSlugs(locale: string, collection: string): string[] {
  const dir = join(CONTENT_DIR, 'shared', locale, collection);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
}

/** A site's own content file (merged over the shared one by the seed), if it exists. */
export function siteContent<T = Record<string, unknown>>(
  siteId: string,
  locale: string,
  collection: string,
  slug: string,
): T | undefined {
  const file = join(CONTENT_DIR, 'sites', siteId, locale, collection, `${slug}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

/** The `name=value` pair of one cookie from an answer's Set-Cookie headers. */
export function cookiePair(response: Response, name: string): string | undefined {
  for (const header of response.headers.getSetCookie()) {
    const [pair = ''] = header.split(';');
    if (pair.startsWith(`${name}=`)) return pair.trim();
  }
  return undefined;
}

export function setCookieHeader(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((header) => header.startsWith(`${name}=`));
}

function readJsonIfExists(file: string): Record<string, unknown> | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : undefined;
}

function mergeObjects(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    const bothObjects = [current, value].every((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
    out[key] = bothObjects ? mergeObjects(current as Record<string, unknown>, value as Record<string, unknown>) : value;
  }
  return out;
}

/**
 * What the seed documents for one entry (content/ layering, see server/modules/content/seed.ts):
 * shared/_all, shared/{locale}, sites/{site}/_all, sites/{site}/{locale}, later layers' keys
 * winning, objects merged key by key. Undefined when no layer has the entry.
 */
export function expectedEntry(
  siteId: string,
  locale: string,
  collection: string,
  slug: string,
): Record<string, unknown> | undefined {
  const layers = [
    join(CONTENT_DIR, 'shared', '_all'),
    join(CONTENT_DIR, 'shared', locale),
    join(CONTENT_DIR, 'sites', siteId, '_all'),
    join(CONTENT_DIR, 'sites', siteId, locale),
  ]
    .map((dir) => readJsonIfExists(join(dir, collection, `${slug}.json`)))
    .filter((layer) => layer !== undefined);
  return layers.length ? layers.reduce((merged, layer) => mergeObjects(merged, layer), {}) : undefined;
}
