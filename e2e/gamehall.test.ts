/**
 * The game hall on the real catalogue (spec §2 /gamehall, /gamehall/{id}, /providers; §3 game-like
 * record; §4 game favourite; §7 games.*; §9 page sizes and categories), in English and Italian:
 * search as you type, category and provider filters from the address and from the page, load more
 * without duplicates, favourites of a signed-in player, provider cards, unknown category 404.
 * Expected games come from the catalogue under content/, not from the page.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { browserLocale, closeContext, useBrowser, waitForHydration } from './browser';
import { configSection, homeSections, inLocale, tr, trCount, type Locale } from './site-facts';

const LOCALES: Locale[] = ['en', 'it'];
const POLL = { timeout: 15_000 };
const CONTENT = join(process.cwd(), 'content', 'shared');

interface CatalogueGame {
  sysname: string;
  provider: string;
  type: string;
  priority: number;
}

const readJson = <T>(...parts: string[]): T => JSON.parse(readFileSync(join(CONTENT, ...parts), 'utf8')) as T;
const jsonFiles = (...parts: string[]) => readdirSync(join(CONTENT, ...parts)).filter((file) => file.endsWith('.json'));

const GAMES: CatalogueGame[] = jsonFiles('_all', 'games')
  .map((file) => readJson<CatalogueGame>('_all', 'games', file))
  .sort((a, b) => a.priority - b.priority);
const PROVIDERS: { sysname: string; name: string }[] = jsonFiles('_all', 'game-providers').map((file) =>
  readJson('_all', 'game-providers', file),
);
const gameName = (locale: Locale, sysname: string) => readJson<{ name: string }>(locale, 'games', `${sysname}.json`).name;
const COUNTS = configSection<{ counts: { default: number; category: number; max: number } }>('games-config').counts;
const sysnamesWhere = (keep: (game: CatalogueGame) => boolean, count = COUNTS.default) =>
  GAMES.filter(keep)
    .slice(0, count)
    .map((game) => game.sysname);

const PASSWORD = 'secret12';
let sequence = 0;
/** Sign-up is rate-limited per address: each player here comes from an address of their own. */
const playerAddress = () => `10.78.${Math.floor(sequence / 250) % 250}.${(sequence % 250) + 1}`;

const tiles = (page: Page) =>
  page
    .locator('.page--gamehall [data-game-tile]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-game-tile')));

