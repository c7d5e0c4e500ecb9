/**
 * "A look a player would choose" (issue 15), in the browser, in English and Italian, on a phone
 * and a desktop: every tile shows its game's drawn art and its name in the page's language
 * (translated names, no initials); tiles in a row have equal heights; the home page shows live
 * now, new, popular, providers and recent big wins; the slot reels show symbols before a spin,
 * stop one by one (read from the order of the DOM's states, not from time), draw the winning
 * lines, and with prefers-reduced-motion show the result at once. Expected names and rails come
 * from content/, not from the page.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatMoney } from '#common/money';
import { browserLocale, closeContext, screenshot, useBrowser, waitForHydration } from './browser';
import { apiCall } from './page-api';
import { inLocale, tr, type Locale } from './site-facts';

const POLL = { timeout: 20_000 };
const CONTENT = join(process.cwd(), 'content', 'shared');
const readJson = <T>(...parts: string[]): T => JSON.parse(readFileSync(join(CONTENT, ...parts), 'utf8')) as T;

interface CatalogueGame {
  sysname: string;
  categories: string[];
  priority: number;
  created_at: string;
}
const GAMES: CatalogueGame[] = readdirSync(join(CONTENT, '_all', 'games'))
  .filter((file) => file.endsWith('.json'))
  .map((file) => readJson<CatalogueGame>('_all', 'games', file));

/** The name a tile shows (spec §3 game-like record: description.name wins), in the locale. */
function shownName(locale: Locale, sysname: string): string {
  const entry = readJson<{ name: string; description?: { name?: string } }>(locale, 'games', `${sysname}.json`);
  return entry.description?.name || entry.name;
}

/** A category rail as the home page orders it (content home/main: live-now by priority, new newest first). */
function categoryRail(category: string, order: 'priority' | 'created'): string[] {
  return GAMES.filter((game) => game.categories.includes(category))
    .sort((a, b) =>
      order === 'priority'
        ? a.priority - b.priority || (a.sysname < b.sysname ? -1 : 1)
        : b.created_at.localeCompare(a.created_at) || (a.sysname < b.sysname ? 1 : -1),
    )
    .slice(0, 6)
    .map((game) => game.sysname);
}

/** Each visual row of tiles (same top) with its tiles' heights, per grid. */
async function rowHeights(page: Page, gridSelector: string): Promise<number[][]> {
  return page.locator(gridSelector).evaluateAll((grids) =>
    grids.flatMap((grid) => {
      const rows = new Map<number, number[]>();
      for (const tile of Array.from(grid.children)) {
        const box = tile.getBoundingClientRect();
        const top = Math.round(box.top);
        rows.set(top, [...(rows.get(top) ?? []), Math.round(box.height * 10) / 10]);
      }
      return [...rows.values()];
    }),
  );
}

/** Scrolls every tile into view so its lazy picture loads, then tells each tile's picture, name and size. */
async function tilesOf(page: Page, scope: string) {
  const tiles = page.locator(`${scope} [data-game-tile]`);
  const count = await tiles.count();
  for (let i = 0; i < count; i++) await tiles.nth(i).scrollIntoViewIfNeeded();
  await expect
    .poll(
      // A deferred picture has no address until it nears the screen (app/deferred-art.ts): an image
      // without one also counts as complete, so the address is waited for too.
      () =>
        tiles.evaluateAll((nodes) =>
          nodes.every((node) => {
            const image = node.querySelector('img') as HTMLImageElement | null;
            return Boolean(image?.getAttribute('src')) && image?.complete;
          }),
        ),
      POLL,
    )
    .toBe(true);
  return tiles.evaluateAll((nodes) =>
    nodes.map((node) => {
      const img = node.querySelector('img') as HTMLImageElement | null;
      return {
        sysname: node.getAttribute('data-game-tile') ?? '',
        name: node.querySelector('[data-tile-name]')?.textContent ?? '',
        src: img?.getAttribute('src') ?? '',
        loadedWidth: img?.naturalWidth ?? 0,
        width: img?.getAttribute('width'),
        height: img?.getAttribute('height'),
      };
    }),
  );
}

