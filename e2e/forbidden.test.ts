/**
 * The forbidden page (spec §2, §8: any 403 shows it, in the empty layout): a site that keeps a
 * country out answers every page from that country with 403. The e2e server runs behind a
 * trusted proxy (TRUST_PROXY=1) whose country header is X-Country-Code (COUNTRY_HEADER), so it is honoured.
 */
import { describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { rawGet, tr, decodeHtml, type Locale } from './site-facts';

interface SiteSeed {
  id: string;
  hosts: string[];
  settings: { blocked_countries?: string[] };
}

const sites = JSON.parse(readFileSync('content/sites.json', 'utf8')) as SiteSeed[];
const blockingSite = sites.find((site) => (site.settings.blocked_countries ?? []).length > 0);

describe('country blocking shows the forbidden page', () => {
  const host = blockingSite?.hosts.find((name) => name.endsWith('.localhost')) ?? '';
  const blocked = blockingSite?.settings.blocked_countries?.[0] ?? '';

  it('a site in the seed keeps at least one country out', () => {
    expect(blockingSite).toBeDefined();
    expect(blocked).toMatch(/^[A-Z]{2}$/);
  });

  for (const locale of ['en', 'it'] as Locale[]) {
    it(`answers 403 with the forbidden page in the empty layout (${locale})`, async () => {
      const base = inject('baseUrl');
      const port = new URL(base).port;
      const page = await rawGet(base, locale === 'en' ? '/promotions' : '/it/promotions', {
        host: `${host}:${port}`,
        'x-country-code': blocked,
      });
      expect(page.status).toBe(403);
      const html = decodeHtml(page.body);
      expect(html).toContain(tr(locale, 'system.forbidden.header'));
      expect(html).toContain('data-layout="empty"');
      expect(html).not.toContain('class="site-header');
    });
  }

  it('the same page from another country is served normally', async () => {
    const base = inject('baseUrl');
    const page = await rawGet(base, '/promotions', { host: `${host}:${new URL(base).port}`, 'x-country-code': 'IT' });
    expect(page.status).toBe(200);
  });

  it('the product API refuses the blocked country too, except the site information the page needs', async () => {
    const base = inject('baseUrl');
    const headers = { host: `${host}:${new URL(base).port}`, 'x-country-code': blocked };
    expect((await rawGet(base, '/api/storage.getKeys?v=2.34&locale=en', headers)).status).toBe(403);
    expect((await rawGet(base, '/api/metadata.getgeneralinfo?v=2.34&locale=en', headers)).status).toBe(200);
  });
});
