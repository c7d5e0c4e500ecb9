import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { expectedEntry, sharedSlugs, siteSeed } from '../../test/fixtures';

describe.each(testDatabaseKinds())(
  'robots.txt and sitemap.xml on %s (spec §7 robots, spec §2 every route in en and /it)',
  (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(() => t?.close());

    it.each(['127.0.0.1', 'lagoon.localhost'])(
      'serves robots.txt on %s with the configured rules and a Sitemap line of that host',
      async (host) => {
        const response = await t.request('/robots.txt', { host });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
        const text = await response.text();
        const site = host === 'lagoon.localhost' ? 'lagoon' : 'aurora';
        const robots = String(expectedEntry(site, 'en', 'config', 'settings-seo')?.robots ?? '');
        for (const rule of robots.split('\n').filter(Boolean)) expect(text).toContain(rule);
        expect(text.split('\n')).toContain(`Sitemap: http://${host}/sitemap.xml`);
      },
    );

    it('lists every public page and content page in sitemap.xml, in English and under /it, with hreflang alternates', async () => {
      const response = await t.request('/sitemap.xml');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/xml/);
      const xml = await response.text();
      expect(xml.startsWith('<?xml')).toBe(true);
      const origin = 'http://127.0.0.1';
      const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
      const paths = ['/', '/promotions', '/gamehall', ...sharedSlugs('en', 'pages').map((slug) => `/${slug}`)];
      for (const path of paths) {
        expect(locs).toContain(origin + path);
        expect(locs).toContain(origin + (path === '/' ? '/it' : `/it${path}`));
      }
      // Pages that need a player or a parameter are not listed.
      const listedPaths = locs.map((loc) => new URL(loc ?? '').pathname);
      expect(listedPaths.filter((path) => /\/(cashier|profile)|:/.test(path))).toEqual([]);
      // Each URL lists both language versions.
      expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="en" href="${origin}/promotions"/>`);
      expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="it" href="${origin}/it/promotions"/>`);
      expect(xml.match(/<url>/g)?.length).toBe(locs.length);
      expect(new Set(locs).size).toBe(locs.length);
    });

    it('builds sitemap URLs on the host asked for', async () => {
      const host = siteSeed('lagoon').hosts[0];
      const xml = await (await t.request('/sitemap.xml', { host })).text();
      expect(xml).toContain(`<loc>http://${host}/it/promotions</loc>`);
      expect(xml).not.toContain('127.0.0.1');
    });
  },
);
