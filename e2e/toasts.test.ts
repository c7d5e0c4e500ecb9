/**
 * Spec §2 "Toasts show for a set time (default 5000 ms), can be closed by hand, and are placed
 * below the header height", with the connection toasts (offline / back online) as the example.
 */
import { describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { useBrowser, waitForHydration } from './browser';
import { LOCALES, inLocale, tr } from './site-facts';

const baseUrl = inject('baseUrl');

describe('toasts', () => {
  const browser = useBrowser();

  async function openPage(
    path: string,
    viewport: 'mobile' | 'desktop' = 'desktop',
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`);
    await waitForHydration(page);
    return { context, page };
  }

  it.each(LOCALES.flatMap((locale) => (['desktop', 'mobile'] as const).map((viewport) => [locale, viewport] as const)))(
    'going offline (%s, %s) shows the offline toast from translations, below the header',
    async (locale, viewport) => {
      const { context, page } = await openPage(inLocale('/promotions', locale), viewport);
      await context.setOffline(true);
      const toast = page.locator('.toast');
      await expect.poll(() => toast.textContent()).toContain(tr(locale, 'offline.header'));
      const toastBox = await toast.boundingBox();
      const headerBox = await page.locator('.site-header').boundingBox();
      expect(toastBox && headerBox).toBeTruthy();
      expect(toastBox!.y).toBeGreaterThanOrEqual(headerBox!.y + headerBox!.height);
      // Fully on screen: not cut off at either side.
      expect(toastBox!.x).toBeGreaterThanOrEqual(0);
      expect(toastBox!.x + toastBox!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
      await context.setOffline(false);
      await context.close();
    },
  );

  it.each(LOCALES)('a toast (%s) has a close button that removes it', async (locale) => {
    const { context, page } = await openPage(inLocale('/', locale));
    await context.setOffline(true);
    const toast = page.locator('.toast', { hasText: tr(locale, 'offline.header') });
    await toast.waitFor();
    await toast.getByRole('button', { name: tr(locale, 'dialog.close') }).click();
    await expect.poll(() => toast.count()).toBe(0);
    await context.setOffline(false);
    await context.close();
  });

  it('a toast disappears by itself after its set time (about 5 s)', async () => {
    const { context, page } = await openPage('/');
    await context.setOffline(true);
    const toast = page.locator('.toast', { hasText: tr('en', 'offline.header') });
    await toast.waitFor();
    await page.waitForTimeout(1500);
    expect(await toast.count()).toBe(1);
    await expect.poll(() => toast.count(), { timeout: 10_000, interval: 250 }).toBe(0);
    await context.setOffline(false);
    await context.close();
  });

  it('coming back online shows the back-online toast', async () => {
    const { context, page } = await openPage('/it');
    await context.setOffline(true);
    await page.locator('.toast', { hasText: tr('it', 'offline.header') }).waitFor();
    await context.setOffline(false);
    await expect.poll(() => page.locator('.toast', { hasText: tr('it', 'offline.back') }).count()).toBe(1);
    await context.close();
  });
});
