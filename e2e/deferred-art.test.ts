/**
 * Issue 12 (blocking time on a phone): the home page's game art below the first screen is fetched
 * only as it nears the screen (app/deferred-art.ts), not all at once while the page starts; it
 * still arrives as the visitor scrolls, rails included, and without scripts every picture shows.
 * Checked on a phone in both languages.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LOCALES } from '#common/locale';
import { useBrowser, waitForHydration } from './browser';
import { inLocale } from './site-facts';

const ART = /\/platform\/art\/[^/?]+\.svg/;

/** The art addresses the page has fetched so far. */
function fetchedArt(page: Page): Promise<string[]> {
  return page.evaluate((pattern) => {
    const art = new RegExp(pattern);
    return (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => art.test(path));
  }, ART.source);
}

/** Every deferred picture: whether it has been given its address and whether it has drawn. */
function deferredPictures(page: Page) {
  return page.locator('img[data-deferred-art]').evaluateAll((images) =>
    images.map((image) => ({
      src: image.getAttribute('src'),
      drawnWidth: (image as HTMLImageElement).naturalWidth,
    })),
  );
}

describe('the home page fetches its art as it nears the screen (issue 12)', () => {
  const browser = useBrowser();

  describe.each(LOCALES)('%s, phone', (locale) => {
    it('fetches none of the art far below the first screen while the page starts, and all of it once scrolled to, rails included', async () => {
      const { context, page } = await browser.newPage({ viewport: 'mobile', stepTimeoutMs: 20_000 });
      await page.goto(`${browser.baseUrl}${inLocale('/', locale)}`);
      await waitForHydration(page);
      const pictures = await deferredPictures(page);
      const waiting = pictures.filter((picture) => picture.src === null);
      expect(pictures.length, 'the home page has deferred pictures').toBeGreaterThan(0);
      expect(waiting.length, 'pictures far below the first screen wait').toBeGreaterThan(0);
      const startedWith = new Set(await fetchedArt(page));

      // Each step is drawn before the next, as a person's scrolling is: the observer sees only
      // positions the page was drawn at, and a loaded machine could skip several quick steps.
      for (let y = 0; y < (await page.evaluate(() => document.body.scrollHeight)); y += 300) {
        await page.evaluate(async (top) => {
          window.scrollTo(0, top);
          await new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)));
        }, y);
      }
      for (const rail of await page.locator('.provider-grid--rail').all()) {
        await rail.evaluate((element) => (element.scrollLeft = element.scrollWidth));
      }
      // Fetched and drawn: seconds on a loaded machine, not expect.poll's default of one.
      await expect
        .poll(async () => (await deferredPictures(page)).every((picture) => picture.src !== null && picture.drawnWidth > 0), {
          timeout: 15_000,
        })
        .toBe(true);
      const fetchedOnScroll = (await fetchedArt(page)).filter((path) => !startedWith.has(path));
      expect(fetchedOnScroll.length, 'the waiting pictures were fetched on the way down').toBeGreaterThan(0);
      await context.close();
    });

    it('without scripts shows every picture from the page itself', async () => {
      const { context, page } = await browser.newPage({ viewport: 'mobile', javaScriptEnabled: false });
      await page.goto(`${browser.baseUrl}${inLocale('/', locale)}`);
      const tiles = page.locator('[data-game-tile]');
      expect(await tiles.count()).toBeGreaterThan(0);
      const shown = await tiles.evaluateAll((nodes) =>
        nodes.map((node) => {
          const visible = [...node.querySelectorAll('img')].filter((image) => image.getBoundingClientRect().height > 0);
          return visible.map((image) => image.getAttribute('src'));
        }),
      );
      for (const sources of shown) {
        expect(sources, 'one picture per tile, with its address').toHaveLength(1);
        expect(sources[0]).toMatch(ART);
      }
      await context.close();
    });
  });
});
