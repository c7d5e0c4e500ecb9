import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { readSiteSeeds, sharedContent } from '../../test/fixtures';

const activeSites = readSiteSeeds().filter((site) => !site.isMaintenance);

const PNG_SIGNATURE = '89504e470d0a1a0a';
const WEEK_SECONDS = 7 * 24 * 60 * 60;

/** Width, height and RGBA rows of a non-interlaced 8-bit RGBA PNG whose rows use no filter. */
function readPng(png: Buffer): { width: number; height: number; pixel: (x: number, y: number) => number[] } {
  expect(png.subarray(0, 8).toString('hex')).toBe(PNG_SIGNATURE);
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  expect([png[24], png[25]]).toEqual([8, 6]);
  const chunks: Buffer[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    if (png.toString('latin1', offset + 4, offset + 8) === 'IDAT') chunks.push(png.subarray(offset + 8, offset + 8 + length));
    offset += length + 12;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * 4 + 1;
  return {
    width,
    height,
    pixel: (x, y) => {
      expect(raw[y * stride]).toBe(0);
      const at = y * stride + 1 + x * 4;
      return [...raw.subarray(at, at + 4)];
    },
  };
}

const rgbOf = (hex: string) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
const isNear = (actual: number[], expected: number[], tolerance = 40) =>
  expected.every((value, index) => Math.abs((actual[index] ?? -999) - value) <= tolerance);

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

  it.each(activeSites.map((site) => [site.hosts[0] ?? '', site] as const))(
    'serves a favicon set for host %s drawn from the brand mark, cached for a week or more (issue 15: /favicon.ico was 404)',
    async (host, site) => {
      const colors = site.settings?.brandColors as { primary: string; background: string };
      const get = async (path: string, type: string) => {
        const response = await t.request(path, { host });
        expect(response.status, path).toBe(200);
        expect(response.headers.get('content-type'), path).toBe(type);
        const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get('cache-control') ?? '')?.[1] ?? 0);
        expect(maxAge, path).toBeGreaterThanOrEqual(WEEK_SECONDS);
        return Buffer.from(await response.arrayBuffer());
      };

      const svg = (await get('/favicon.svg', 'image/svg+xml')).toString('utf8');
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg).toContain(`stop-color="${colors.primary}"`);

      // An ICO directory (reserved 0, type 1) of PNG images, 16 and 32 pixels among them.
      const ico = await get('/favicon.ico', 'image/x-icon');
      expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
      const count = ico.readUInt16LE(4);
      const sizes: number[] = [];
      for (let index = 0; index < count; index++) {
        const entry = 6 + index * 16;
        const size = ico[entry] || 256;
        const image = ico.subarray(ico.readUInt32LE(entry + 12), ico.readUInt32LE(entry + 12) + ico.readUInt32LE(entry + 8));
        const png = readPng(image);
        expect([png.width, png.height]).toEqual([size, size]);
        // The mark: a round badge on a transparent square, the star white in its middle.
        expect(png.pixel(0, 0)[3]).toBe(0);
        expect(isNear(png.pixel(size / 2, size / 2), [255, 255, 255])).toBe(true);
        sizes.push(size);
      }
      expect(sizes).toEqual(expect.arrayContaining([16, 32]));

      // The touch icon is opaque (iOS paints transparency black): the brand background behind the mark.
      const touch = readPng(await get('/apple-touch-icon.png', 'image/png'));
      expect([touch.width, touch.height]).toEqual([180, 180]);
      expect(isNear(touch.pixel(2, 2), [...rgbOf(colors.background), 255], 2)).toBe(true);
      expect(isNear(touch.pixel(90, 90), [255, 255, 255])).toBe(true);
    },
  );

  it('answers an unknown brand file with 404', async () => {
    expect((await t.request('/brand/unknown.svg')).status).toBe(404);
  });
});
