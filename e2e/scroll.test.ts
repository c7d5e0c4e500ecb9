/**
 * Spec §2 "Navigation behaviour": scroll to top on page change; smooth scroll to a hash anchor,
 * offset by the header height; restore position on back.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser, waitForHydration } from './browser';
import { CONTENT_SLUG, FOOTER_LINKS, homeSections } from './site-facts';

const baseUrl = inject('baseUrl');

/** The anchor's top and the header's bottom, in viewport pixels. */
function anchorAndHeader(page: Page, id: string) {
  return page.evaluate((anchorId) => {
    const anchor = document.getElementById(anchorId)?.getBoundingClientRect().top ?? NaN;
    const header = document.querySelector('.site-header')?.getBoundingClientRect().bottom ?? NaN;
    return { anchor, header, scrollY: window.scrollY };
  }, id);
}

describe('scroll on navigation', () => {
  const browser = useBrowser();

  it('a page change scrolls to the top, and going back restores the position', async () => {
    expect(FOOTER_LINKS.some((link) => link.path === `/${CONTENT_SLUG}`)).toBe(true);
    const context = await browser.newContext({ viewport: { width: 1280, height: 500 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await waitForHydration(page);
    await page.evaluate(() => window.scrollTo(0, 420));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(420);
    // A click event without Playwright's scroll-into-view, so the position left is the one set above.
    await page.locator(`.site-footer a[href="/${CONTENT_SLUG}"]`).dispatchEvent('click');
    await page.waitForURL(`${baseUrl}/${CONTENT_SLUG}`);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await page.waitForURL(`${baseUrl}/`);
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(420);
    await context.close();
  });

  it('opening an address with a hash scrolls its anchor to just below the header', async () => {
    const sectionId = homeSections('en')[1]?.id ?? 'live';
    const context = await browser.newContext({ viewport: { width: 1280, height: 420 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/#${sectionId}`);
    await waitForHydration(page);
    await expect
      .poll(async () => {
        const { anchor, header } = await anchorAndHeader(page, sectionId);
        return Math.abs(anchor - header) <= 4;
      })
      .toBe(true);
    const { scrollY } = await anchorAndHeader(page, sectionId);
    expect(scrollY).toBeGreaterThan(0);
    await context.close();
  });

  it('a link with a hash (the home section links) scrolls its anchor to just below the header', async () => {
    const sectionId = homeSections('en').at(-1)?.id ?? 'live';
    const context = await browser.newContext({ viewport: { width: 1280, height: 420 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await waitForHydration(page);
    const link = page.locator(`.section-links a[href="/#${sectionId}"]`);
    expect(await link.count()).toBe(1);
    await link.click();
    await page.waitForURL(`${baseUrl}/#${sectionId}`);
    await expect
      .poll(async () => {
        const { anchor, header } = await anchorAndHeader(page, sectionId);
        return Math.abs(anchor - header) <= 12;
      })
      .toBe(true);
    await context.close();
  });
});
