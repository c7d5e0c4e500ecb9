/**
 * Spec §4 device classes: the main screens at the narrowest (375 px, mobile) and a desktop width
 * (1440 px), in both languages. Each screen must fit its width (no sideways scrolling, header
 * controls on screen); the screenshots go to e2e/artifacts/ for review.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screenshot, useBrowser, waitForHydration } from './browser';
import { DEVICE_CLASSES } from '#common/device';
import { CONTENT_SLUG, LOCALES, inLocale } from './site-facts';

const baseUrl = inject('baseUrl');
const WIDTHS = [375, 1440] as const;

interface Screen {
  name: string;
  path: string;
  /** Something that must be on screen once the page is ready. */
  ready: string;
}

const SCREENS: Screen[] = [
  { name: 'home', path: '/', ready: '.game-grid' },
  { name: 'shell', path: '/promotions', ready: '.page__title' },
  { name: 'content', path: `/${CONTENT_SLUG}`, ready: '.page--content h1' },
  { name: 'not-found', path: '/missing/page', ready: '[data-system-page="notFound"]' },
  { name: 'sign-in', path: '/forms/sign_in', ready: '.auth-form' },
  { name: 'auth-popup', path: '/?show_popup_auth=1', ready: '.dialog-layer:not([hidden]) .auth-form' },
];

/** Elements that stick out of the viewport sideways, described for the failure message. */
function overflowing(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width)
      out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    const controls = document.querySelectorAll<HTMLElement>(
      '.site-header a, .site-header button, .dialog-layer:not([hidden]) .dialog, .auth-page__card',
    );
    for (const element of controls) {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      const isShown =
        box.width > 0 && style.visibility !== 'hidden' && !element.closest('[hidden]') && !element.closest('.site-nav');
      if (isShown && (box.left < -1 || box.right > width + 1))
        out.push(`${element.className || element.tagName} at ${Math.round(box.left)}–${Math.round(box.right)}`);
    }
    return out;
  });
}

describe('screens fit mobile and desktop widths (screenshots in e2e/artifacts)', () => {
  const browser = useBrowser();
  const contexts = new Map<number, BrowserContext>();
  beforeAll(async () => {
    for (const width of WIDTHS)
      contexts.set(
        width,
        await browser.newContext({ viewport: { width, height: width < 768 ? 812 : 900 }, deviceScaleFactor: 1 }),
      );
  });

  it.each(
    WIDTHS.flatMap((width) =>
      LOCALES.flatMap((locale) => SCREENS.map((screen) => [screen.name, locale, width, screen] as const)),
    ),
  )('%s (%s) at %i px has nothing cut off or overflowing sideways', async (name, locale, width, screen) => {
    const page = await contexts.get(width)!.newPage();
    await page.goto(`${baseUrl}${inLocale(screen.path, locale)}`);
    await waitForHydration(page);
    await page.locator(screen.ready).first().waitFor();
    await page.waitForTimeout(250); // let entry animations finish
    await screenshot(page, `${name}-${locale}-${width}`);
    expect(await overflowing(page)).toEqual([]);
    await page.close();
  });

  // Every device class of spec §4, at its narrowest width: the header must still fit.
  const deviceWidths = DEVICE_CLASSES.map((device) => [device.name, Math.max(device.minWidth, 360)] as const);

  it.each(deviceWidths.flatMap(([device, width]) => LOCALES.map((locale) => [device, width, locale] as const)))(
    'device class %s (%i px, %s): the header navigation is either fully shown or in the menu, and nothing scrolls sideways',
    async (_device, width, locale) => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${baseUrl}${inLocale('/promotions', locale)}`);
      await waitForHydration(page);
      expect(await overflowing(page)).toEqual([]);
      const nav = await page.evaluate(() => {
        const element = document.querySelector<HTMLElement>('.site-nav');
        const menu = document.querySelector<HTMLElement>('.site-header__menu');
        return {
          isShown: !!element && getComputedStyle(element).display !== 'none',
          isClipped: !!element && element.scrollWidth > element.clientWidth + 1,
          hasMenuButton: !!menu && getComputedStyle(menu).display !== 'none',
        };
      });
      expect(nav.isShown !== nav.hasMenuButton).toBe(true);
      if (nav.isShown) expect(nav.isClipped).toBe(false);
      await context.close();
    },
  );
});
