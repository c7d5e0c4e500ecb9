/**
 * Compressed answers (issue 12: nothing went out compressed; the home page was 586 KB on the wire).
 * Built assets are compressed once at build time (scripts/precompress.mjs, served by
 * static-assets.ts); this middleware compresses what is made per request: pages, API and
 * configuration JSON, generated SVG. A streamed page stays streamed (each burst of the render is
 * flushed through the compressor as it comes), and event streams are never touched.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip, type BrotliCompress, type Gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env';
import { requestHeader } from './request-headers';

export type ContentEncoding = 'br' | 'gzip';

/** Ours in order of preference when the client likes both equally: brotli is smaller at the same cost. */
export const OFFERED_ENCODINGS: readonly ContentEncoding[] = ['br', 'gzip'];

/** Below this a compressed body saves less than its framing and the work costs more than the bytes. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * Brotli's quality 4 and gzip's level 6 cost about the same CPU per byte on HTML and JSON; brotli
 * gives a smaller answer. The build's own assets use the slowest, smallest settings instead.
 */
const BROTLI_DYNAMIC = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 4,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    // A 256 KB window holds a whole page; the default 4 MB would only cost memory per answer.
    [constants.BROTLI_PARAM_LGWIN]: 18,
  },
};
const GZIP_DYNAMIC = { level: 6 };

const brotliOnce = promisify(brotliCompress);
const gzipOnce = promisify(gzip);

/** Text formats worth compressing; event streams are text but must reach the client event by event. */
const COMPRESSIBLE_TYPE =
  /^\s*(?:text\/(?!event-stream)[^;\s]+|application\/(?:json|javascript|xml|manifest\+json|[^;\s]+\+(?:json|xml))|image\/svg\+xml)\s*(?:;|$)/i;

export function isCompressibleType(contentType: string | null | undefined): boolean {
  return Boolean(contentType && COMPRESSIBLE_TYPE.test(contentType));
}

/**
 * The content coding to answer with (RFC 9110 §12.5.3): the offered one the client weighs highest,
 * ties going to our order; `*` stands for codings the header does not name; q=0 refuses. Undefined
 * means identity.
 */
export function negotiateEncoding(
  acceptEncoding: string | null | undefined,
  offered: readonly ContentEncoding[] = OFFERED_ENCODINGS,
): ContentEncoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    if (!name) continue;
    weights.set(name.toLowerCase(), qualityOf(parameters));
  }
  let best: ContentEncoding | undefined;
  let bestWeight = 0;
  for (const encoding of offered) {
    const weight = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

function qualityOf(parameters: string[]): number {
  const q = parameters.find((parameter) => /^q\s*=/i.test(parameter));
  if (!q) return 1;
  const value = Number(q.slice(q.indexOf('=') + 1).trim());
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : 0;
}

/** Adds Accept-Encoding to Vary once: a shared cache must keep the compressed and the plain answer apart. */
export function varyOnAcceptEncoding(headers: Headers): void {
  const vary = headers.get('vary');
  if (!vary) headers.set('Vary', 'Accept-Encoding');
  else if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary)) headers.set('Vary', `${vary}, Accept-Encoding`);
}

/** Compresses per-request answers; what is already encoded (precompressed assets) passes as it is. */
export function compressResponses(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    // A complete answer is one its route found too small to compress and marked Vary itself (answer-headers.ts).
    if (c.get('isAnswerComplete')) return;
    const response = c.res;
    if (!isCompressibleType(response.headers.get('content-type'))) return;
    if (response.headers.has('content-encoding') || /\bno-transform\b/i.test(response.headers.get('cache-control') ?? '')) return;
    varyOnAcceptEncoding(response.headers);
    if (c.req.method === 'HEAD' || response.status === 204 || response.status === 304) return;
    // Asked before the body: reading it turns Node's lightweight answer into a web Response and a stream.
    const encoding = negotiateEncoding(requestHeader(c, 'accept-encoding'));
    if (!encoding || !response.body) return;
    const body = isStreamedPage(response) ? streamedBody(response.body, encoding) : await wholeBody(response.body, encoding);
    // Hono copies the old answer's headers onto the new one, so the encoding's headers are set after.
    c.res = new Response(body.stream, response);
    if (body.isEncoded) markEncoded(c.res.headers, encoding, body.length);
  };
}

