/**
 * Issue 12 "nothing is compressed": answers go out brotli or gzip by Accept-Encoding (RFC 9110
 * §12.5.3) with Vary, whole answers with their compressed length, pages compressed as they stream,
 * event streams and already encoded answers untouched.
 */
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { brotliDecompressSync, createBrotliDecompress, createGunzip, gunzipSync } from 'node:zlib';
import {
  compressResponses,
  compressionStream,
  negotiateEncoding,
  varyOnAcceptEncoding,
  type ContentEncoding,
} from './compression';

describe('negotiateEncoding (RFC 9110 §12.5.3)', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.1, br;q=0', 'gzip'],
    ['GZIP', 'gzip'],
  ])('%s → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });

  it.each([[undefined], [''], ['identity'], ['deflate'], ['br;q=0, gzip;q=0'], ['*;q=0'], ['gzip;q=x']])(
    '%s → identity',
    (header) => {
      expect(negotiateEncoding(header)).toBeUndefined();
    },
  );

  it('offers only what the caller has (an asset without a .br copy answers gzip)', () => {
    expect(negotiateEncoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(negotiateEncoding('br', ['gzip'])).toBeUndefined();
  });
});

describe('varyOnAcceptEncoding', () => {
  it('adds Accept-Encoding once, keeping what Vary already names', () => {
    const headers = new Headers({ Vary: 'Cookie' });
    varyOnAcceptEncoding(headers);
    varyOnAcceptEncoding(headers);
    expect(headers.get('vary')).toBe('Cookie, Accept-Encoding');
    const fresh = new Headers();
    varyOnAcceptEncoding(fresh);
    expect(fresh.get('vary')).toBe('Accept-Encoding');
  });
});

function decode(encoding: string | null, body: Buffer): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString();
  if (encoding === 'gzip') return gunzipSync(body).toString();
  return body.toString();
}

const BIG_JSON = { items: Array.from({ length: 200 }, (_, index) => ({ index, name: `game ${index}` })) };

function app() {
  const hono = new Hono();
  hono.use('*', compressResponses());
  hono.get('/big.json', (c) => {
    c.header('ETag', '"v1"');
    return c.json(BIG_JSON);
  });
  hono.get('/small.json', (c) => c.json({ ok: true }));
  hono.get('/picture.png', (c) => c.body(new Uint8Array(4096), 200, { 'Content-Type': 'image/png' }));
  hono.get('/encoded.js', (c) =>
    c.body('already encoded', 200, { 'Content-Type': 'text/javascript', 'Content-Encoding': 'gzip' }),
  );
  hono.get('/page', () => {
    const parts = ['<!DOCTYPE html><html><body>', '<p>shell</p>'.repeat(200), '</body></html>'];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    return new Response(stream, { headers: { 'Content-Type': 'text/html' } });
  });
  hono.get('/events', (c) =>
    streamSSE(c, async (stream) => {
      await stream.writeSSE({ data: 'x'.repeat(2000) });
    }),
  );
  return hono;
}

async function get(path: string, acceptEncoding?: string) {
  const response = await app().request(`http://127.0.0.1${path}`, {
    headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding },
  });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

describe('compressResponses', () => {
  it.each<[string, ContentEncoding]>([
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
  ])(
    'a whole JSON answer asked with %s goes out %s with its compressed length, Vary and a weak ETag',
    async (accept, encoding) => {
      const { response, body } = await get('/big.json', accept);
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('vary')).toBe('Accept-Encoding');
      expect(response.headers.get('content-length')).toBe(String(body.byteLength));
      expect(response.headers.get('etag')).toBe('W/"v1"');
      expect(JSON.parse(decode(encoding, body))).toEqual(BIG_JSON);
      expect(body.byteLength).toBeLessThan(JSON.stringify(BIG_JSON).length / 3);
    },
  );

  it('without an acceptable coding the answer is plain, still with Vary', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const { response, body } = await get('/big.json', accept);
      expect(response.headers.get('content-encoding')).toBeNull();
      expect(response.headers.get('vary')).toBe('Accept-Encoding');
      expect(response.headers.get('etag')).toBe('"v1"');
      expect(JSON.parse(body.toString())).toEqual(BIG_JSON);
    }
  });

  it('a small answer, a picture and an already encoded answer pass as they are', async () => {
    const small = await get('/small.json', 'br');
    expect(small.response.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(small.body.toString())).toEqual({ ok: true });
    const picture = await get('/picture.png', 'br');
    expect(picture.response.headers.get('content-encoding')).toBeNull();
    expect(picture.body.byteLength).toBe(4096);
    const encoded = await get('/encoded.js', 'br');
    expect(encoded.response.headers.get('content-encoding')).toBe('gzip');
    expect(encoded.body.toString()).toBe('already encoded');
  });

  it('a streamed page is compressed chunked (no length) and decodes to the whole page', async () => {
    const { response, body } = await get('/page', 'br');
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('content-length')).toBeNull();
    expect(decode('br', body)).toBe(`<!DOCTYPE html><html><body>${'<p>shell</p>'.repeat(200)}</body></html>`);
  });

  it('an event stream is never compressed', async () => {
    const { response, body } = await get('/events', 'br, gzip');
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(body.toString()).toContain(`data: ${'x'.repeat(2000)}`);
  });
});

/** Reads decoded text from a decompressor until it holds `expected`, or fails after a second. */
function decodedUntil(decoder: NodeJS.ReadWriteStream, expected: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`decoded only ${JSON.stringify(text)}`)), 1000);
    decoder.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes(expected)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
  });
}

describe('compressionStream (a streamed page stays streamed)', () => {
  it.each<[ContentEncoding]>([['br'], ['gzip']])(
    '%s: what was written is readable before the stream ends, so the shell reaches the browser at once',
    async (encoding) => {
      const { readable, writable } = compressionStream(encoding);
      const writer = writable.getWriter();
      const reader = readable.getReader();
      const decoder = encoding === 'br' ? createBrotliDecompress() : createGunzip();
      const shell = decodedUntil(decoder, '<p>shell</p>');
      void writer.write(new TextEncoder().encode('<html><body><p>shell</p>'));
      // Pump what the compressor gives out, while the stream is still open.
      const pump = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          decoder.write(value);
        }
      })();
      expect(await shell).toBe('<html><body><p>shell</p>');
      const rest = decodedUntil(decoder, '</html>');
      await writer.write(new TextEncoder().encode('<p>later</p></body></html>'));
      await writer.close();
      await pump;
      decoder.end();
      expect(await rest).toContain('<p>later</p></body></html>');
    },
  );
});
