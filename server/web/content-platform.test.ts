import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { expectedEntry, sharedContent, sharedSlugs, siteSeed } from '../../test/fixtures';
import { contentEntries } from '../db/schema';

interface StrapiEntry {
  id: number;
  attributes: Record<string, unknown> & { slug: string; locale: string };
}
interface StrapiList {
  data: StrapiEntry[];
  meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } };
}
interface StrapiError {
  data: null;
  error: { status: number; name: string; message: string };
}

describe.each(testDatabaseKinds())('content platform /cms/api on %s (spec §7: Strapi v4 compatible subset)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  async function getJson<T>(path: string, host?: string): Promise<{ status: number; body: T }> {
    const response = await t.request(path, { host });
    return { status: response.status, body: (await response.json()) as T };
  }

  it.each(['en', 'it'])(
    'lists the pages of locale %s in the Strapi v4 shape {data:[{id, attributes}], meta.pagination}',
    async (locale) => {
      const slugs = sharedSlugs(locale, 'pages');
      const { status, body } = await getJson<StrapiList>(`/cms/api/pages?locale=${locale}`);
      expect(status).toBe(200);
      expect(Object.keys(body).sort()).toEqual(['data', 'meta']);
      expect(body.data.map((entry) => entry.attributes.slug).sort()).toEqual(slugs);
      for (const entry of body.data) {
        expect(Object.keys(entry).sort()).toEqual(['attributes', 'id']);
        expect(entry.id).toBeTypeOf('number');
        expect(entry.attributes.locale).toBe(locale);
        expect(entry.attributes).toMatchObject(sharedContent(locale, 'pages', entry.attributes.slug));
        expect(entry.attributes).toHaveProperty('publishedAt');
        expect(entry.attributes).toHaveProperty('updatedAt');
      }
      expect(body.meta.pagination).toEqual({
        page: 1,
        pageSize: 25,
        pageCount: Math.ceil(slugs.length / 25),
        total: slugs.length,
      });
    },
  );

  it('uses English when no locale is given', async () => {
    const { body } = await getJson<StrapiList>('/cms/api/pages');
    expect(new Set(body.data.map((entry) => entry.attributes.locale))).toEqual(new Set(['en']));
  });

  it('filters by slug with filters[slug][$eq]', async () => {
    const slug = sharedSlugs('it', 'pages')[0] ?? '';
    const { body } = await getJson<StrapiList>(`/cms/api/pages?locale=it&filters[slug][$eq]=${slug}`);
    expect(body.data).toHaveLength(1);
    expect(body.data[0]?.attributes).toMatchObject({ slug, locale: 'it', ...sharedContent('it', 'pages', slug) });
    expect(body.meta.pagination.total).toBe(1);
  });

  it('filters SEO records by url with filters[url][$eq], as the site looks up a page path', async () => {
    const slug = sharedSlugs('en', 'seos')[0] ?? '';
    const record = sharedContent<{ url: string; title: string }>('en', 'seos', slug);
    const { body } = await getJson<StrapiList>(`/cms/api/seos?locale=en&filters[url][$eq]=${encodeURIComponent(record.url)}`);
    expect(body.data.map((entry) => entry.attributes.title)).toEqual([record.title]);
    const none = await getJson<StrapiList>(`/cms/api/seos?locale=en&filters[url][$eq]=${encodeURIComponent('/no-such-path')}`);
    expect(none.body.data).toEqual([]);
    expect(none.body.meta.pagination.total).toBe(0);
  });

  it('pages through a collection with pagination[page] and pagination[pageSize]', async () => {
    const slugs = sharedSlugs('en', 'pages');
    const pageSize = 2;
    const pageCount = Math.ceil(slugs.length / pageSize);
    expect(pageCount).toBeGreaterThan(1);
    const seen: string[] = [];
    for (let page = 1; page <= pageCount; page += 1) {
      const { body } = await getJson<StrapiList>(
        `/cms/api/pages?locale=en&pagination[page]=${page}&pagination[pageSize]=${pageSize}`,
      );
      expect(body.meta.pagination).toEqual({ page, pageSize, pageCount, total: slugs.length });
      expect(body.data.length).toBe(Math.min(pageSize, slugs.length - (page - 1) * pageSize));
      seen.push(...body.data.map((entry) => entry.attributes.slug));
    }
    expect(seen.sort()).toEqual(slugs);
    const past = await getJson<StrapiList>(
      `/cms/api/pages?locale=en&pagination[page]=${pageCount + 1}&pagination[pageSize]=${pageSize}`,
    );
    expect(past.body.data).toEqual([]);
  });

  it('answers /cms/api/pages/{id} with the one entry of that id', async () => {
    const { body: list } = await getJson<StrapiList>('/cms/api/pages?locale=it');
    const wanted = list.data[list.data.length - 1];
    if (!wanted) throw new Error('no pages seeded');
    const { status, body } = await getJson<{ data: StrapiEntry; meta: object }>(`/cms/api/pages/${wanted.id}`);
    expect(status).toBe(200);
    expect(body.data).toEqual(wanted);
  });

  it('serves the site of the host: a site’s own content is merged over the shared content', async () => {
    const lagoon = siteSeed('lagoon');
    const expected = expectedEntry('lagoon', 'en', 'banners', 'welcome');
    const shared = sharedContent('en', 'banners', 'welcome');
    expect(expected).not.toEqual(shared);
    const { body } = await getJson<StrapiList>('/cms/api/banners?locale=en&filters[slug][$eq]=welcome', lagoon.hosts[0]);
    expect(body.data[0]?.attributes).toMatchObject(expected ?? {});
    const aurora = await getJson<StrapiList>('/cms/api/banners?locale=en&filters[slug][$eq]=welcome');
    expect(aurora.body.data[0]?.attributes).toMatchObject(shared);
  });

  it('does not give one site’s entry by id to another site', async () => {
    const { body: list } = await getJson<StrapiList>('/cms/api/pages?locale=en');
    const id = list.data[0]?.id;
    const { status } = await getJson<StrapiError>(`/cms/api/pages/${id}`, siteSeed('lagoon').hosts[0]);
    expect(status).toBe(404);
  });

  it.each([
    ['an unknown collection', '/cms/api/no-such-collection'],
    ['the private config collection', '/cms/api/config'],
    ['the private config collection by id', '/cms/api/config/ID'],
    ['an unknown id', '/cms/api/pages/987654321'],
    ['a non-numeric id', '/cms/api/pages/about'],
  ])('answers %s with 404 and a Strapi error body', async (_label, template) => {
    let path = template;
    if (template.includes('ID')) {
      const [row] = await t.db
        .select({ id: contentEntries.id })
        .from(contentEntries)
        .where(and(eq(contentEntries.collection, 'config'), eq(contentEntries.siteId, siteSeed('aurora').id)))
        .limit(1);
      path = template.replace('ID', String(row?.id));
    }
    const { status, body } = await getJson<StrapiError>(path);
    expect(status).toBe(404);
    expect(body.data).toBeNull();
    expect(body.error).toMatchObject({ status: 404, name: 'NotFoundError' });
  });

  it.each([
    'filters[slug][$ne]=about',
    'filters[slug][$contains]=ab',
    'filters[$or][0][slug][$eq]=about',
    'filters[title][$in][0]=x',
  ])('answers the unsupported filter %s with 400 and a Strapi error body', async (query) => {
    const { status, body } = await getJson<StrapiError>(`/cms/api/pages?locale=en&${query}`);
    expect(status).toBe(400);
    expect(body.data).toBeNull();
    expect(body.error).toMatchObject({ status: 400, name: 'ValidationError' });
  });

  it('answers an unknown locale with 400', async () => {
    const { status, body } = await getJson<StrapiError>('/cms/api/pages?locale=xx');
    expect(status).toBe(400);
    expect(body.error.status).toBe(400);
  });
});