interface EncodedBody {
  stream: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>;
  /** Known for a whole body; a streamed one goes out chunked. */
  length?: number;
  /** False for a body too small to be worth it, answered as it was from the bytes already read. */
  isEncoded: boolean;
}

/**
 * Only pages stream (React's render, shell first); event streams are never compressed. Every other
 * answer (c.json, c.body, c.html of a string) is already whole in memory, so reading it costs nothing.
 */
function isStreamedPage(response: Response): boolean {
  return /^\s*text\/html\b/i.test(response.headers.get('content-type') ?? '') && !response.headers.has('content-length');
}

/** A whole body (API JSON, SVG, XML): compressed in one go, off the event loop. */
async function wholeBody(body: ReadableStream<Uint8Array>, encoding: ContentEncoding): Promise<EncodedBody> {
  const plain = Buffer.from(await new Response(body).arrayBuffer());
  if (plain.byteLength < MIN_COMPRESSED_BYTES) return { stream: asBody(plain), isEncoded: false };
  const packed = await compressWhole(plain, encoding);
  return { stream: asBody(packed), length: packed.byteLength, isEncoded: true };
}

/** A body already whole in memory, compressed in one go on the thread pool (dynamic settings). */
export function compressWhole(plain: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  return encoding === 'br' ? brotliOnce(plain, BROTLI_DYNAMIC) : gzipOnce(plain, GZIP_DYNAMIC);
}

/** A streamed body (a page): compressed as it streams, never buffered to its end. */
function streamedBody(body: ReadableStream<Uint8Array>, encoding: ContentEncoding): EncodedBody {
  return { stream: body.pipeThrough(compressionStream(encoding)), isEncoded: true };
}

/** A Buffer as a Response body without copying it. */
export function asBody(buffer: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
}

function markEncoded(headers: Headers, encoding: ContentEncoding, length: number | undefined): void {
  headers.set('Content-Encoding', encoding);
  if (length === undefined) headers.delete('Content-Length');
  else headers.set('Content-Length', String(length));
  // A strong validator names one representation; the compressed one is another (RFC 9110 §8.8.1).
  const etag = headers.get('etag');
  if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
}

/**
 * A TransformStream over a zlib compressor that flushes once the chunks that arrived together are
 * written: React writes a page in bursts (the shell, then each resolved boundary), and each burst
 * must reach the browser at once, while flushing per chunk would cost ratio and a thread-pool round
 * trip for every few kilobytes.
 */
export function compressionStream(encoding: ContentEncoding): TransformStream<Uint8Array, Uint8Array> {
  const compressor: BrotliCompress | Gzip = encoding === 'br' ? createBrotliCompress(BROTLI_DYNAMIC) : createGzip(GZIP_DYNAMIC);
  const flushKind = encoding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH;
  let pendingFlush: NodeJS.Immediate | undefined;
  let failure: unknown;
  const scheduleFlush = () => {
    pendingFlush ??= setImmediate(() => {
      pendingFlush = undefined;
      compressor.flush(flushKind);
    });
  };
  // `cancel` (the reader left) is in the Streams standard and Node, not yet in TypeScript's DOM types.
  const transformer: Transformer<Uint8Array, Uint8Array> & { cancel(): void } = {
    start(controller) {
      compressor.on('data', (chunk: Buffer) => {
        try {
          controller.enqueue(chunk);
        } catch {
          // The reader went away (the visitor left): stop compressing for no one.
          compressor.destroy();
        }
      });
      compressor.on('error', (error) => (failure = error));
    },
    async transform(chunk) {
      if (failure) throw failure;
      if (!compressor.write(chunk)) {
        await new Promise((resolve) => {
          compressor.once('drain', resolve);
          compressor.once('close', resolve);
        });
      }
      scheduleFlush();
    },
    async flush() {
      if (pendingFlush) clearImmediate(pendingFlush);
      await new Promise<void>((resolve, reject) => {
        compressor.once('end', resolve);
        compressor.once('error', reject);
        compressor.end();
      });
    },
    cancel() {
      if (pendingFlush) clearImmediate(pendingFlush);
      compressor.destroy();
    },
  };
  return new TransformStream(transformer);
}
