import { describe, expect, it } from 'vitest';
import { screenshot, useBrowser } from './browser';

describe('home page (spec §2: / renders the home page with header and footer)', () => {
  const browser = useBrowser();

  it('shows the site name in the title and header in English and Italian', async () => {
    const { context, page } = await browser.newPage();
    const response = await page.goto(`${browser.baseUrl}/`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toContain('Aurora Casino');
    await page.goto(`${browser.baseUrl}/it`);
    expect(await page.locator('html').getAttribute('lang')).toBe('it');
    await expect.poll(() => page.locator('.site-nav__link').first().textContent()).toBe('Casinò');
    await screenshot(page, 'smoke-home-it');
    await context.close();
  });
});
