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
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { LOCALES, stripLocalePrefix } from '#common/locale';
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

/**
 * Where a page's HTML breaks off for a while: inside an element a first paint would show half-parsed.
 * On the home page, inside the header's sign-in button before its text (it grows leftwards); on the
 * game page, inside the "play for real" button after its icon and before its text (its content is
 * centred, so the icon moves aside). Each answers the offset to break at, or -1.
 */
const BREAK_POINTS: Record<string, (html: string) => number> = {
  home: (html) => {
    const actions = html.indexOf('class="site-header__actions"');
    const button = actions < 0 ? -1 : html.indexOf('<button', actions);
    return button < 0 ? -1 : html.indexOf('>', button) + 1;
  },
  game: (html) => {
    const playReal = html.indexOf('data-action="play-real"');
    const icon = playReal < 0 ? -1 : html.indexOf('</svg>', playReal);
    return icon < 0 ? -1 : icon + '</svg>'.length;
  },
};
const breakPointFor = (path: string) =>
  stripLocalePrefix(path) === '/' ? BREAK_POINTS.home : path.includes(`/game/${GAME}`) ? BREAK_POINTS.game : undefined;
const STALL_MS = 1_500;

interface StallingProxy {
  origin: string;
  /** Pages whose HTML was stopped at their break point: a test that met none proved nothing. */
  stalledPages(): number;
  close(): Promise<void>;
}

/**
 * The site behind a slow network: every request goes through to it, and a page's HTML stops for a
 * while at its break point, as a phone's connection can stop mid-packet. The browser meanwhile has
 * the stylesheet and paints what it has parsed, unless the page holds that paint until its main
 * content is whole.
 */
async function startStallingProxy(base: string): Promise<StallingProxy> {
  let stalled = 0;
  const onStall = () => void (stalled += 1);
  const server = createServer((request, response) => {
    void forward(base, request, response, onStall).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stalledPages: () => stalled,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function forward(base: string, request: IncomingMessage, response: ServerResponse, onStall: () => void): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (name !== 'host' && name !== 'accept-encoding' && typeof value === 'string') headers.set(name, value);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const chunks: Buffer[] = [];
  if (hasBody) for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  const body = hasBody ? Buffer.concat(chunks) : undefined;
  const upstream = await fetch(`${base}${request.url}`, { method: request.method, headers, body, redirect: 'manual' });
  const answerHeaders: Record<string, string | string[]> = {};
  upstream.headers.forEach((value, name) => {
    if (name !== 'content-encoding' && name !== 'content-length' && name !== 'set-cookie') answerHeaders[name] = value;
  });
  const cookies = upstream.headers.getSetCookie();
  if (cookies.length > 0) answerHeaders['set-cookie'] = cookies;
  response.writeHead(upstream.status, answerHeaders);
  const text = Buffer.from(await upstream.arrayBuffer()).toString('utf8');
  const isHtml = upstream.headers.get('content-type')?.startsWith('text/html') ?? false;
  const breakPoint = isHtml ? breakPointFor(new URL(request.url ?? '/', base).pathname) : undefined;
  const breakAt = breakPoint ? breakPoint(text) : -1;
  if (breakAt < 0) return void response.end(text);
  response.write(text.slice(0, breakAt));
  onStall();
  await new Promise((resolve) => setTimeout(resolve, STALL_MS));
  response.end(text.slice(breakAt));
}

const shiftsOf = (target: Page | Frame): Promise<Shift[]> =>
  target.evaluate(() => (window as unknown as { layoutShifts: Shift[] }).layoutShifts);

describe('pages that stay where they were painted (issue 12: no layout shift)', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;
  let stallingProxy: StallingProxy | undefined;
  const proxy = () => stallingProxy!;
  beforeAll(async () => {
    stallingProxy = await startStallingProxy(base);
  });
  afterAll(async () => {
    await stallingProxy?.close();
  });

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

    it(`${inLocale('/', locale)} over a connection that stalls inside the header: the header is painted whole (${locale})`, async () => {
      const { context, page } = await browser.newPage({ viewport: 'mobile', locale: browserLocale(locale) });
      await recordShifts(page);
      const stalledBefore = proxy().stalledPages();
      await page.goto(`${proxy().origin}${inLocale('/', locale)}`);
      await waitForHydration(page);
      await settled(page);
      expect(proxy().stalledPages(), 'the page stopped inside the header').toBe(stalledBefore + 1);
      expect(await shiftsOf(page)).toEqual([]);
      await context.close();
    });

    it(`the game page over a connection that stalls inside its play-for-real button: the button is painted whole (${locale})`, async () => {
      const { context, page } = await browser.newPage({ viewport: 'mobile', locale: browserLocale(locale) });
      await recordShifts(page);
      const stalledBefore = proxy().stalledPages();
      await page.goto(`${proxy().origin}${inLocale(`/game/${GAME}`, locale)}`);
      await waitForHydration(page);
      await settled(page);
      expect(proxy().stalledPages(), 'the page stopped inside the button').toBe(stalledBefore + 1);
      expect(await shiftsOf(page)).toEqual([]);
      await context.close();
    });

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
