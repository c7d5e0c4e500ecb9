import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { readSiteSeeds, sharedContent } from '../../test/fixtures';

const activeSites = readSiteSeeds().filter((site) => !site.isMaintenance);

describe.each(testDatabaseKinds())('installation as an app on %s (spec §1: service worker at /sw.js with scope /)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  it.each(activeSites.map((site) => [site.hosts[0] ?? '', site.name] as const))(
    'names the site of host %s (%s) in /manifest.webmanifest',
    async (host, name) => {
      const response = await t.request('/manifest.webmanifest', { host });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/application\/manifest\+json/);
      const manifest = (await response.json()) as Record<string, unknown>;
      expect(manifest).toMatchObject({ name, short_name: name, scope: '/', display: 'standalone' });
      expect(String(manifest.start_url).startsWith('/')).toBe(true);
      expect(Array.isArray(manifest.icons) && manifest.icons.length > 0).toBe(true);
    },
  );

  it('serves /sw.js as JavaScript allowed to control scope /', async () => {
    const response = await t.request('/sw.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('service-worker-allowed')).toBe('/');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const source = await response.text();
    expect(source).toContain('/offline.html');
    expect(() => new Function(source)).not.toThrow();
  });

  it('serves /offline.html with the offline texts of every locale of the site', async () => {
    const response = await t.request('/offline.html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    for (const locale of ['en', 'it']) {
      const texts = sharedContent<Record<string, string>>(locale, 'translations', 'common');
      expect(html).toContain(`lang="${locale}"`);
      expect(html).toContain(texts['offline.header']);
    }
  });

  it.each(activeSites.map((site) => [site.hosts[0] ?? '', site] as const))(
    'draws /brand/logo.svg of host %s with the site name and brand colour',
    async (host, site) => {
      const response = await t.request('/brand/logo.svg', { host });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/svg+xml');
      const svg = await response.text();
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg).toContain(`>${site.name}</text>`);
      const colors = site.settings?.brandColors as { primary: string } | undefined;
      expect(svg).toContain(`stop-color="${colors?.primary}"`);
    },
  );

  it('answers an unknown brand file with 404', async () => {
    expect((await t.request('/brand/unknown.svg')).status).toBe(404);
  });
});
