/**
 * Issue 12: built assets are answered from the copies the build compressed (.br, .gz) by
 * Accept-Encoding, with Vary; a hashed name is cached for a year (immutable), anything else
 * revalidated by ETag; an unknown path goes on to the site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { IMMUTABLE_CACHE, REVALIDATE_CACHE, serveBuiltAssets } from './static-assets';

const SCRIPT = `export const tiles = ${JSON.stringify(Array.from({ length: 100 }, (_, index) => `tile ${index}`))};`;
let clientDir: string;
let app: Hono;

beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), 'static-assets-'));
  const assets = join(clientDir, 'assets');
  mkdirSync(assets);
  writeFileSync(join(assets, 'home-AbCd1234.js'), SCRIPT);
  // Marked copies, so a test sees which file answered.
  writeFileSync(join(assets, 'home-AbCd1234.js.br'), brotliCompressSync(`${SCRIPT}//br`));
  writeFileSync(join(assets, 'home-AbCd1234.js.gz'), gzipSync(`${SCRIPT}//gz`));
  writeFileSync(join(assets, 'only-gzip-QwEr5678.css'), 'body{}');
  writeFileSync(join(assets, 'only-gzip-QwEr5678.css.gz'), gzipSync('body{}/*gz*/'));
  writeFileSync(join(assets, 'robots.txt'), 'plain');
  writeFileSync(join(assets, 'logo-ZxCv0987.png'), Buffer.alloc(64, 7));
  app = new Hono();
  app.use('/assets/*', serveBuiltAssets(clientDir));
  app.all('*', (c) => c.text('the site', 404));
});

afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  app.request(`http://127.0.0.1${path}`, { method, headers });

describe('serveBuiltAssets', () => {
  it('answers the brotli copy to a browser taking br, the gzip copy to one taking only gzip, the file otherwise', async () => {
    const br = await get('/assets/home-AbCd1234.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(br.headers.get('content-length')).toBe(String(brBody.byteLength));
    expect(brotliCompressSync(`${SCRIPT}//br`).equals(brBody)).toBe(true);

    const gzip = await get('/assets/home-AbCd1234.js', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(Buffer.from(await gzip.arrayBuffer()).equals(gzipSync(`${SCRIPT}//gz`))).toBe(true);

    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await get('/assets/home-AbCd1234.js', accept ? { 'Accept-Encoding': accept } : {});
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(await plain.text()).toBe(SCRIPT);
    }
  });

  it('every answer of a file with copies says Vary: Accept-Encoding and has one ETag per representation', async () => {
    const tags = new Set<string>();
    for (const accept of ['br', 'gzip', 'identity']) {
      const response = await get('/assets/home-AbCd1234.js', { 'Accept-Encoding': accept });
      expect(response.headers.get('vary')).toBe('Accept-Encoding');
      expect(response.headers.get('content-type')).toContain('javascript');
      tags.add(response.headers.get('etag')!);
    }
    expect(tags.size).toBe(3);
  });

  it('offers only the copies the build wrote', async () => {
    const response = await get('/assets/only-gzip-QwEr5678.css', { 'Accept-Encoding': 'br, gzip' });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const picture = await get('/assets/logo-ZxCv0987.png', { 'Accept-Encoding': 'br, gzip' });
    expect(picture.headers.get('content-encoding')).toBeNull();
    expect(picture.headers.get('vary')).toBeNull();
    expect((await picture.arrayBuffer()).byteLength).toBe(64);
  });

  it('a hashed name is cached for a year as immutable; another name must be revalidated', async () => {
    expect((await get('/assets/home-AbCd1234.js')).headers.get('cache-control')).toBe(IMMUTABLE_CACHE);
    expect((await get('/assets/logo-ZxCv0987.png')).headers.get('cache-control')).toBe(IMMUTABLE_CACHE);
    const plain = await get('/assets/robots.txt');
    expect(plain.headers.get('cache-control')).toBe(REVALIDATE_CACHE);
    const again = await get('/assets/robots.txt', { 'If-None-Match': plain.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('HEAD answers the headers without a body; unknown paths, copies and other verbs go on to the site', async () => {
    const head = await get('/assets/home-AbCd1234.js', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-encoding')).toBe('br');
    expect(await head.text()).toBe('');
    for (const path of ['/assets/missing-AbCd1234.js', '/assets/home-AbCd1234.js.br', '/assets/../package.json']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe('the site');
    }
    expect((await get('/assets/home-AbCd1234.js', {}, 'POST')).status).toBe(404);
  });
});