describe('the game hall in the browser', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  async function open(
    path: string,
    locale: Locale,
  ): Promise<{ context: BrowserContext; page: Page; status: number | undefined }> {
    const { context, page } = await browser.newPage({
      locale: browserLocale(locale),
      serviceWorkers: 'block',
      stepTimeoutMs: 15_000,
    });
    const response = await page.goto(`${base}${inLocale(path, locale)}`);
    await waitForHydration(page);
    return { context, page, status: response?.status() };
  }

  it('the catalogue has more games than the first page, so load more has work to do', () => {
    expect(GAMES.length).toBeGreaterThan(COUNTS.default);
    expect(PROVIDERS.length).toBeGreaterThan(1);
  });

  it.each(LOCALES)('(%s) finds a game by its translated name in the games search dialog, as you type', async (locale) => {
    const { context, page } = await open('/gamehall', locale);
    const target = GAMES[0]!.sysname;
    const name = gameName(locale, target);
    await page.locator('[data-action="search"]').click();
    const dialog = page.locator('[data-dialog="gamesSearch"]');
    await dialog.locator('input[name="query"]').pressSequentially(name.slice(0, 6), { delay: 40 });
    const result = dialog.locator(`[data-search-section="games"] [data-game-tile="${target}"]`);
    await expect.poll(() => result.count(), POLL).toBe(1);
    expect(await result.locator('.game-tile__name').textContent()).toBe(name);
    expect(await result.locator('a').getAttribute('href')).toBe(inLocale(`/game/${target}`, locale));
    // A query nothing matches says so.
    await dialog.locator('input[name="query"]').fill('zzqqxx');
    await expect.poll(() => dialog.locator('[data-search-empty]').textContent(), POLL).toBe(tr(locale, 'gamehall.search.empty'));
    await closeContext(context);
  });

  it.each(LOCALES)('(%s) filters by category from the address and from the category tabs, with counts', async (locale) => {
    const { context, page } = await open('/gamehall?category=live', locale);
    expect(await tiles(page)).toEqual(sysnamesWhere((game) => game.type === 'live'));
    expect(await page.locator('[data-category="live"]').getAttribute('aria-current')).toBe('page');
    const slots = GAMES.filter((game) => game.type === 'slot').length;
    const slotTab = page.locator('[data-category="slot"]');
    expect(await slotTab.locator('.chip__count').textContent()).toBe(String(slots));
    expect(await page.locator('[data-category="all"] .chip__count').textContent()).toBe(String(GAMES.length));
    await slotTab.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('category'), POLL).toBe('slot');
    await expect.poll(() => tiles(page), POLL).toEqual(sysnamesWhere((game) => game.type === 'slot'));
    expect(await page.locator('[data-category="slot"]').textContent()).toContain(tr(locale, 'gamehall.category.slot'));
    await closeContext(context);
  });

  it.each(LOCALES)('(%s) filters by providers from the address (comma-joined) and with the checkbox filter', async (locale) => {
    const [first, second] = PROVIDERS.map((provider) => provider.sysname).filter((sysname) => sysname !== 'in-house');
    const { context, page } = await open(`/gamehall?providers=${first},${second}`, locale);
    expect(await tiles(page)).toEqual(sysnamesWhere((game) => game.provider === first || game.provider === second));
    const boxes = page.locator('[data-filter="providers"] input[type="checkbox"]');
    expect(await boxes.count()).toBe(PROVIDERS.length);
    expect(await page.locator(`[data-filter="providers"] input[value="${first}"]`).isChecked()).toBe(true);
    // Untick the first: only the second remains, in the address and in the list.
    await page.locator(`[data-filter="providers"] input[value="${first}"]`).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('providers'), POLL).toBe(second);
    await expect.poll(() => tiles(page), POLL).toEqual(sysnamesWhere((game) => game.provider === second));
    await closeContext(context);
  });

  it.each(LOCALES)(
    '(%s) shows the first page of the configured size and load more appends the rest without duplicates',
    async (locale) => {
      const { context, page } = await open('/gamehall', locale);
      expect(await tiles(page)).toEqual(sysnamesWhere(() => true));
      const first = GAMES[0]!.sysname;
      expect(await page.locator(`[data-game-tile="${first}"] .game-tile__name`).textContent()).toBe(gameName(locale, first));
      expect(await page.locator(`[data-game-tile="${first}"] img`).getAttribute('src')).toMatch(
        new RegExp(`^/platform/art/${first}\\.svg\\?v=`),
      );
      // Anonymous visitors have no favourite hearts.
      expect(await page.locator('[data-like]').count()).toBe(0);
      const more = page.locator('[data-action="load-more"]');
      expect(await more.textContent()).toBe(tr(locale, 'gamehall.more'));
      await more.click();
      const all = sysnamesWhere(() => true, Math.min(GAMES.length, COUNTS.default + COUNTS.category));
      await expect.poll(() => tiles(page), POLL).toEqual(all);
      expect(new Set(await tiles(page)).size).toBe(all.length);
      if (all.length === GAMES.length) expect(await more.count()).toBe(0);
      await closeContext(context);
    },
  );

  it.each(LOCALES)(
    '(%s) a signed-in player favourites a game with the heart and filters the hall to favourites',
    async (locale) => {
      const { context, page } = await open('/gamehall', locale);
      const status = await page.evaluate(
        async ({ login, password, address }) => {
          const body = new URLSearchParams({ login, password, terms: '1' });
          return (
            await fetch('/api/auth.register?v=2.34&locale=en', {
              method: 'POST',
              body,
              headers: { 'x-forwarded-for': address },
              signal: AbortSignal.timeout(15_000),
            })
          ).status;
        },
        { login: `hall${Date.now()}${sequence++}@example.com`, password: PASSWORD, address: playerAddress() },
      );
      expect(status).toBe(200);
      await page.reload();
      await waitForHydration(page);
      const target = GAMES[2]!.sysname;
      const heart = page.locator(`[data-like="${target}"]`);
      expect(await heart.getAttribute('aria-pressed')).toBe('false');
      expect(await heart.getAttribute('aria-label')).toBe(
        tr(locale, 'gamehall.favorite.add', { game: gameName(locale, target) }),
      );
      await heart.click();
      await expect.poll(() => heart.getAttribute('aria-pressed'), POLL).toBe('true');
      const likes = await page.evaluate(
        async () => (await (await fetch('/api/games.getLikes?v=2.34&locale=en')).json()) as { data: { sysnames: string[] } },
      );
      expect(likes.data.sysnames).toEqual([target]);
      await page.locator('input[name="favorites"]').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('favorites'), POLL).toBe('1');
      await expect.poll(() => tiles(page), POLL).toEqual([target]);
      // Removing the like empties the favourites list once it loads again.
      await page.locator(`[data-like="${target}"]`).click();
      await expect.poll(() => page.locator(`[data-like="${target}"]`).getAttribute('aria-pressed'), POLL).toBe('false');
      await page.reload();
      await waitForHydration(page);
      expect(await tiles(page)).toEqual([]);
      expect(await page.locator('.hall-empty').textContent()).toBe(tr(locale, 'gamehall.empty.favorites'));
      await closeContext(context);
    },
  );

  it.each(LOCALES)(
    '(%s) /providers shows a card per provider with its game count, linking to the hall filtered by it',
    async (locale) => {
      const { context, page } = await open('/providers', locale);
      const cards = page.locator('[data-provider]');
      expect(await cards.count()).toBe(PROVIDERS.length);
      const provider = PROVIDERS.find((item) => item.sysname !== 'in-house') ?? PROVIDERS[0]!;
      const card = page.locator(`[data-provider="${provider.sysname}"]`);
      const count = GAMES.filter((game) => game.provider === provider.sysname).length;
      expect(await card.locator('.provider-card__name').textContent()).toBe(provider.name);
      expect(await card.locator('.provider-card__count').textContent()).toBe(trCount(locale, 'gamehall.providers.count', count));
      expect(await card.getAttribute('href')).toBe(`${inLocale('/gamehall', locale)}?providers=${provider.sysname}`);
      await card.click();
      await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(inLocale('/gamehall', locale));
      await expect.poll(() => tiles(page), POLL).toEqual(sysnamesWhere((game) => game.provider === provider.sysname));
      await closeContext(context);
    },
  );

  // Rails of a catalogue category (live now, new) are checked by game-look.test.ts.
  it.each(LOCALES)('(%s) the picked home sections show the catalogue names of their games, in priority order', async (locale) => {
    const { context, page } = await open('/', locale);
    for (const section of homeSections(locale).filter((candidate) => candidate.games)) {
      const wanted = new Set(section.games!.map((game) => game.sysname));
      const expected = GAMES.filter((game) => wanted.has(game.sysname)).map((game) => gameName(locale, game.sysname));
      expect(await page.locator(`#${section.id} .game-tile__name`).allTextContents()).toEqual(expected);
    }
    await closeContext(context);
  });

  it.each(LOCALES)('(%s) /gamehall/{category} shows that category; an unknown one is the 404 page', async (locale) => {
    const { context, page } = await open('/gamehall/fast', locale);
    expect(await tiles(page)).toEqual(sysnamesWhere((game) => game.type === 'fast'));
    expect(await page.locator('.page__detail').textContent()).toBe(tr(locale, 'gamehall.category.fast'));
    const response = await page.goto(`${base}${inLocale('/gamehall/unknown', locale)}`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('[data-system-page="notFound"] .system-page__header').textContent()).toBe(
      tr(locale, 'system.notFound.header'),
    );
    await closeContext(context);
  });
});
