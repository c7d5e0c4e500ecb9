/**
 * Issue 12 on the production build: the browser's JavaScript and CSS come from the copies the
 * build compressed (br or gzip by Accept-Encoding, identity otherwise) with a year's immutable
 * cache and Vary; pages rendered per request and JSON are compressed per request, anonymous pages
 * from the page cache and signed-in pages from the shared render from parts compressed once; a
 * live-table event stream still streams, uncompressed. Raw HTTP (node:http), so nothing decodes behind the test's back.
 */
import { describe, expect, inject, it } from 'vitest';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { htmlLinks } from './site-facts';

const baseUrl = inject('baseUrl');

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function rawGet(path: string, acceptEncoding?: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}${path}`,
      { headers: { ...headers, ...(acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function decoded(answer: RawAnswer): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body).toString();
  if (encoding === 'gzip') return gunzipSync(answer.body).toString();
  expect(encoding).toBeUndefined();
  return answer.body.toString();
}

/** A new player's session cookie, registered over the API as a browser would. */
async function signedInCookie(): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth.register?v=2.34&locale=en`, {
    method: 'POST',
    headers: { origin: baseUrl },
    body: new URLSearchParams({
      login: `compress${Date.now()}${Math.random()}@example.com`,
      password: 'secret-12345',
      terms: '1',
    }),
  });
  const sid = response.headers.getSetCookie().find((cookie) => cookie.startsWith('sid='));
  if (!sid) throw new Error(`registration answered ${response.status}`);
  return sid.split(';')[0] ?? '';
}

/** The home page's own script and stylesheet addresses, as the browser finds them. */
async function pageAssets(): Promise<{ script: string; stylesheet: string }> {
  const html = decoded(await rawGet('/'));
  const links = htmlLinks(html);
  // The scripts are named in the page's module script, which loads them after the first paint (app/paint-first.ts).
  const script = /"(\/assets\/[^"\\]+\.js)/.exec(html)?.[1];
  const stylesheet = links.find((link) => link.rel === 'stylesheet')?.href;
  if (!script || !stylesheet) throw new Error('the home page links no script or stylesheet');
  return { script, stylesheet };
}

describe('compressed delivery (issue 12)', () => {
  it('a script answers br when the browser takes br, gzip when only gzip, identity otherwise; always the same text', async () => {
    const { script } = await pageAssets();
    const plain = await rawGet(script);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const source = plain.body.toString();
    const br = await rawGet(script, 'gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(decoded(br)).toBe(source);
    expect(br.body.byteLength).toBeLessThan(plain.body.byteLength);
    const gzip = await rawGet(script, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip)).toBe(source);
    expect((await rawGet(script, 'br;q=0, gzip;q=0')).headers['content-encoding']).toBeUndefined();
    for (const answer of [plain, br, gzip]) {
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.headers['content-length']).toBe(String(answer.body.byteLength));
    }
  });

  it('the stylesheet is compressed and immutable too', async () => {
    const { stylesheet } = await pageAssets();
    const br = await rawGet(stylesheet, 'br');
    expect(br.headers['content-type']).toContain('text/css');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(decoded(br)).toBe((await rawGet(stylesheet)).body.toString());
  });

  /** A whole HTML document, compressed to less than half its size. */
  function expectWholeCompressedDocument(answer: RawAnswer): string {
    const html = decoded(answer);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(answer.body.byteLength).toBeLessThan(html.length / 2);
    return html;
  }

  it.each(['/', '/gamehall', '/it'])(
    'the signed-in page %s: its own render is compressed as it streams; from the shared render, gzip from parts compressed once with the player’s values between them, br as it streams',
    async (path) => {
      const cookie = await signedInCookie();
      // A page's first signed-in answer is the player's own render (server/web/player-pages.ts).
      for (const accept of ['br', 'gzip']) {
        const address = `${path}?compression=${accept}${Date.now()}${Math.random()}`;
        const own = await rawGet(address, accept, { cookie });
        expect(own.status).toBe(200);
        expect(own.headers['x-page-render']).toBeUndefined();
        expect(own.headers['content-encoding']).toBe(accept);
        expect(own.headers['transfer-encoding']).toBe('chunked');
        expect(own.headers.vary).toMatch(/accept-encoding/i);
        const ownHtml = expectWholeCompressedDocument(own);

        const shared = await rawGet(address, 'br, gzip', { cookie });
        expect(shared.headers['x-page-render']).toBe('shared');
        expect(shared.headers['content-encoding']).toBe('gzip');
        expect(shared.headers['content-length']).toBe(String(shared.body.byteLength));
        expect(shared.headers.vary).toMatch(/accept-encoding/i);
        const sharedHtml = expectWholeCompressedDocument(shared);
        const login = /data-account-login="([^"]+)"/.exec(ownHtml)?.[1];
        expect(login).toMatch(/^compress.*@example\.com$/);
        expect(sharedHtml).toContain(`data-account-login="${login}"`);

        const br = await rawGet(address, 'br', { cookie });
        expect(br.headers['x-page-render']).toBe('shared');
        expect(br.headers['content-encoding']).toBe('br');
        expect(br.headers['transfer-encoding']).toBe('chunked');
        expectWholeCompressedDocument(br);
        expect((await rawGet(address, undefined, { cookie })).headers['content-encoding']).toBeUndefined();
      }
    },
  );

  it.each(['/', '/gamehall', '/it'])(
    'the anonymous page %s from the page cache goes out gzip from parts compressed once, with its length and its own nonce; br as it streams',
    async (path) => {
      const nonces: string[] = [];
      for (let i = 0; i < 2; i++) {
        const answer = await rawGet(path, 'br, gzip');
        expect(answer.status).toBe(200);
        expect(answer.headers['content-encoding']).toBe('gzip');
        expect(answer.headers['content-length']).toBe(String(answer.body.byteLength));
        expect(answer.headers.vary).toMatch(/accept-encoding/i);
        const html = expectWholeCompressedDocument(answer);
        nonces.push(/nonce="([^"]+)"/.exec(html)?.[1] ?? '');
      }
      expect(new Set(nonces).size).toBe(2);
      const br = await rawGet(path, 'br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['transfer-encoding']).toBe('chunked');
      expectWholeCompressedDocument(br);
      expect((await rawGet(path)).headers['content-encoding']).toBeUndefined();
    },
  );

  it('the configuration JSON is compressed with its length', async () => {
    const answer = await rawGet('/nfx/cms-config/en', 'br');
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-length']).toBe(String(answer.body.byteLength));
    expect(JSON.parse(decoded(answer))).toEqual(JSON.parse((await rawGet('/nfx/cms-config/en')).body.toString()));
  });

  it('a live-table event stream is not compressed and its first event arrives while it stays open', async () => {
    const first = await new Promise<{ headers: RawAnswer['headers']; text: string; isOpen: boolean }>((resolve, reject) => {
      const req = request(
        `${baseUrl}/platform/live/live-roulette/events`,
        { headers: { 'Accept-Encoding': 'br, gzip' } },
        (res) => {
          const timer = setTimeout(() => reject(new Error('no event within 10 s')), 10_000);
          let text = '';
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            if (!text.includes('\n\n')) return;
            clearTimeout(timer);
            resolve({ headers: res.headers, text, isOpen: !res.complete });
            req.destroy();
          });
          res.on('error', () => undefined);
        },
      );
      req.on('error', () => undefined);
      req.end();
    });
    expect(first.headers['content-type']).toContain('text/event-stream');
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.text).toMatch(/^(event|data|id|:)/m);
    expect(first.isOpen).toBe(true);
  });
});
