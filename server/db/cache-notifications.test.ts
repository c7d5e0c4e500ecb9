/**
 * Issue 12: "Caches are invalidated across processes so an operator's edit shows at once
 * everywhere." An edit made straight in the database (as an operator's SQL or a back-office tool
 * would, without calling any service) reaches the cached site list and the cached translations
 * through the change notification, long before the caches' 30 s safety-net age.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { eventually } from '../../test/eventually';
import { testDatabaseKinds } from '../../test/databases';
import { editTranslationInDatabase } from '../../test/content-edits';
import { sites } from './schema';

describe.each(testDatabaseKinds())('cache invalidation by change notification on %s (issue 12)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows a site renamed in the database on the next reads, with nobody calling invalidate()', async () => {
    const site = await t.services.sites.resolveSite('127.0.0.1');
    // Read twice so the list is cached.
    expect((await t.services.sites.resolveSite('127.0.0.1')).name).toBe(site.name);
    const renamed = `${site.name} renamed ${Date.now()}`;
    await t.db.update(sites).set({ name: renamed }).where(eq(sites.id, site.id));
    const seen = await eventually(
      () => t.services.sites.resolveSite('127.0.0.1'),
      (value) => value.name === renamed,
    );
    expect(seen.name).toBe(renamed);
  });

  it('shows a translation edited in the database on the next reads, with nobody calling invalidate()', async () => {
    const site = await t.services.sites.resolveSite('127.0.0.1');
    const before = await t.services.content.getTranslations(site.id, 'en');
    const key = Object.keys(before)[0];
    if (!key) throw new Error('the seed has no English translations');
    const edited = `edited ${Date.now()}`;
    await editTranslationInDatabase(t.db, { siteId: site.id, locale: 'en', key, text: edited });
    const seen = await eventually(
      () => t.services.content.getTranslations(site.id, 'en'),
      (table) => table[key] === edited,
    );
    expect(seen[key]).toBe(edited);
  });
});
