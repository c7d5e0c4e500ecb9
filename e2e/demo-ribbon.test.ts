/**
 * The demo ribbon (issue 11, point 1): a site marked demo tells the player so on every page, in
 * the page's language, on a phone as on a desktop, without covering the navigation. Every host of
 * the e2e server is a demo site; that a site not marked demo shows no ribbon is checked on the
 * rendered pages in server/web/demo-trust.test.ts, where the test can unmark a site.
 */
import { describe, expect, it } from 'vitest';
import { browserLocale, closeContext, screenshot, useBrowser, waitForHydration } from './browser';
import { tr, type Locale } from './site-facts';

describe('demo ribbon', () => {
  const browser = useBrowser();

  for (const viewport of ['mobile', 'desktop'] as const)
    for (const locale of ['en', 'it'] as Locale[])
      it(`shows on the demo site above the header, which it does not cover (${locale}, ${viewport})`, async () => {
        const { context, page } = await browser.newPage({ viewport, locale: browserLocale(locale) });
        try {
          await page.goto(`${browser.baseUrl}${locale === 'en' ? '/' : '/it'}`);
          await waitForHydration(page);
          const ribbon = page.locator('[data-demo-ribbon]');
          await expect.poll(() => ribbon.isVisible()).toBe(true);
          expect(await ribbon.textContent()).toBe(`${tr(locale, 'site.demo.label')}${tr(locale, 'site.demo.text')}`);
          const ribbonBox = await ribbon.boundingBox();
          const headerBox = await page.locator('header.site-header').boundingBox();
          if (!ribbonBox || !headerBox) throw new Error('ribbon or header not laid out');
          expect(ribbonBox.y + ribbonBox.height).toBeLessThanOrEqual(headerBox.y + 1);
          expect(ribbonBox.width).toBeLessThanOrEqual((page.viewportSize()?.width ?? 0) + 1);
          // The header's controls are on top where they are drawn: the ribbon covers none of them.
          const menu = page.locator(viewport === 'mobile' ? '.site-header__menu' : '.site-header__logo');
          const box = await menu.boundingBox();
          if (!box) throw new Error('header control not laid out');
          const isOnTop = await page.evaluate(
            ({ x, y }) => document.elementFromPoint(x, y)?.closest('header.site-header') !== null,
            { x: box.x + box.width / 2, y: box.y + box.height / 2 },
          );
          expect(isOnTop).toBe(true);
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
          if (viewport === 'mobile') await screenshot(page, `demo-ribbon-${locale}-mobile`);
        } finally {
          await closeContext(context);
        }
      });
});
