import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { CONTENT_DIR, readSiteSeeds } from '../../../test/fixtures';
import { runMigrations } from '../../db/migrate';
import { sites } from '../../db/schema';
import { contentEntries } from './tables';
import { seedContent } from './seed';

describe.each(testDatabaseKinds())('seeding content on %s (an operator edit survives a restart; new content keys are added)', (kind) => {
  let database: TestDatabase;
  let contentDir: string;
  const siteId = readSiteSeeds()[0]?.id ?? '';
  const translationsFile = () => join(contentDir, 'shared', 'en', 'translations', 'common.json');

  beforeAll(async () => {
    // A private copy of content/, so the test can change it like a new release would.
    contentDir = join(mkdtempSync(join(tmpdir(), 'seed-test-')), 'content');
    cpSync(CONTENT_DIR, contentDir, { recursive: true });
    database = await createTestDatabase(kind);
    await runMigrations(database.handle);
    await seedContent(database.handle.db, contentDir);
  });
  afterAll(async () => {
    await database?.drop();
    if (contentDir) rmSync(join(contentDir, '..'), { recursive: true, force: true });
  });

  async function translations(): Promise<Record<string, unknown>> {
    const [row] = await database.handle.db
      .select({ data: contentEntries.data })
      .from(contentEntries)
      .where(and(eq(contentEntries.siteId, siteId), eq(contentEntries.collection, 'translations'), eq(contentEntries.locale, 'en'), eq(contentEntries.slug, 'common')));
    return row?.data ?? {};
  }
  async function counts() {
    const [entries] = await database.handle.db.select({ n: sql<number>`count(*)::int` }).from(contentEntries);
    const [siteRows] = await database.handle.db.select({ n: sql<number>`count(*)::int` }).from(sites);
    return { entries: entries?.n, sites: siteRows?.n };
  }

  it('seeds every site of sites.json and the shared translations', async () => {
    const seeded = await translations();
    const file = JSON.parse(readFileSync(translationsFile(), 'utf8')) as Record<string, string>;
    expect(seeded).toEqual(file);
    expect((await counts()).sites).toBe(readSiteSeeds().length);
  });

  it('keeps an operator’s edit of a translation, adds a key new in content, and adds no rows when run again', async () => {
    const file = JSON.parse(readFileSync(translationsFile(), 'utf8')) as Record<string, string>;
    const [editedKey, untouchedKey] = Object.keys(file);
    if (!editedKey || !untouchedKey) throw new Error('translations need two keys');
    const operatorValue = `${file[editedKey]} (edited by an operator)`;
    await database.handle.db.execute(
      sql`UPDATE content_entries SET data = jsonb_set(data, ARRAY[${editedKey}]::text[], to_jsonb(${operatorValue}::text))
          WHERE site_id = ${siteId} AND collection = 'translations' AND locale = 'en' AND slug = 'common'`,
    );
    const before = await counts();

    // The next release changes the edited key, and adds a key and a page of its own.
    const newKey = 'seed_test.new_key';
    expect(file).not.toHaveProperty(newKey);
    const released = { ...file, [editedKey]: 'Value of the next release', [newKey]: 'Brand new text' };
    writeFileSync(translationsFile(), JSON.stringify(released));
    writeFileSync(join(contentDir, 'shared', 'en', 'pages', 'seed-test-new-page.json'), JSON.stringify({ title: 'New page' }));
    await seedContent(database.handle.db, contentDir);

    const after = await translations();
    expect(after[editedKey]).toBe(operatorValue);
    expect(after[newKey]).toBe(released[newKey]);
    expect(after[untouchedKey]).toBe(file[untouchedKey]);
    // One new page row per site that has English; nothing else added.
    const sitesWithEnglish = readSiteSeeds().filter((site) => site.locales.includes('en')).length;
    expect(await counts()).toEqual({ entries: (before.entries ?? 0) + sitesWithEnglish, sites: before.sites });
  });

  it('keeps an operator’s change to a site row and its settings, and adds settings new in sites.json', async () => {
    const [stored] = await database.handle.db.select({ settings: sites.settings }).from(sites).where(eq(sites.id, siteId));
    const [editedSetting] = Object.keys(stored?.settings ?? {});
    if (!editedSetting) throw new Error(`site ${siteId} has no settings to edit`);
    await database.handle.db
      .update(sites)
      .set({ name: 'Renamed by operator', settings: { ...stored?.settings, [editedSetting]: 'operator value' } })
      .where(eq(sites.id, siteId));

    const seeds = readSiteSeeds().map((seed) => (seed.id === siteId ? { ...seed, settings: { ...seed.settings, seed_test_new_setting: 7 } } : seed));
    writeFileSync(join(contentDir, 'sites.json'), JSON.stringify(seeds));
    await seedContent(database.handle.db, contentDir);

    const [row] = await database.handle.db.select({ name: sites.name, settings: sites.settings }).from(sites).where(eq(sites.id, siteId));
    expect(row?.name).toBe('Renamed by operator');
    expect(row?.settings[editedSetting]).toBe('operator value');
    expect(row?.settings.seed_test_new_setting).toBe(7);
  });
});