const CASES: { locale: Locale; viewport: 'mobile' | 'desktop' }[] = [
  { locale: 'en', viewport: 'desktop' },
  { locale: 'en', viewport: 'mobile' },
  { locale: 'it', viewport: 'desktop' },
  { locale: 'it', viewport: 'mobile' },
];

describe('the game look (issue 15)', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  it.each(CASES)(
    'home ($locale, $viewport): rails of what the site has, tiles with drawn art and translated names, equal heights in a row',
    async ({ locale, viewport }) => {
      const { context, page } = await browser.newPage({
        viewport,
        locale: browserLocale(locale),
        serviceWorkers: 'block',
        stepTimeoutMs: 60_000,
      });
      await page.goto(`${base}${inLocale('/', locale)}`);
      await waitForHydration(page);
      // The rails and their titles, in the page's language.
      const rails = await page.locator('[data-rail]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-rail')));
      expect(rails).toEqual(['popular', 'live', 'new', 'providers', 'wins']);
      for (const [rail, key] of [
        ['live', 'home.section.live'],
        ['new', 'home.section.new'],
        ['providers', 'home.section.providers'],
        ['wins', 'home.section.wins'],
      ] as const)
        expect(await page.locator(`[data-rail="${rail}"] .section-title`).textContent()).toContain(tr(locale, key));
      // Live now holds the live titles, new the newest games: from the catalogue, not a fixed list.
      const railTiles = (rail: string) =>
        page
          .locator(`[data-rail="${rail}"] [data-game-tile]`)
          .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-game-tile')));
      expect(await railTiles('live')).toEqual(categoryRail('live-now', 'priority'));
      expect(await railTiles('new')).toEqual(categoryRail('new', 'created'));
      // Every provider has its logo; big wins show wins or say there are none yet. A logo below the
      // first screen has its address in data-deferred-art until it nears the screen.
      const logos = page.locator('[data-rail="providers"] [data-provider] img');
      expect(await logos.count()).toBe(readdirSync(join(CONTENT, '_all', 'game-providers')).length);
      const logoAddresses = await logos.evaluateAll((nodes) =>
        nodes.map((node) => node.getAttribute('src') ?? node.getAttribute('data-deferred-art')),
      );
      for (const src of logoAddresses) expect(src).toMatch(/^\/platform\/art\/[a-z-]+\.svg\?v=[0-9a-f]{10}$/);
      const wins = await page.locator('[data-rail="wins"] [data-win]').count();
      if (wins === 0)
        expect(await page.locator('[data-rail="wins"] .rail-empty').textContent()).toBe(tr(locale, 'home.wins.empty'));

      for (const tile of await tilesOf(page, '.page--home')) {
        expect(tile.src, tile.sysname).toMatch(new RegExp(`^/platform/art/${tile.sysname}(-[a-z]+)?\\.svg\\?v=[0-9a-f]{10}$`));
        expect(tile.loadedWidth, `${tile.sysname} art loaded`).toBeGreaterThan(0);
        expect([tile.width, tile.height]).toEqual(['288', '192']);
        expect(tile.name).toBe(shownName(locale, tile.sysname));
      }
      for (const row of await rowHeights(page, '.page--home .game-grid, .page--home .provider-grid'))
        expect(new Set(row).size, `row heights ${row.join(', ')}`).toBe(1);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `game-look-home-${locale}-${viewport}`);
      await closeContext(context);
    },
  );

  it.each(CASES)(
    'game hall ($locale, $viewport): every tile has its art and translated name; rows have equal heights',
    async ({ locale, viewport }) => {
      const { context, page } = await browser.newPage({
        viewport,
        locale: browserLocale(locale),
        serviceWorkers: 'block',
        stepTimeoutMs: 60_000,
      });
      await page.goto(`${base}${inLocale('/gamehall', locale)}`);
      await waitForHydration(page);
      const tiles = await tilesOf(page, '.page--gamehall');
      expect(tiles.length).toBeGreaterThan(0);
      for (const tile of tiles) {
        expect(tile.loadedWidth, `${tile.sysname} art loaded`).toBeGreaterThan(0);
        expect(tile.name).toBe(shownName(locale, tile.sysname));
      }
      // Names of different lengths (one line, two lines) still give one height per row.
      const rows = await rowHeights(page, '.page--gamehall .game-grid');
      expect(rows.some((row) => row.length > 1)).toBe(true);
      for (const row of rows) expect(new Set(row).size, `row heights ${row.join(', ')}`).toBe(1);
      await screenshot(page, `game-look-gamehall-${locale}-${viewport}`);
      await closeContext(context);
    },
  );
});

