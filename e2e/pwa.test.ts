/**
 * Spec §1 "installation as an app (a service worker at /sw.js with scope /)": the manifest is
 * linked, the worker registers with scope /, and once it is active an offline navigation shows
 * the offline page (its texts from translations).
 */
import { describe, expect, inject, it } from 'vitest';
import { useBrowser, waitForHydration } from './browser';
import { LOCALES, SITE, htmlLinks, inLocale, tr } from './site-facts';

const baseUrl = inject('baseUrl');

describe('installable app', () => {
  const browser = useBrowser();

  it.each(LOCALES)('every page (%s) links /manifest.webmanifest, which names the site and has scope /', async (locale) => {
    const html = await (await fetch(`${baseUrl}${inLocale('/gamehall', locale)}`)).text();
    // By attributes, not markup: React Router puts the page's CSP nonce on its links too (issue 11).
    expect(htmlLinks(html)).toContainEqual(expect.objectContaining({ rel: 'manifest', href: '/manifest.webmanifest' }));
    const response = await fetch(`${baseUrl}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('manifest+json');
    const manifest = (await response.json()) as {
      name?: string;
      scope?: string;
      start_url?: string;
      display?: string;
      icons?: unknown[];
    };
    expect(manifest.name).toBe(SITE.name);
    expect(manifest.scope).toBe('/');
    expect(manifest.start_url?.startsWith('/')).toBe(true);
    expect(manifest.display).toBe('standalone');
    expect(manifest.icons?.length).toBeGreaterThan(0);
  });

  it.each(LOCALES)(
    'every page (%s) links the favicon set, and each linked icon is served with its type (issue 15: /favicon.ico was 404)',
    async (locale) => {
      const html = await (await fetch(`${baseUrl}${inLocale('/gamehall', locale)}`)).text();
      const links = htmlLinks(html);
      const expected = [
        { rel: 'icon', href: '/favicon.ico', type: 'image/x-icon' },
        { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
        { rel: 'apple-touch-icon', href: '/apple-touch-icon.png', type: 'image/png' },
      ];
      for (const { rel, href, type } of expected) {
        expect(links).toContainEqual(expect.objectContaining({ rel, href }));
        const response = await fetch(`${baseUrl}${href}`);
        expect(response.status, href).toBe(200);
        expect(response.headers.get('content-type'), href).toBe(type);
      }
    },
  );

  it('/sw.js is served as JavaScript and may control the whole site', async () => {
    const response = await fetch(`${baseUrl}/sw.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('javascript');
    expect(response.headers.get('service-worker-allowed')).toBe('/');
  });

  it('the service worker at /sw.js registers with scope / and, once active, offline navigations show the offline page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await waitForHydration(page);
    const registration = await page.evaluate(async () => {
      const ready = await navigator.serviceWorker.ready;
      return { scope: ready.scope, script: ready.active?.scriptURL };
    });
    expect(registration.scope).toBe(`${baseUrl}/`);
    expect(registration.script).toBe(`${baseUrl}/sw.js`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });

    await context.setOffline(true);
    const response = await page.goto(`${baseUrl}/promotions`);
    expect(response?.status()).toBe(200);
    for (const locale of LOCALES) {
      expect(await page.locator(`section[lang="${locale}"] h1`).textContent()).toBe(tr(locale, 'offline.header'));
      expect(await page.locator(`section[lang="${locale}"] p`).textContent()).toBe(tr(locale, 'offline.description'));
    }
    expect(await page.title()).toBe(SITE.name);
    await context.setOffline(false);
    // Back online, navigations reach the site again.
    await page.goto(`${baseUrl}/promotions`);
    expect(await page.locator('.page__title').textContent()).toBe(tr('en', 'page.promotions.title'));
    await context.close();
  });
});
