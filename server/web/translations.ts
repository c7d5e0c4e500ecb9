/**
 * /platform/translations/{locale}.json?v={version}: a site's translation table, which pages name
 * by version instead of carrying it (issue 12: it was half of every page's hydration data). The
 * version asked for is the one the page was rendered with: when it is the current one the answer
 * is cached for ever (the address names that text); an older one (an operator edited the texts
 * since) gets the current table, revalidated on every use.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { Hono } from 'hono';
import { isLocale } from '#common/locale';
import type { VersionedTranslations } from '#common/translations';
import type { AppEnv } from './app-env';
import { IMMUTABLE_CACHE } from './static-assets';
import { asBody, negotiateEncoding, type ContentEncoding } from './compression';

const FILE = /^([a-z]{2})\.json$/;

/** A table's JSON, and its compressed forms made at most once per loaded version (like a built asset). */
interface Bodies {
  plain: Buffer;
  /** Made in zlib's thread pool: brotli at its best quality takes tens of milliseconds for a table. */
  encoded: Partial<Record<ContentEncoding, Promise<Buffer>>>;
}

const bodies = new WeakMap<VersionedTranslations, Bodies>();

function bodiesOf(versioned: VersionedTranslations): Bodies {
  let kept = bodies.get(versioned);
  if (!kept) {
    kept = { plain: Buffer.from(JSON.stringify(versioned.table)), encoded: {} };
    bodies.set(versioned, kept);
  }
  return kept;
}

const brotliOnce = promisify(brotliCompress);
const gzipOnce = promisify(gzip);

/** The smallest forms, as the build makes them for its assets: a table is fetched far less often than it is served from cache. */
function encode(plain: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotliOnce(plain, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
    : gzipOnce(plain, { level: 9 });
}

export function createTranslationRoutes() {
  const routes = new Hono<AppEnv>();

  routes.get('/:file', async (c) => {
    const locale = FILE.exec(c.req.param('file'))?.[1];
    const site = c.get('site');
    if (!isLocale(locale) || !site.locales.includes(locale)) return c.text('Not found', 404);
    const versioned = await c.get('services').content.getVersionedTranslations(site.id, locale);
    // Weak: the plain and the compressed answers are different bytes of the same table.
    const etag = `W/"${versioned.version}"`;
    c.header('ETag', etag);
    c.header('Cache-Control', c.req.query('v') === versioned.version ? IMMUTABLE_CACHE : 'no-cache');
    if (c.req.header('if-none-match')?.replace(/^W\//, '') === etag.slice(2)) return c.body(null, 304);
    c.header('Content-Type', 'application/json; charset=utf-8');
    const kept = bodiesOf(versioned);
    const encoding = negotiateEncoding(c.req.header('accept-encoding'));
    if (!encoding) return c.body(asBody(kept.plain));
    const encoded = await (kept.encoded[encoding] ??= encode(kept.plain, encoding));
    c.header('Content-Encoding', encoding);
    c.header('Vary', 'Accept-Encoding');
    return c.body(asBody(encoded));
  });

  return routes;
}