/** Records every value the reel window's data-reels-stopped and data-spin-phase take, from now on (attribute old values: no change is missed). */
async function recordReels(page: Page): Promise<void> {
  await page.locator('[data-reels]').evaluate((window_) => {
    const log: { stopped: string[]; phases: string[]; strips: number; reelStates: string[] } = {
      stopped: [window_.getAttribute('data-reels-stopped') ?? ''],
      phases: [window_.getAttribute('data-spin-phase') ?? ''],
      strips: 0,
      reelStates: [],
    };
    (globalThis as unknown as { reelLog: typeof log }).reelLog = log;
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes' && record.target === window_) {
          const list = record.attributeName === 'data-reels-stopped' ? log.stopped : log.phases;
          list[list.length - 1] = record.oldValue ?? '';
          list.push(window_.getAttribute(record.attributeName!) ?? '');
        }
      }
      log.strips = Math.max(log.strips, window_.querySelectorAll('.slot__strip').length);
      // Reels at rest are always the left ones: a spinning reel never has a stopped one to its right.
      log.reelStates.push(
        Array.from(window_.querySelectorAll('[data-reel]'))
          .map((reel) => (reel.getAttribute('data-reel-state') === 'spinning' ? 'S' : '.'))
          .join(''),
      );
    }).observe(window_, { attributes: true, attributeOldValue: true, subtree: true, childList: true });
  });
}

const readLog = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as { reelLog: { stopped: string[]; phases: string[]; strips: number; reelStates: string[] } })
        .reelLog,
  );

/** Collapses runs of one value: the distinct states in the order they came. */
const distinct = (values: string[]) => values.filter((value, index) => index === 0 || value !== values[index - 1]);

interface RoundOutcome {
  payout: { amount: string; currency: string };
  outcome: { spins?: { lineWins: { line: number }[] }[] };
}

