/**
 * banners.get on a real database (spec §3 Banner: id, finished_at, description with a position
 * used for sorting; §7 banners GET get (offset, count default 10, fields); §9 banners 10; issue 13
 * "sorted by description position, hiding finished ones", "replace the demo banners' promises
 * with offers that the engine really pays").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BannerPage } from '#common/contract';
import { contentEntries } from '../../db/schema';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { expectedEntry, sharedContent, sharedSlugs, siteSeed } from '../../../test/fixtures';

const HOUR_MS = 3_600_000;

type Description = { position: number; title?: string; text?: string };

describe.each(testDatabaseKinds())('banners.get on %s', (kind) => {
  let t: TestApp;
  const seeded = sharedSlugs('en', 'banners').map((slug) => ({
    slug,
    ...sharedContent<{ finished_at: string | null; description: Description }>('en', 'banners', slug),
  }));
  const future = new Date(Date.now() + 24 * HOUR_MS).toISOString();

  beforeAll(async () => {
    t = await createTestApp(kind);
    const entry = (slug: string, data: Record<string, unknown>, publishedAt: Date | null = new Date()) => ({
      siteId: 'aurora',
      collection: 'banners',
      locale: 'en',
      slug,
      data,
      publishedAt,
    });
    // Before any read, so no cached list hides them: ten more live ones, a finished one, a draft, one that ends tomorrow.
    await t.db.insert(contentEntries).values([
      ...Array.from({ length: 10 }, (_, index) =>
        entry(`extra-${index}`, { finished_at: null, description: { position: 100 + index, title: `Extra ${index}` } }),
      ),
      entry('finished', {
        finished_at: new Date(Date.now() - HOUR_MS).toISOString(),
        description: { position: 0, title: 'Over' },
      }),
      entry('draft', { finished_at: null, description: { position: 0, title: 'Draft' } }, null),
      entry('ending', { finished_at: future, description: { position: 50, title: 'Ends tomorrow' } }),
    ]);
  });
  afterAll(() => t.close());

  const get = (params: Record<string, string> = {}, host?: string) => t.api('banners.get', { method: 'GET', params, host });

  it('§3/§9: ten by default, ordered by description.position, finished ones and drafts left out; anonymous visitors get them', async () => {
    const { status, body } = await get();
    expect(status).toBe(200);
    const page = body.data as BannerPage;
    const live = seeded.length + 10 + 1;
    expect(page.total).toBe(live);
    expect(page.items.length).toBe(Math.min(10, live));
    const positions = page.items.map((item) => item.description.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const titles = page.items.map((item) => item.description.title);
    expect(titles).not.toContain('Over');
    expect(titles).not.toContain('Draft');
    // The seeded banners come first, by their own positions.
    const bySeed = [...seeded].sort((a, b) => a.description.position - b.description.position);
    expect(page.items.slice(0, seeded.length).map((item) => item.sysname)).toEqual(bySeed.map((banner) => banner.slug));
    expect(page.items[seeded.length]).toMatchObject({ sysname: 'ending', finished_at: future });
  });

  it('offset and count page through the same order', async () => {
    const all = (await get({ count: '100' })).body.data as BannerPage;
    const second = (await get({ offset: '5', count: '4' })).body.data as BannerPage;
    expect(second.items.map((item) => item.id)).toEqual(all.items.slice(5, 9).map((item) => item.id));
    expect(second.total).toBe(all.total);
  });

  it('bad offset or count answers InvalidParameterException, never 500', async () => {
    const badValues: Record<string, string>[] = [{ count: '0' }, { count: '101' }, { count: 'ten' }, { offset: '-1' }];
    for (const params of badValues) {
      const { status, body } = await get(params);
      expect(status, JSON.stringify(params)).toBe(400);
      expect(body.error?.type).toBe('InvalidParameterException');
    }
  });

  it("a site's own banner text is merged over the shared one, per language", async () => {
    const lagoon = siteSeed('lagoon');
    const expected = expectedEntry('lagoon', 'en', 'banners', 'welcome') as { description: Description };
    const page = (await get({}, lagoon.hosts[0])).body.data as BannerPage;
    expect(page.items.find((item) => item.sysname === 'welcome')?.description.title).toBe(expected.description.title);
    const italian = await t.api('banners.get', { method: 'GET', locale: 'it' });
    const italianPage = italian.body.data as BannerPage;
    expect(italianPage.items.find((item) => item.sysname === 'welcome')?.description.title).toBe(
      sharedContent<{ description: Description }>('it', 'banners', 'welcome').description.title,
    );
  });

  /** The demo banners that promise money, by the bonus template whose terms they state. */
  const PROMISES: Record<string, string> = { welcome: 'welcome', reload: 'reload25' };
  type Template = {
    id: string;
    amount: { percent: number; caps: Record<string, string> };
    min_deposit: Record<string, string>;
    wagering: { multiplier: number };
  };
  const whole = (amount: string) => amount.replace(/\.00$/, '');

  it.each(['aurora', 'lagoon', 'sprint'])(
    'issue 13: every banner of %s that promises money states what its bonus template pays (percent, cap, minimum deposit, wagering), en and it',
    (siteId) => {
      const site = siteSeed(siteId);
      const templates = (site.settings?.bonuses as { templates: Template[] }).templates;
      const currency = site.defaultCurrency;
      for (const locale of ['en', 'it']) {
        for (const slug of sharedSlugs(locale, 'banners')) {
          const banner = expectedEntry(siteId, locale, 'banners', slug) as { description: Description };
          const words = `${banner.description.title} ${banner.description.text}`;
          const where = `${siteId} ${locale} ${slug}`;
          expect(words, where).not.toMatch(/free spin|giri gratis/i);
          const templateId = PROMISES[slug];
          // A banner that names an amount or a percent must be one of the offers the engine pays.
          if (!templateId) {
            expect(words, where).not.toMatch(/\d\s*%|[€$]\s*\d|\d\s*[€$]/);
            continue;
          }
          const template = templates.find((one) => one.id === templateId)!;
          expect(words, where).toContain(`${template.amount.percent}%`);
          expect(words, where).toContain(whole(template.amount.caps[currency]!));
          expect(words, where).toContain(whole(template.min_deposit[currency]!));
          expect(words, where).toContain(`${template.wagering.multiplier}`);
          expect(words, where).toContain(currency === 'USD' ? '$' : '€');
        }
      }
    },
  );
});
