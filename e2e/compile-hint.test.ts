/**
 * Issue 12 (Lighthouse's blocking time on a phone): every script a page runs carries V8's explicit
 * compile hint as its first line (vite.config.ts, `compileHint`), so Chromium compiles it while it
 * streams in rather than function by function on the main thread while the page hydrates. Checked
 * on what the browser received (decompressed) for the home page and a game page in both languages,
 * the game's own frame included.
 */
import { describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { LOCALES } from '#common/locale';
import { browserLocale, useBrowser, waitForHydration } from './browser';
import { inLocale } from './site-facts';

const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/**
 * The first line of every script the page and its frames fetch from /assets/, by address path,
 * until `stop` is called (a body still being read when its page navigates away would never come).
 */
function watchScripts(page: Page): { scripts: Map<string, Promise<string>>; stop: () => void } {
  const scripts = new Map<string, Promise<string>>();
  const onResponse = (response: Response) => {
    const path = new URL(response.url()).pathname;
    if (!/^\/assets\/.+\.js$/.test(path)) return;
    scripts.set(
      path,
      response.text().then((text) => text.slice(0, COMPILE_HINT.length)),
    );
  };
  page.on('response', onResponse);
  return { scripts, stop: () => page.off('response', onResponse) };
}

async function firstLines(scripts: Map<string, Promise<string>>): Promise<Record<string, string>> {
  const entries = await Promise.all([...scripts].map(async ([path, line]) => [path, await line] as const));
  return Object.fromEntries(entries);
}

describe("scripts carry V8's compile hint (issue 12: blocking time)", () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  it.each(LOCALES)('every script of the %s home page and a game page starts with the hint', async (locale) => {
    const { context, page } = await browser.newPage({ viewport: 'mobile', locale: browserLocale(locale) });
    const lines: Record<string, string> = {};
    for (const path of [inLocale('/', locale), inLocale('/game/dice-roll', locale)]) {
      const { scripts, stop } = watchScripts(page);
      await page.goto(`${base}${path}`);
      await waitForHydration(page);
      // The game's frame is an app of its own: wait until its scripts have come too.
      if (path.includes('/game/')) {
        await expect
          .poll(() => [...scripts.keys()].some((script) => script.includes('game-client')), { timeout: 20_000 })
          .toBe(true);
      }
      // Read the bodies before the next page: the browser drops those of a page navigated away from.
      stop();
      Object.assign(lines, await firstLines(scripts));
    }
    expect(Object.keys(lines).length).toBeGreaterThan(3);
    const without = Object.entries(lines).filter(([, line]) => line !== COMPILE_HINT);
    expect(without, 'scripts without the hint').toEqual([]);
    await context.close();
  });
});