describe('the slot reels (issue 15)', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;
  const SLOTS: { sysname: string; locale: Locale; viewport: 'mobile' | 'desktop'; reels: number; rows: number }[] = [
    { sysname: 'aurora-fortune', locale: 'en', viewport: 'desktop', reels: 5, rows: 3 },
    { sysname: 'golden-reels', locale: 'it', viewport: 'mobile', reels: 5, rows: 3 },
    { sysname: 'cascade-gems', locale: 'it', viewport: 'desktop', reels: 6, rows: 5 },
  ];

  it.each(SLOTS)(
    '$sysname ($locale, $viewport): symbols before the first spin, then reels that stop one by one from the left',
    async (slot) => {
      const { context, page } = await browser.newPage({
        viewport: slot.viewport,
        locale: browserLocale(slot.locale),
        serviceWorkers: 'block',
      });
      await page.goto(`${base}${inLocale(`/platform/game/${slot.sysname}/demo`, slot.locale)}`);
      await waitForHydration(page);
      // Before any spin: a full window of drawn symbols (no letters), the reels at rest.
      const cells = page.locator('[data-reels] .slot-tile');
      expect(await cells.count()).toBe(slot.reels * slot.rows);
      for (const cell of await cells.evaluateAll((nodes) =>
        nodes.map((node) => ({
          symbol: node.getAttribute('data-symbol') ?? '',
          href: node.querySelector('use')?.getAttribute('href') ?? '',
          text: node.textContent,
        })),
      )) {
        expect(cell.href).toMatch(new RegExp(`\\.svg#${cell.symbol.toLowerCase()}$`));
        expect(cell.text).toBe('');
      }
      expect(await page.locator('[data-reels]').getAttribute('data-spin-phase')).toBe('idle');
      await recordReels(page);
      await page.click('[data-action="spin"]');
      await expect.poll(() => page.locator('[data-reels]').getAttribute('data-spin-phase'), POLL).toBe('shown');
      await expect.poll(() => page.locator('[data-slot] [data-round]').count(), POLL).toBe(1);
      const log = await readLog(page);
      // At rest, all running, then one more reel at rest at a time until all are.
      const all = String(slot.reels);
      expect(distinct(log.stopped)).toEqual([all, ...Array.from({ length: slot.reels + 1 }, (_, i) => String(i))]);
      expect(distinct(log.phases)).toEqual(['idle', 'spinning', 'shown']);
      expect(log.strips).toBe(slot.reels);
      for (const states of log.reelStates) expect(states, states).toMatch(/^\.*S*$/);
      expect(await cells.count()).toBe(slot.reels * slot.rows);
      await screenshot(page, `game-look-slot-${slot.sysname}-${slot.locale}-${slot.viewport}`);
      await closeContext(context);
    },
  );

  it.each(SLOTS.slice(0, 2))(
    '$sysname with prefers-reduced-motion ($locale): no reel ever runs, the result and the whole win show at once; winning lines are drawn',
    async (slot) => {
      const { context, page } = await browser.newPage({
        viewport: slot.viewport,
        locale: browserLocale(slot.locale),
        serviceWorkers: 'block',
        reducedMotion: 'reduce',
        stepTimeoutMs: 60_000,
      });
      await page.goto(`${base}${inLocale(`/platform/game/${slot.sysname}/demo`, slot.locale)}`);
      await waitForHydration(page);
      await recordReels(page);
      // Spins until one pays on a line (a line win comes every few spins; the loop has a generous bound).
      let lines = 0;
      for (let spin = 0; spin < 60 && lines === 0; spin++) {
        const result = page.locator('[data-slot] [data-round]');
        const before = (await result.count()) ? await result.getAttribute('data-round') : null;
        await page.click('[data-action="spin"]');
        await expect.poll(async () => ((await result.count()) ? result.getAttribute('data-round') : null), POLL).not.toBe(before);
        await expect.poll(() => page.locator('[data-action="spin"]').isDisabled(), POLL).toBe(false);
        const [round] =
          (await apiCall<RoundOutcome[]>(page, 'GET', 'games.getRounds', { sysname: slot.sysname, count: '1' })).data ?? [];
        lines = round?.outcome.spins?.[0]?.lineWins.length ?? 0;
        // The lines drawn are the lines the round paid.
        await expect.poll(() => page.locator('.slot__lines [data-win-line]').count(), POLL).toBe(lines);
        if (Number(round?.payout.amount) > 0) {
          // The win shows whole at once: no count-up.
          await expect.poll(() => page.locator('[data-win-meter]').count(), POLL).toBe(1);
          expect(await page.locator('[data-win-meter]').getAttribute('data-win-meter')).toBe('done');
          expect(await page.locator('[data-win-meter] strong').textContent()).toBe(formatMoney(round!.payout));
        }
      }
      expect(lines).toBeGreaterThan(0);
      const log = await readLog(page);
      expect(distinct(log.stopped)).toEqual([String(slot.reels)]);
      expect(log.strips).toBe(0);
      expect(log.phases).not.toContain('spinning');
      await screenshot(page, `game-look-slot-reduced-${slot.sysname}-${slot.locale}`);
      await closeContext(context);
    },
  );
});
