/**
 * Issue 12 (Lighthouse: a phone sees the lobby at once, cumulative layout shift stays 0): nothing a
 * page painted moves once the browser has hydrated it and loaded what it asks for. Checked on a
 * phone, in both languages, on the pages Lighthouse measures. The game page is the one that moved:
 * its full-screen button arrived after hydration and pushed the game down, and in its frame the
 * autoplay panel (the jurisdiction's rules, asked for by the browser) and the seed hash (which wraps
 * to several lines) pushed the fairness panel down. A phone also paints before the HTML is all
 * parsed: the game client, centred in its frame's height, moved up as the rest of it arrived, and
 * the demo ribbon's centred icon moved aside when its text did. The layout shifts are read from the
 * browser's own entries (PerformanceObserver 'layout-shift'), in the page and in the game's frame.
 */
import { describe, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { LOCALES } from '#common/locale';
import { browserLocale, useBrowser, waitForHydration } from './browser';
import { inLocale } from './site-facts';

const POLL = { timeout: 20_000 };
const GAME = 'aurora-fortune';

interface Shift {
  value: number;
  moved: string[];
}

/** Records every layout shift of each document the page loads (its frames too), from the first paint on. */
async function recordShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: Shift[] = [];
    (window as unknown as { layoutShifts: Shift[] }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
      const box = (rect: DOMRectReadOnly) => [rect.x, rect.y, rect.width, rect.height].map(Math.round).join(',');
      for (const entry of list.getEntries() as unknown as { value: number; sources: Source[] }[]) {
        // What moved, from where to where (x,y,width,height): a failure says what to look at.
        const moved = entry.sources.map((source) => {
          const name = source.node instanceof Element ? `${source.node.tagName}.${source.node.getAttribute('class')}` : '#text';
          return `${name} ${box(source.previousRect)} → ${box(source.currentRect)}`;
        });
        shifts.push({ value: entry.value, moved });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/**
 * A phone's speed, as Lighthouse's mobile run assumes (its CPU four times slower than this one):
 * a slow phone paints a page while its HTML is still being parsed, so content that arrives later
 * in the document must not move what was painted above it. At full speed the parser rarely stops
 * mid-page, and such a shift showed in some runs only.
 */
async function atPhoneSpeed(page: Page): Promise<void> {
  const session = await page.context().newCDPSession(page);
  await session.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

/** The document and its images loaded, its fonts in, and two frames drawn after that. */
async function settled(target: Page | Frame): Promise<void> {
  await target.waitForLoadState('load');
  await target.evaluate(async () => {
    await document.fonts.ready;
    for (let frame = 0; frame < 2; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
  });
}

const shiftsOf = (target: Page | Frame): Promise<Shift[]> =>
  target.evaluate(() => (window as unknown as { layoutShifts: Shift[] }).layoutShifts);

describe('pages that stay where they were painted (issue 12: no layout shift)', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  for (const locale of LOCALES) {
    for (const path of ['/', '/gamehall']) {
      it(`${inLocale(path, locale)} on a phone: nothing moves after the first paint (${locale})`, async () => {
        const { context, page } = await browser.newPage({ viewport: 'mobile', locale: browserLocale(locale) });
        await recordShifts(page);
        await atPhoneSpeed(page);
        await page.goto(`${base}${inLocale(path, locale)}`);
        await waitForHydration(page);
        await settled(page);
        expect(await shiftsOf(page)).toEqual([]);
        await context.close();
      });
    }

    it(`the game page and its game on a phone: nothing moves once the game, its autoplay and its seeds are in (${locale})`, async () => {
      const { context, page } = await browser.newPage({ viewport: 'mobile', locale: browserLocale(locale) });
      await recordShifts(page);
      await atPhoneSpeed(page);
      await page.goto(`${base}${inLocale(`/game/${GAME}`, locale)}`);
      await waitForHydration(page);
      const frameElement = page.locator('iframe[data-game-frame="demo"]');
      await expect.poll(() => frameElement.count(), POLL).toBe(1);
      const frame = (await (await frameElement.elementHandle())!.contentFrame())!;
      await waitForHydration(frame);
      // What used to arrive late: the full-screen button, autoplay, the seed pair.
      await page.locator('[data-action="full-screen"]').waitFor(POLL);
      await frame.locator('[data-autoplay]').first().waitFor(POLL);
      await frame.waitForFunction(() =>
        /^[0-9a-f]{64}$/.test(document.querySelector('[data-server-seed-hash]')?.textContent ?? ''),
      );
      await settled(frame);
      await settled(page);
      // A refused call's message would move the game too: none is expected for a demo visitor.
      expect(await frame.locator('[data-game-error]').allTextContents(), 'messages in the game').toEqual([]);
      expect(await shiftsOf(page), 'the game page').toEqual([]);
      expect(await shiftsOf(frame), 'the game in its frame').toEqual([]);
      await context.close();
    });
  }
});
