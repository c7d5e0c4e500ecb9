/**
 * Content and configuration read from the database (seeded from content/). Configuration
 * sections feed /nfx/cms-config/{locale}; collections feed the content platform under /cms.
 */
import { createHash } from 'node:crypto';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { contentEntries } from './tables';
import type { Locale } from '#common/locale';
import type { VersionedTranslations } from '#common/translations';
import { createReloadingCache } from '../../db/reloading-cache';

/** Named sections of the configuration service (spec §7). */
export const CONFIG_SECTIONS = [
  'settings-seo',
  'prazer-config',
  'cashier-config',
  'auth-config',
  'forms-config',
  'games-config',
  'search-config',
  'loyalty',
  'meta-data-tool',
] as const;
export type ConfigSection = (typeof CONFIG_SECTIONS)[number];

export interface ContentEntry {
  id: number;
  slug: string;
  locale: string;
  data: Record<string, unknown>;
  publishedAt: string | null;
  updatedAt: string;
}

export interface ListQuery {
  siteId: string;
  collection: string;
  locale: Locale;
  /** Equality filters on the slug or on top-level data fields. */
  filters?: Record<string, string>;
  offset?: number;
  limit?: number;
}

/** Only the safety net for a lost change notification: older values are answered while they reload. */
const CACHE_MAX_AGE_MS = 30_000;
const MAX_CACHED_KEYS = 1_000;

function toEntry(row: typeof contentEntries.$inferSelect): ContentEntry {
  return {
    id: row.id,
    slug: row.slug,
    locale: row.locale,
    data: row.data,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function createContentService(db: Database) {
  const versionedTables = new WeakMap<object, VersionedTranslations>();
  // Configuration and translations are read on every page: cached per process until the database
  // says content changed (invalidate(), from the change notification every process listens to).
  const cache = createReloadingCache({ maxAgeMs: CACHE_MAX_AGE_MS, maxEntries: MAX_CACHED_KEYS });
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => cache.get(key, load);

  /** The flat translation table of a site and locale (content, not code). */
  function getTranslations(siteId: string, locale: Locale): Promise<Record<string, string>> {
    return cached(`translations:${siteId}:${locale}`, async () => {
      const entry = await findEntry(siteId, 'translations', locale, 'common');
      return (entry?.data ?? {}) as Record<string, string>;
    });
  }

  /** Content lists are read by every page render; they are cached like configuration. */
  function list(query: ListQuery): Promise<{ entries: ContentEntry[]; total: number }> {
    return cached(`list:${JSON.stringify(query)}`, () => listFromDatabase(query));
  }

  async function listFromDatabase(query: ListQuery): Promise<{ entries: ContentEntry[]; total: number }> {
    const conditions: SQL[] = [
      eq(contentEntries.siteId, query.siteId),
      eq(contentEntries.collection, query.collection),
      eq(contentEntries.locale, query.locale),
    ];
    for (const [field, value] of Object.entries(query.filters ?? {})) {
      if (field === 'slug') conditions.push(eq(contentEntries.slug, value));
      else conditions.push(sql`${contentEntries.data} ->> ${field} = ${value}`);
    }
    const where = and(...conditions);
    const rows = await db
      .select()
      .from(contentEntries)
      .where(where)
      .orderBy(asc(contentEntries.id))
      .offset(query.offset ?? 0)
      .limit(Math.min(query.limit ?? 25, 100));
    const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(contentEntries).where(where);
    return { entries: rows.map(toEntry), total: count?.total ?? 0 };
  }

  async function findEntry(siteId: string, collection: string, locale: Locale, slug: string) {
    const { entries } = await list({ siteId, collection, locale, filters: { slug }, limit: 1 });
    return entries[0];
  }

  return {
    list,
    findEntry,
    /** Content rows changed: the next read loads them again (cache-notifications.ts calls this). */
    invalidate() {
      cache.invalidate();
    },
    /** Changes whenever content changes: keys of what was rendered from it (the anonymous page cache). */
    version: () => cache.version(),
    /**
     * The collections that hold content on any site: the content platform's known content
     * types. One cached set, so asking for random names costs neither queries nor memory.
     */
    listCollections(): Promise<ReadonlySet<string>> {
      return cached('collections', async () => {
        const rows = await db.selectDistinct({ collection: contentEntries.collection }).from(contentEntries);
        return new Set(rows.map((row) => row.collection));
      });
    },
    async findById(siteId: string, collection: string, id: number): Promise<ContentEntry | undefined> {
      const rows = await db
        .select()
        .from(contentEntries)
        .where(and(eq(contentEntries.siteId, siteId), eq(contentEntries.collection, collection), eq(contentEntries.id, id)))
        .limit(1);
      return rows[0] ? toEntry(rows[0]) : undefined;
    },
    /** All configuration sections of a site and locale, keyed by section name. */
    getConfig(siteId: string, locale: Locale): Promise<Record<ConfigSection, Record<string, unknown>>> {
      return cached(`config:${siteId}:${locale}`, async () => {
        const { entries } = await list({ siteId, collection: 'config', locale, limit: 100 });
        const sections = Object.fromEntries(CONFIG_SECTIONS.map((name) => [name, {}])) as Record<
          ConfigSection,
          Record<string, unknown>
        >;
        for (const entry of entries) {
          if ((CONFIG_SECTIONS as readonly string[]).includes(entry.slug)) sections[entry.slug as ConfigSection] = entry.data;
        }
        return sections;
      });
    },
    /** The flat translation table of a site and locale (content, not code). */
    getTranslations,
    /**
     * The table with a version that changes with its text: pages name the version and the browser
     * loads the table once per version from /platform/translations (issue 12: the table was half
     * of every page's hydration data). The version is hashed once per loaded table.
     */
    async getVersionedTranslations(siteId: string, locale: Locale): Promise<VersionedTranslations> {
      const table = await getTranslations(siteId, locale);
      let versioned = versionedTables.get(table);
      if (!versioned) {
        const version = createHash('sha256').update(JSON.stringify(table)).digest('base64url').slice(0, 16);
        versioned = Object.freeze({ version, table: Object.freeze(table) });
        versionedTables.set(table, versioned);
      }
      return versioned;
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;
