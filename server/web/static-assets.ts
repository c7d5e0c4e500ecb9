/**
 * The production build's browser files under /assets/ (issue 12). Every file and the .br and .gz
 * copies the build wrote beside it (scripts/precompress.mjs) are read once at start, so an asset
 * costs no compression and no disk read per request. A hashed name never changes content, so it is
 * cached for a year; anything else must be revalidated (ETag).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { asBody, isCompressibleType, negotiateEncoding, varyOnAcceptEncoding, type ContentEncoding } from './compression';

/** The suffix the build gives each encoded copy. */
export const ENCODED_SUFFIX: Record<ContentEncoding, string> = { br: '.br', gzip: '.gz' };

export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
export const REVALIDATE_CACHE = 'public, max-age=0, must-revalidate';

/** Vite names an emitted file name-<8 character content hash>.ext. */
const HASHED_NAME = /-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/i;

interface Asset {
  contentType: string;
  cacheControl: string;
  etag: string;
  identity: Buffer;
  encoded: Partial<Record<ContentEncoding, Buffer>>;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function isEncodedCopy(file: string): boolean {
  return Object.values(ENCODED_SUFFIX).some((suffix) => file.endsWith(suffix));
}

function loadAsset(file: string, name: string): Asset {
  const identity = readFileSync(file);
  const contentType = getMimeType(file) ?? 'application/octet-stream';
  const encoded: Asset['encoded'] = {};
  if (isCompressibleType(contentType)) {
    for (const [encoding, suffix] of Object.entries(ENCODED_SUFFIX) as [ContentEncoding, string][]) {
      if (existsSync(file + suffix)) encoded[encoding] = readFileSync(file + suffix);
    }
  }
  return {
    contentType,
    cacheControl: HASHED_NAME.test(name) ? IMMUTABLE_CACHE : REVALIDATE_CACHE,
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
    identity,
    encoded,
  };
}

/** Every file under `clientDir`/assets by its URL path (/assets/…). */
export function loadBuiltAssets(clientDir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const file of filesUnder(join(clientDir, 'assets'))) {
    if (isEncodedCopy(file) || file.endsWith('.map')) continue;
    const name = '/' + relative(clientDir, file).split(sep).join('/');
    assets.set(name, loadAsset(file, name));
  }
  return assets;
}

/** Serves the build's /assets/ files; an unknown path goes on to the next handler. */
export function serveBuiltAssets(clientDir: string): MiddlewareHandler {
  const assets = loadBuiltAssets(clientDir);
  return async (c, next) => {
    const asset = c.req.method === 'GET' || c.req.method === 'HEAD' ? assets.get(c.req.path) : undefined;
    if (!asset) return next();
    const headers = new Headers({ 'Content-Type': asset.contentType, 'Cache-Control': asset.cacheControl });
    const encodings = Object.keys(asset.encoded) as ContentEncoding[];
    if (encodings.length) varyOnAcceptEncoding(headers);
    const encoding = negotiateEncoding(c.req.header('accept-encoding'), encodings);
    // One validator per representation (RFC 9110 §8.8.1): the encoded copy's tag says which.
    headers.set('ETag', encoding ? `${asset.etag.slice(0, -1)}-${encoding}"` : asset.etag);
    if (c.req.header('if-none-match') === headers.get('ETag')) return new Response(null, { status: 304, headers });
    const body = encoding ? asset.encoded[encoding]! : asset.identity;
    if (encoding) headers.set('Content-Encoding', encoding);
    headers.set('Content-Length', String(body.byteLength));
    return new Response(c.req.method === 'HEAD' ? null : asBody(body), { headers });
  };
}
