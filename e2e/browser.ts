/**
 * Headless Debian Chromium through playwright-core, with the flags this workplace needs, and the
 * browser fixture every browser test file uses (useBrowser).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Frame, type Page } from 'playwright-core';
import type { Locale } from './site-facts';
import { CHROMIUM_FLAGS, CHROMIUM_LAUNCHER } from './chromium';

function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_LAUNCHER, args: CHROMIUM_FLAGS, headless: true });
}

export const VIEWPORTS = {
  mobile: { width: 375, height: 812 },
  desktop: { width: 1440, height: 900 },
} as const;

export interface ContextOptions extends Omit<BrowserContextOptions, 'viewport'> {
  /** A named viewport or a size; desktop by default. */
  viewport?: keyof typeof VIEWPORTS | { width: number; height: number };
  /** Fails a step that cannot happen after this long, with what it waited for, instead of hanging the test. */
  stepTimeoutMs?: number;
}

/** A fresh context: desktop and en-GB unless told otherwise. */
async function newContext(browser: Browser, options: ContextOptions = {}): Promise<BrowserContext> {
  const { viewport = 'desktop', stepTimeoutMs, ...rest } = options;
  const context = await browser.newContext({
    locale: 'en-GB',
    ...rest,
    viewport: typeof viewport === 'string' ? VIEWPORTS[viewport] : viewport,
  });
  if (stepTimeoutMs !== undefined) context.setDefaultTimeout(stepTimeoutMs);
  return context;
}

/** The browser language a person reading the site in `locale` has. */
export const browserLocale = (locale: Locale): string => (locale === 'it' ? 'it-IT' : 'en-GB');

/** Closes the pages first without unload handlers: a page mid-navigation can keep context.close() waiting. */
export async function closeContext(context: BrowserContext): Promise<void> {
  await Promise.all(context.pages().map((page) => page.close({ runBeforeUnload: false }).catch(() => undefined)));
  await context.close();
}

export interface BrowserFixture {
  /** Chromium, from the file's beforeAll on. */
  readonly browser: Browser;
  /** The test server's origin (e2e/global-setup.ts). */
  readonly baseUrl: string;
  newContext(options?: ContextOptions): Promise<BrowserContext>;
  /** A fresh context with one page in it. */
  newPage(options?: ContextOptions): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * One Chromium for the test file or describe block it is called in: launched before its tests,
 * and closed after them with whatever contexts they left open.
 */
export function useBrowser(): BrowserFixture {
  let launched: Browser | undefined;
  beforeAll(async () => {
    launched = await launchBrowser();
  });
  afterAll(async () => {
    if (!launched) return;
    await Promise.all(launched.contexts().map(closeContext));
    await launched.close();
  });
  const browser = (): Browser => {
    if (!launched) throw new Error('the browser is launched in beforeAll: use it inside hooks and tests');
    return launched;
  };
  return {
    get browser() {
      return browser();
    },
    baseUrl: inject('baseUrl'),
    newContext: (options) => newContext(browser(), options),
    async newPage(options) {
      const context = await newContext(browser(), options);
      return { context, page: await context.newPage() };
    },
  };
}

export const ARTIFACTS_DIR = join(process.cwd(), 'e2e', 'artifacts');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/**
 * Waits until React has hydrated the page (or a game's frame): the site behaviours mark <html> with the device class
 * from an effect, which only runs in the browser after hydration. Right after a navigation commits
 * the new document may have no <html> yet (a compressed page's first bytes follow its headers).
 */
export async function waitForHydration(page: Page | Frame): Promise<void> {
  await page.waitForFunction(() => Boolean(document.documentElement?.dataset.device), undefined, { timeout: 15_000 });
}
