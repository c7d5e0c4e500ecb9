/**
 * /cms/api/…: the content platform's read surface, a Strapi v4 compatible subset (list with
 * locale, equality filters and pagination; one entry by id). Errors use Strapi's error body.
 */
import { Hono, type Context } from 'hono';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#common/locale';
import type { InProcessAnswer } from '#common/load-context';
import type { ContentEntry } from '../modules/content';
import type { Site } from '../modules/sites';
import type { Services } from '../services';
import type { AppEnv } from './app-env';

const COLLECTION_NAME = /^[a-z][a-z0-9-]{0,63}$/;
/** Collections that are internal configuration, served by /nfx/cms-config instead. */
const PRIVATE_COLLECTIONS = new Set(['config']);

function strapiErrorBody(status: 400 | 404, name: string, message: string) {
  return { data: null, error: { status, name, message, details: {} } };
}

function strapiError(c: Context, status: 400 | 404, name: string, message: string) {
  return c.json(strapiErrorBody(status, name, message), status);
}

/** A collection the platform serves: well named, not private, and holding content (as Strapi, unknown types are 404). */
async function isPublicCollection(services: Services, collection: string): Promise<boolean> {
  if (!COLLECTION_NAME.test(collection) || PRIVATE_COLLECTIONS.has(collection)) return false;
  return (await services.content.listCollections()).has(collection);
}

function toStrapi(entry: ContentEntry) {
  return {
    id: entry.id,
    attributes: {
      ...entry.data,
      slug: entry.slug,
      locale: entry.locale,
      publishedAt: entry.publishedAt,
      updatedAt: entry.updatedAt,
    },
  };
}

/** filters[field][$eq]=value → { field: value }; other operators are not part of the subset. */
function equalityFilters(query: URLSearchParams): Record<string, string> | undefined {
  const filters: Record<string, string> = {};
  for (const [key, value] of query) {
    const match = /^filters\[([A-Za-z0-9_]+)\](?:\[\$eq\])?$/.exec(key);
    if (match?.[1]) filters[match[1]] = value;
    else if (key.startsWith('filters[')) return undefined;
  }
  return filters;
}

function positiveInt(value: string | null, fallback: number, max: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? Math.min(parsed, max) : fallback;
}

/** A list of a collection, as the route answers it; the page renderer reads through it in process. */
export async function contentListAnswer(
  services: Services,
  site: Site,
  collection: string,
  query: URLSearchParams,
): Promise<InProcessAnswer> {
  if (!(await isPublicCollection(services, collection)))
    return { status: 404, body: strapiErrorBody(404, 'NotFoundError', 'Not Found') };
  const localeParam = query.get('locale') ?? DEFAULT_LOCALE;
  if (!isLocale(localeParam)) return { status: 400, body: strapiErrorBody(400, 'ValidationError', 'Unknown locale') };
  const filters = equalityFilters(query);
  if (!filters) return { status: 400, body: strapiErrorBody(400, 'ValidationError', 'Only $eq filters are supported') };
  const page = positiveInt(query.get('pagination[page]'), 1, 10_000);
  const pageSize = positiveInt(query.get('pagination[pageSize]'), 25, 100);
  const listed = await services.content.list({
    siteId: site.id,
    collection,
    locale: localeParam as Locale,
    filters,
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  return { status: 200, body: strapiListBody(listed, page, pageSize) };
}

/**
 * The Strapi body of a cached list, built once per cached list (the content cache hands out the
 * same object until the rows change): every page render reads the translations through here, and
 * reshaping 700 keys per render was measurable (issue 12). Callers must not change it.
 */
const listBodies = new WeakMap<object, Map<string, unknown>>();
function strapiListBody(listed: { entries: ContentEntry[]; total: number }, page: number, pageSize: number): unknown {
  const key = `${page}:${pageSize}`;
  let byPage = listBodies.get(listed);
  if (!byPage) listBodies.set(listed, (byPage = new Map()));
  let body = byPage.get(key);
  if (!body) {
    const { entries, total } = listed;
    body = {
      data: entries.map(toStrapi),
      meta: { pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } },
    };
    byPage.set(key, body);
  }
  return body;
}

export function createContentPlatformRoutes() {
  const routes = new Hono<AppEnv>();

  routes.get('/api/:collection', async (c) => {
    const answer = await contentListAnswer(
      c.get('services'),
      c.get('site'),
      c.req.param('collection'),
      new URL(c.req.url).searchParams,
    );
    return c.json(answer.body as object, answer.status as 200);
  });

  routes.get('/api/:collection/:id', async (c) => {
    const collection = c.req.param('collection');
    const id = Number(c.req.param('id'));
    if (!(await isPublicCollection(c.get('services'), collection)) || !Number.isSafeInteger(id) || id <= 0) {
      return strapiError(c, 404, 'NotFoundError', 'Not Found');
    }
    const entry = await c.get('services').content.findById(c.get('site').id, collection, id);
    if (!entry) return strapiError(c, 404, 'NotFoundError', 'Not Found');
    return c.json({ data: toStrapi(entry), meta: {} });
  });

  return routes;
}
