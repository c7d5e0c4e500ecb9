/** robots.txt and sitemap.xml per site, from the settings-seo configuration and the route table. */
import { Hono } from 'hono';
import { ROUTE_TABLE } from '#common/route-table';
import { localizePath } from '#common/locale';
import type { AppEnv } from './app-env';
import { escapeXml } from './brand';

const DEFAULT_ROBOTS = [
  'User-agent: *',
  'Disallow: /cashier',
  'Disallow: /profile',
  'Disallow: /it/cashier',
  'Disallow: /it/profile',
  'Disallow: /_icons',
];

function originOf(url: string): string {
  return new URL(url).origin;
}

export function createSeoRoutes() {
  const routes = new Hono<AppEnv>();

  routes.get('/robots.txt', async (c) => {
    const site = c.get('site');
    const seo = (await c.get('services').content.getConfig(site.id, site.locales[0] ?? 'en'))['settings-seo'];
    const rules = typeof seo.robots === 'string' ? seo.robots.split('\n') : DEFAULT_ROBOTS;
    c.header('Content-Type', 'text/plain; charset=utf-8');
    return c.body([...rules, '', `Sitemap: ${originOf(c.req.url)}/sitemap.xml`, ''].join('\n'));
  });

  routes.get('/sitemap.xml', async (c) => {
    const site = c.get('site');
    const origin = originOf(c.req.url);
    const pages = await c
      .get('services')
      .content.list({ siteId: site.id, collection: 'pages', locale: site.locales[0] ?? 'en', limit: 100 });
    const paths = [
      ...ROUTE_TABLE.filter((route) => route.isPublicPage).map((route) => `/${route.path}`),
      ...pages.entries.map((entry) => `/${entry.slug}`),
    ];
    const urls = paths.flatMap((path) =>
      site.locales.map((locale) => {
        const alternates = site.locales
          .map(
            (other) =>
              `<xhtml:link rel="alternate" hreflang="${other}" href="${escapeXml(origin + localizePath(path, other))}"/>`,
          )
          .join('');
        return `<url><loc>${escapeXml(origin + localizePath(path, locale))}</loc>${alternates}</url>`;
      }),
    );
    c.header('Content-Type', 'application/xml; charset=utf-8');
    return c.body(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${urls.join('')}</urlset>\n`,
    );
  });

  return routes;
}
