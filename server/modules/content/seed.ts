/**
 * Seeds sites, configuration and content from content/ into the database. Existing values win
 * (an operator's edit survives a restart); keys added to content/ since the last start are added.
 *
 * content/
 *   sites.json                                  the sites and their hosts
 *   shared/{locale}/{collection}/{slug}.json    content every site starts from
 *   sites/{siteId}/{locale}/{collection}/{slug}.json   a site's own values, merged over shared
 * A locale folder named _all applies to every locale, under that locale's own files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { seedSite, type SiteSeed } from '../sites';
import { contentEntries } from './tables';
import { projectRoot } from '../../project-root';

const ALL_LOCALES = '_all';

type Tree = Record<string, Record<string, Record<string, Record<string, unknown>>>>; // locale → collection → slug → data

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

function readTree(dir: string): Tree {
  const tree: Tree = {};
  if (!existsSync(dir)) return tree;
  for (const locale of readdirSync(dir)) {
    for (const collection of readdirSync(join(dir, locale))) {
      for (const file of readdirSync(join(dir, locale, collection)).filter((name) => name.endsWith('.json'))) {
        const slug = file.slice(0, -'.json'.length);
        ((tree[locale] ??= {})[collection] ??= {})[slug] = readJson(join(dir, locale, collection, file));
      }
    }
  }
  return tree;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects merge key by key; anything else in `over` replaces `base`. */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}

export async function seedContent(db: Database, contentDir = join(projectRoot(), 'content')): Promise<void> {
  const siteSeeds = readJson<SiteSeed[]>(join(contentDir, 'sites.json'));
  const shared = readTree(join(contentDir, 'shared'));
  for (const [index, seed] of siteSeeds.entries()) {
    await seedSite(db, seed, index);
    const own = readTree(join(contentDir, 'sites', seed.id));
    const rows = [];
    for (const locale of seed.locales) {
      const layers = [shared[ALL_LOCALES], shared[locale], own[ALL_LOCALES], own[locale]].filter((layer) => layer !== undefined);
      const collections = new Set(layers.flatMap((layer) => Object.keys(layer)));
      for (const collection of collections) {
        const slugs = new Set(layers.flatMap((layer) => Object.keys(layer[collection] ?? {})));
        for (const slug of slugs) {
          const data = layers.reduce<Record<string, unknown>>((merged, layer) => deepMerge(merged, layer[collection]?.[slug] ?? {}), {});
          rows.push({ siteId: seed.id, collection, locale, slug, data });
        }
      }
    }
    if (rows.length === 0) continue;
    await db
      .insert(contentEntries)
      .values(rows)
      .onConflictDoUpdate({
        target: [contentEntries.siteId, contentEntries.collection, contentEntries.locale, contentEntries.slug],
        // Stored keys win over seeded ones; only keys new to content/ are added.
        set: { data: sql`excluded.data || ${contentEntries.data}` },
      });
  }
}
