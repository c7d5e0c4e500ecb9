/**
 * The signed-in header on every device class (issue 15: at 1280–1440 px "Tournaments" was cut to
 * "Tou" and "Loyalty" was out of sight, in English and Italian, in a strip that scrolled without a
 * hint). The items that fit stay in the header, whole; the others are in a "More" menu, in order;
 * the menu works from the keyboard; on narrower screens the menu button holds the navigation.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { closeContext, useBrowser, waitForHydration } from './browser';
import { signedUpPlayer } from './page-api';
import { NAVIGATION, inLocale, tr, type Locale } from './site-facts';

const LOCALES: Locale[] = ['en', 'it'];
const DESKTOP_WIDTHS = [1280, 1366, 1440, 1600, 1920];
const NARROW_WIDTHS = [375, 768, 992, 1279];

/** Where the header's parts are, and what the strip and the More menu hold. */
function headerLayout(page: Page) {
  return page.evaluate(() => {
    const box = (selector: string) => document.querySelector(selector)?.getBoundingClientRect() ?? null;
    const strip = document.querySelector<HTMLElement>('[data-nav-strip]');
    const stripBox = strip?.getBoundingClientRect();
    const links = [...(strip?.querySelectorAll('a') ?? [])].map((link) => {
      const rect = link.getBoundingClientRect();
      return { text: link.textContent ?? '', left: rect.left, right: rect.right };
    });
    return {
      strip: strip
        ? { left: stripBox!.left, right: stripBox!.right, scroll: strip.scrollWidth, client: strip.clientWidth }
        : null,
      links,
      menu: [...document.querySelectorAll('[data-nav-menu] a')].map((link) => link.textContent ?? ''),
      more: box('[data-nav-more]'),
      actions: box('.site-header__actions'),
      inner: (() => {
        const inner = document.querySelector<HTMLElement>('.site-header__inner');
        return inner ? { scroll: inner.scrollWidth, client: inner.clientWidth } : null;
      })(),
    };
  });
}

describe('a header that fits every device class, with a More menu (issue 15)', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  it.each(LOCALES)('signed in (%s): every item is whole in the header or in the More menu, in order', async (locale) => {
    const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: '10.105' });
    const labels = NAVIGATION.map((item) => tr(locale, item.key));
    for (const width of DESKTOP_WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${base}${inLocale('/promotions', locale)}`);
      await waitForHydration(page);
      await page.locator('[data-account-login]').first().waitFor();
      const layout = await headerLayout(page);
      expect(layout.strip, `strip at ${width}`).not.toBeNull();
      // Nothing in the strip is cut or scrolled away, and it ends before the account's buttons.
      expect(layout.strip!.scroll, `strip overflow at ${width}`).toBeLessThanOrEqual(layout.strip!.client);
      for (const link of layout.links)
        expect(link.right, `${link.text} at ${width}`).toBeLessThanOrEqual(layout.strip!.right + 0.5);
      const navEnd = layout.more?.right ?? layout.strip!.right;
      expect(navEnd, `nav end at ${width}`).toBeLessThanOrEqual(layout.actions!.left + 0.5);
      expect([...layout.links.map((link) => link.text), ...layout.menu], `items at ${width}`).toEqual(labels);
      expect(layout.more === null, `More button at ${width}`).toBe(layout.menu.length === 0);
    }
    await closeContext(context);
  });

  it.each(LOCALES)('signed in at 1280 px (%s): the More menu opens, moves and closes from the keyboard', async (locale) => {
    const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: '10.106' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}${inLocale('/promotions', locale)}`);
    await waitForHydration(page);
    const more = page.locator('[data-nav-more]');
    const menu = page.locator('[data-nav-menu]');
    expect(await more.textContent()).toBe(tr(locale, 'header.more'));
    const overflow = await menu.locator('a').allTextContents();
    expect(overflow.length).toBeGreaterThan(0);
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');

    await more.focus();
    await page.keyboard.press('Enter');
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    await menu.waitFor({ state: 'visible' });
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe(overflow[0]);
    await page.keyboard.press('End');
    await expect.poll(focused).toBe(overflow.at(-1));
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-nav-more'))).toBe(true);

    // From the closed button, ArrowDown opens the menu on its first link; Enter follows it.
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe(overflow[0]);
    const target = NAVIGATION.find((item) => tr(locale, item.key) === overflow[0])!;
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => `${url.pathname}${url.search}` === inLocale(target.path, locale));
    await menu.waitFor({ state: 'hidden' });
    await closeContext(context);
  });

  it.each(LOCALES)(
    'signed in on narrower screens (%s): the header does not overflow and the menu button holds the navigation',
    async (locale) => {
      const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: '10.107' });
      for (const width of NARROW_WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(`${base}${inLocale('/promotions', locale)}`);
        await waitForHydration(page);
        const layout = await headerLayout(page);
        expect(layout.inner!.scroll, `header overflow at ${width}`).toBeLessThanOrEqual(layout.inner!.client);
        expect(await page.locator('.site-header__menu').isVisible(), `menu button at ${width}`).toBe(true);
        expect(await page.locator('.site-nav').isVisible(), `strip at ${width}`).toBe(false);
      }
      await closeContext(context);
    },
  );
});
