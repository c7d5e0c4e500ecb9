/** Installability (spec §1): web manifest, service worker at /sw.js with scope /, offline page. */
import { Hono, type Context } from 'hono';
import type { Site } from '../modules/sites';
import type { AppEnv } from './app-env';
import { appIconSvg, brandColors, escapeXml, logoSvg, markIconSvg } from './brand';
import { faviconFiles } from './favicon';

/**
 * Navigations go to the network; when it is gone the cached offline page answers. Hashed build
 * assets are served cache-first. A new deployment changes CACHE and drops the old cache.
 */
export function serviceWorkerSource(version: string): string {
  return `const CACHE = 'site-${version}';
const OFFLINE_URL = '/offline.html';
self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.add(new Request(OFFLINE_URL, { cache: 'reload' }))));
  self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key)))).then(() => self.clients.claim()));
});
self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => caches.open(CACHE).then((cache) => cache.match(OFFLINE_URL))));
    return;
  }
  const url = new URL(request.url);
  if (url.origin === self.location.origin && url.pathname.startsWith('/assets/')) {
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(request).then((hit) => hit || fetch(request).then((response) => { if (response.ok) cache.put(request, response.clone()); return response; }))));
  }
});
`;
}

export function createPwaRoutes(buildVersion: string) {
  const routes = new Hono<AppEnv>();

  routes.get('/sw.js', (c) => {
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Service-Worker-Allowed', '/');
    c.header('Cache-Control', 'no-cache');
    return c.body(serviceWorkerSource(buildVersion));
  });

  routes.get('/manifest.webmanifest', (c) => {
    const site = c.get('site');
    const colors = brandColors(site);
    c.header('Content-Type', 'application/manifest+json');
    return c.body(
      JSON.stringify({
        name: site.name,
        short_name: site.name,
        start_url: '/?source=pwa',
        scope: '/',
        display: 'standalone',
        background_color: colors.background,
        theme_color: colors.background,
        icons: [
          { src: '/brand/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
          { src: '/brand/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'maskable' },
        ],
      }),
    );
  });

  routes.get('/brand/:file', (c) => {
    const site = c.get('site');
    const file = c.req.param('file');
    const svg =
      file === 'logo.svg'
        ? logoSvg(site)
        : file === 'logo-mobile.svg'
          ? logoSvg(site, true)
          : file === 'icon.svg'
            ? appIconSvg(site)
            : null;
    if (!svg) return c.notFound();
    c.header('Content-Type', 'image/svg+xml');
    c.header('Cache-Control', 'public, max-age=3600');
    return c.body(svg);
  });

  // Favicons (issue 15): asked for by these names, so cached long; a colour change shows within a week.
  const FAVICON_CACHE = 'public, max-age=604800, stale-while-revalidate=86400';
  const icon =
    (type: string, body: (site: Site) => string | Buffer) =>
    (c: Context<AppEnv>): Response => {
      c.header('Content-Type', type);
      c.header('Cache-Control', FAVICON_CACHE);
      const content = body(c.get('site'));
      return c.body(typeof content === 'string' ? content : new Uint8Array(content));
    };
  routes.get(
    '/favicon.svg',
    icon('image/svg+xml', (site) => markIconSvg(site)),
  );
  routes.get(
    '/favicon.ico',
    icon('image/x-icon', (site) => faviconFiles(brandColors(site)).ico),
  );
  routes.get(
    '/apple-touch-icon.png',
    icon('image/png', (site) => faviconFiles(brandColors(site)).touchIcon),
  );
  // Some browsers ask for this name without looking at the page's links.
  routes.get(
    '/apple-touch-icon-precomposed.png',
    icon('image/png', (site) => faviconFiles(brandColors(site)).touchIcon),
  );

  routes.get('/offline.html', async (c) => {
    const site = c.get('site');
    const content = c.get('services').content;
    const lines = await Promise.all(
      site.locales.map(async (locale) => {
        const t = await content.getTranslations(site.id, locale);
        return `<section lang="${locale}"><h1>${escapeXml(t['offline.header'] ?? 'You are offline')}</h1><p>${escapeXml(t['offline.description'] ?? '')}</p></section>`;
      }),
    );
    const { background, primary } = brandColors(site);
    c.header('Cache-Control', 'no-cache');
    return c.html(
      `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeXml(site.name)}</title><style nonce="${c.get('cspNonce')}">body{margin:0;min-height:100vh;display:grid;place-content:center;gap:2rem;background:${background};color:#fff;font-family:system-ui,sans-serif;text-align:center;padding:2rem}h1{color:${primary}}</style></head><body>${logoSvg(site)}${lines.join('')}<p><a style="color:${primary}" href="/">↻</a></p></body></html>`,
    );
  });

  return routes;
}
