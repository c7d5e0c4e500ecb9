/**
 * Issue 12: a page carries its translation table's version, not the table ("40 KB of it the whole
 * translations table on every page"); /platform/translations serves each version, cacheable for
 * ever under its own address, and an operator's edit makes a new version at once.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { eventually } from '../../test/eventually';
import { testDatabaseKinds } from '../../test/databases';
import { editTranslationInDatabase } from '../../test/content-edits';
import { translationsUrl } from '#common/translations';
import { IMMUTABLE_CACHE } from './static-assets';

describe.each(testDatabaseKinds())('translation tables beside the pages on %s (issue 12)', (kind) => {
  let t: TestApp;
  let siteId: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    siteId = (await t.services.sites.resolveSite('127.0.0.1')).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['en', 'it'] as const)(
    'serves the %s table of the version a page names, cached for ever, with an ETag that answers 304',
    async (locale) => {
      const { version, table } = await t.services.content.getVersionedTranslations(siteId, locale);
      const answer = await t.request(translationsUrl(locale, version));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe(IMMUTABLE_CACHE);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await answer.json()).toEqual(table);
      const again = await t.request(translationsUrl(locale, version), {
        headers: { 'if-none-match': answer.headers.get('etag') ?? '' },
      });
      expect(again.status).toBe(304);
    },
  );

  it.each(['br', 'gzip'] as const)('answers %s, compressed once per version, that decodes to the table', async (encoding) => {
    const { version, table } = await t.services.content.getVersionedTranslations(siteId, 'it');
    for (let i = 0; i < 2; i++) {
      const answer = await t.request(translationsUrl('it', version), { headers: { 'accept-encoding': encoding } });
      expect(answer.headers.get('content-encoding')).toBe(encoding);
      expect(answer.headers.get('vary')).toMatch(/accept-encoding/i);
      const body = Buffer.from(await answer.arrayBuffer());
      const plain = encoding === 'br' ? brotliDecompressSync(body) : gunzipSync(body);
      expect(JSON.parse(plain.toString())).toEqual(table);
      expect(body.length).toBeLessThan(plain.length / 3);
    }
  });

  it('answers a version that is no longer current with the current table, revalidated on every use', async () => {
    const { table } = await t.services.content.getVersionedTranslations(siteId, 'en');
    const answer = await t.request(translationsUrl('en', 'an-older-version'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect(await answer.json()).toEqual(table);
  });

  it.each(['xx.json', 'de.json', 'en.js', 'en'])('answers %s with 404, not a table or an error page', async (file) => {
    const answer = await t.request(`/platform/translations/${file}?v=1`);
    expect(answer.status).toBe(404);
  });

  it('gives an edited table a new version at once (change notification), whose address serves the new text', async () => {
    const before = await t.services.content.getVersionedTranslations(siteId, 'it');
    const key = Object.keys(before.table)[0];
    if (!key) throw new Error('the seed has no Italian translations');
    const edited = `modificato ${Date.now()}`;
    await editTranslationInDatabase(t.db, { siteId, locale: 'it', key, text: edited });
    const after = await eventually(
      () => t.services.content.getVersionedTranslations(siteId, 'it'),
      (versioned) => versioned.table[key] === edited,
    );
    expect(after.version).not.toBe(before.version);
    const answer = await t.request(translationsUrl('it', after.version));
    expect(answer.headers.get('cache-control')).toBe(IMMUTABLE_CACHE);
    expect(((await answer.json()) as Record<string, string>)[key]).toBe(edited);
    // The page rendered before the edit still loads a table, the current one, never cached for ever.
    const stale = await t.request(translationsUrl('it', before.version));
    expect(stale.headers.get('cache-control')).toBe('no-cache');
  });
});
