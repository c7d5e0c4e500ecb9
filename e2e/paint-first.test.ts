/**
 * Issue 12 (a phone sees the lobby in under two seconds): a page paints from its document and its
 * stylesheet alone, and the scripts that hydrate it, with the translation table, are fetched after
 * that first paint (app/paint-first.ts). Checked in the browser's own timings, in both languages,
 * for an anonymous visitor and a signed-in player's shared page: no script or table request starts
 * before the first contentful paint, each is fetched once, and the page then hydrates without an
 * error or a Content-Security-Policy refusal.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LOCALES } from '#common/locale';
import { browserLocale, useBrowser, waitForHydration } from './browser';
import { signedUpPlayer } from './page-api';
import { inLocale } from './site-facts';

interface LoadTimings {
  firstContentfulPaint: number | undefined;
  /** Script and translation table fetches: address path and when each started. */
  hydrationFetches: { path: string; startTime: number }[];
}

function loadTimings(page: Page): Promise<LoadTimings> {
  return page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const hydrationFetches = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .map((entry) => ({ path: new URL(entry.name).pathname, startTime: entry.startTime }))
      .filter(({ path }) => /^\/assets\/.+\.js$/.test(path) || path.startsWith('/platform/translations/'));
    return { firstContentfulPaint: paint?.startTime, hydrationFetches };
  });
}

/** Collects what would show a broken hydration: console errors, page errors and CSP refusals. */
async function watchForFaults(page: Page): Promise<string[]> {
  const faults: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') faults.push(message.text());
  });
  page.on('pageerror', (error) => faults.push(error.message));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  return faults;
}

describe('paint first, then load the scripts (issue 12: LCP on a phone)', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  async function checkPaintFirst(page: Page, path: string) {
    const faults = await watchForFaults(page);
    await page.goto(`${base}${path}`);
    await waitForHydration(page);
    const { firstContentfulPaint, hydrationFetches } = await loadTimings(page);
    if (firstContentfulPaint === undefined) throw new Error(`${path}: no first contentful paint`);
    const scripts = hydrationFetches.filter(({ path: fetched }) => fetched.startsWith('/assets/'));
    const tables = hydrationFetches.filter(({ path: fetched }) => fetched.startsWith('/platform/translations/'));
    expect(scripts.length, 'the page hydrated from fetched scripts').toBeGreaterThan(0);
    expect(tables, 'one translation table, fetched once').toHaveLength(1);
    const early = hydrationFetches.filter(({ startTime }) => startTime < firstContentfulPaint);
    expect(early, `fetched before the first paint at ${firstContentfulPaint} ms`).toEqual([]);
    const paths = scripts.map(({ path: fetched }) => fetched);
    expect(new Set(paths).size, `each script fetched once: ${paths.join()}`).toBe(paths.length);
    expect(faults).toEqual([]);
  }

  it.each(LOCALES)('an anonymous %s home page paints before it fetches its scripts, then hydrates', async (locale) => {
    const { context, page } = await browser.newPage({ viewport: 'mobile', locale: browserLocale(locale) });
    await checkPaintFirst(page, inLocale('/', locale));
    await context.close();
  });

  it.each(LOCALES)("a signed-in player's %s game hall (a shared page) does the same", async (locale) => {
    const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: '10.110' });
    await checkPaintFirst(page, inLocale('/gamehall', locale));
    await context.close();
  });

  it('a link pressed before the scripts arrive still navigates: the page works without them', async () => {
    const context = await browser.newContext();
    // Scripts that never come: what a player on a slow line meets between the first paint and hydration.
    await context.route(/\/assets\/.*\.js(\?.*)?$/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.locator('.site-nav a[href="/gamehall"]').first().click();
    await page.waitForURL(`${base}/gamehall`);
    await context.close();
  });
});
