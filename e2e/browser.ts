/** Headless Debian Chromium through playwright-core, with the flags this workplace needs. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: FLAGS, headless: true });
}

export const VIEWPORTS = {
  mobile: { width: 375, height: 812 },
  desktop: { width: 1440, height: 900 },
} as const;

export async function newContext(
  browser: Browser,
  options: { viewport?: keyof typeof VIEWPORTS; locale?: string } = {},
): Promise<BrowserContext> {
  return browser.newContext({ viewport: VIEWPORTS[options.viewport ?? 'desktop'], locale: options.locale ?? 'en-GB' });
}

export const ARTIFACTS_DIR = join(process.cwd(), 'e2e', 'artifacts');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/**
 * Waits until React has hydrated the page: the site behaviours mark <html> with the device class
 * from an effect, which only runs in the browser after hydration.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => Boolean(document.documentElement.dataset.device), undefined, { timeout: 15_000 });
}
