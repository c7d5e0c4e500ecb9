/**
 * The home carousel (spec §2 home, §3 Banner: sorted by description position, finished ones
 * hidden; §9 banners 10; issue 13 "the home banners come from banners.get"), in English and
 * Italian: the banners the content holds, in their order and the page's language.
 */
import { describe, expect, it } from 'vitest';
import { closeContext, useBrowser, waitForHydration } from './browser';
import { homeBannerTitles, inLocale, type Locale } from './site-facts';

describe('home banners', () => {
  const browser = useBrowser();

  for (const locale of ['en', 'it'] as Locale[]) {
    it(`§3/§9: the home page shows the live banners by position, in ${locale}`, async () => {
      const { context, page } = await browser.newPage({ serviceWorkers: 'block', stepTimeoutMs: 20_000 });
      await page.goto(`${browser.baseUrl}${inLocale('/', locale)}`);
      await waitForHydration(page);
      const titles = await page
        .locator('.banner-slot .banner__title')
        .evaluateAll((items) => items.map((item) => item.textContent));
      expect(titles).toEqual(homeBannerTitles(locale).slice(0, 10));

      // The dots pick a banner (the slot does not move on its own, WCAG 2.2.2) and say which one they show.
      const visibleTitle = () => page.locator('.banner-slot .banner:not([hidden]) .banner__title').textContent();
      const first = await visibleTitle();
      expect(first).toBe(titles[0]);
      const dots = page.locator('.banner-slot__dots button');
      expect(await dots.count()).toBe(titles.length);
      await dots.last().click();
      expect(await visibleTitle()).toBe(titles[titles.length - 1]);
      expect(await dots.last().getAttribute('aria-label')).toMatch(new RegExp(`${titles.length}\\D+${titles.length}`));
      await closeContext(context);
    });
  }
});
