/**
 * The demo ribbon (issue 11, point 1): a site marked demo tells the player so on every page, in
 * the page's language, on a phone as on a desktop, without covering the navigation. Every host of
 * the e2e server is a demo site; that a site not marked demo shows no ribbon is checked on the
 * rendered pages in server/web/demo-trust.test.ts, where the test can unmark a site.
 */
import { describe, expect, it } from 'vitest';
import { browserLocale, closeContext, screenshot, useBrowser, waitForHydration } from './browser';
import { inLocale, tr, type Locale } from './site-facts';

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

  for (const locale of ['en', 'it'] as Locale[])
    it(`on a game page it shows once, on the site page around the game and not inside the game's frame (issue 15, ${locale})`, async () => {
      const { context, page } = await browser.newPage({ viewport: 'mobile', locale: browserLocale(locale) });
      try {
        await page.goto(`${browser.baseUrl}${inLocale('/game/dice-roll', locale)}`);
        await waitForHydration(page);
        const frameElement = page.locator('iframe[data-game-frame="demo"]');
        await expect.poll(() => frameElement.getAttribute('src')).toBe(inLocale('/platform/game/dice-roll/demo', locale));
        const frame = await (await frameElement.elementHandle())!.contentFrame();
        await waitForHydration(frame!);
        // The game's own document is drawn (its controls are there) and carries no ribbon.
        await frame!.locator('[data-action="roll"]').waitFor();
        expect(await frame!.locator('[data-demo-ribbon]').count()).toBe(0);
        const ribbon = page.locator('[data-demo-ribbon]');
        expect(await ribbon.count()).toBe(1);
        await expect.poll(() => ribbon.isVisible()).toBe(true);
        expect(await ribbon.locator('.demo-ribbon__label').textContent()).toBe(tr(locale, 'site.demo.label'));
        // It stands above the frame, not over it.
        const ribbonBox = await ribbon.boundingBox();
        const frameBox = await frameElement.boundingBox();
        if (!ribbonBox || !frameBox) throw new Error('ribbon or frame not laid out');
        expect(ribbonBox.y + ribbonBox.height).toBeLessThanOrEqual(frameBox.y + 1);
        await screenshot(page, `demo-ribbon-game-${locale}-mobile`);
      } finally {
        await closeContext(context);
      }
    });

  it('a page outside the site chrome (the sign-in form) still shows it (issue 11)', async () => {
    const { context, page } = await browser.newPage({ viewport: 'desktop', locale: browserLocale('it') });
    try {
      await page.goto(`${browser.baseUrl}${inLocale('/forms/sign_in', 'it')}`);
      await waitForHydration(page);
      expect(await page.locator('[data-demo-ribbon]').count()).toBe(1);
    } finally {
      await closeContext(context);
    }
  });
});
