import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newContext, screenshot } from './browser';

describe('home page (spec §2: / renders the home page with header and footer)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('shows the site name in the title and header in English and Italian', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const response = await page.goto(`${inject('baseUrl')}/`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toContain('Aurora Casino');
    await page.goto(`${inject('baseUrl')}/it`);
    expect(await page.locator('html').getAttribute('lang')).toBe('it');
    await expect.poll(() => page.locator('.site-nav__link').first().textContent()).toBe('Casinò');
    await screenshot(page, 'smoke-home-it');
    await context.close();
  });
});
