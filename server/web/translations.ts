/**
 * /platform/translations/{locale}.json?v={version}: a site's translation table, which pages name
 * by version instead of carrying it (issue 12: it was half of every page's hydration data). The
 * version asked for is the one the page was rendered with: when it is the current one the answer
 * is cached for ever (the address names that text); an older one (an operator edited the texts
 * since) gets the current table, revalidated on every use.
 */
import { Hono } from 'hono';
import { isLocale } from '#common/locale';
import type { VersionedTranslations } from '#common/translations';
import type { AppEnv } from './app-env';
import { IMMUTABLE_CACHE } from './static-assets';

const FILE = /^([a-z]{2})\.json$/;

/** The JSON text of a table, made once per loaded version (the content cache keeps the object). */
const bodies = new WeakMap<VersionedTranslations, string>();
function bodyOf(versioned: VersionedTranslations): string {
  let body = bodies.get(versioned);
  if (body === undefined) {
    body = JSON.stringify(versioned.table);
    bodies.set(versioned, body);
  }
  return body;
}

export function createTranslationRoutes() {
  const routes = new Hono<AppEnv>();

  routes.get('/:file', async (c) => {
    const locale = FILE.exec(c.req.param('file'))?.[1];
    const site = c.get('site');
    if (!isLocale(locale) || !site.locales.includes(locale)) return c.text('Not found', 404);
    const versioned = await c.get('services').content.getVersionedTranslations(site.id, locale);
    const etag = `"${versioned.version}"`;
    c.header('ETag', etag);
    c.header('Cache-Control', c.req.query('v') === versioned.version ? IMMUTABLE_CACHE : 'no-cache');
    if (c.req.header('if-none-match') === etag) return c.body(null, 304);
    c.header('Content-Type', 'application/json; charset=utf-8');
    return c.body(bodyOf(versioned));
  });

  return routes;
}
