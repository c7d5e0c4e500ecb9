/**
 * The games catalogue through the API (spec §7 games.get with offset, count, fields,
 * sort_options, sysnames, options as JSON text, order, query, types, tags, providers;
 * getCategories; getProviders with fields game_params and types; §3 game-like record; §9 page
 * sizes 15 and 300 and the categories all, casino, slot, live, fast).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameCategoryView, GameProviderView, GameRecord, GamesPage } from '#common/games-contract';
import { gameDisplayImage, gameDisplayName } from '#common/games-contract';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { startAggregatorRig, type AggregatorRig } from '../../../test/aggregator';

describe.each(testDatabaseKinds())('games catalogue on %s', (kind) => {
  let t: TestApp;
  let rig: AggregatorRig;
  let all: GameRecord[];

  async function games(params: Record<string, string> = {}, locale = 'en'): Promise<GamesPage> {
    const answer = await t.api('games.get', { params, locale });
    if (answer.body.error) throw new Error(`${answer.body.error.type}: ${answer.body.error.message}`);
    return answer.body.data as GamesPage;
  }
  const sysnamesOf = (page: GamesPage) => page.items.map((item) => item.sysname);

  beforeAll(async () => {
    t = await createTestApp(kind);
    // The external studios' titles are listed while the game aggregator serves them (issue 15).
    rig = await startAggregatorRig(t);
    all = (await games({ count: '300' })).items as GameRecord[];
  });
  afterAll(async () => {
    await rig?.close();
    await t?.close();
  });

  it('games.get answers { items, total }: 15 games by default (spec §9), every game counted in total', async () => {
    const page = await games();
    expect(all.length).toBeGreaterThan(15);
    expect(page.total).toBe(all.length);
    expect(page.items).toHaveLength(15);
    expect(sysnamesOf(page)).toEqual(all.slice(0, 15).map((game) => game.sysname));
  });

  it('each item is a game-like record (spec §3) with its drawn art (versioned address, issue 15) and no server-only keys', async () => {
    const roulette = all.find((game) => game.sysname === 'european-roulette');
    expect(roulette).toEqual({
      sysname: 'european-roulette',
      name: 'European Roulette',
      provider: 'in-house',
      type: 'casino',
      categories: ['popular'],
      tags: ['roulette', 'table'],
      priority: 8,
      image_url: expect.stringMatching(/^\/platform\/art\/european-roulette\.svg\?v=[0-9a-f]{10}$/),
      game_params: { min_bet: '0.10', max_bet: '500.00', rtp: 97.3 },
      has_demo: true,
      is_in_house: true,
      created_at: '2026-01-05',
      description: {},
    });
    for (const game of all) {
      expect(game.image_url).toMatch(new RegExp(`^/platform/art/${game.sysname}\\.svg\\?v=[0-9a-f]{10}$`));
      expect(game).not.toHaveProperty('engine');
      expect(game).not.toHaveProperty('is_liked');
    }
  });

  it('the home page rails are in the catalogue: picked games under the same sysnames and names, each category rail holds games (issue 15)', async () => {
    const site = await t.services.sites.resolveSite('127.0.0.1');
    const entry = await t.services.content.findEntry(site.id, 'home', 'en', 'main');
    const sections = (entry?.data.sections ?? []) as { games?: { sysname: string; name: string }[]; category?: string }[];
    const tiles = sections.flatMap((section) => section.games ?? []);
    expect(tiles.length).toBeGreaterThan(0);
    for (const tile of tiles) expect(all.find((game) => game.sysname === tile.sysname)?.name).toBe(tile.name);
    const categories = sections.flatMap((section) => section.category ?? []);
    expect(categories).toEqual(['live-now', 'new']);
    for (const category of categories)
      expect(
        all.some((game) => game.categories.includes(category)),
        category,
      ).toBe(true);
  });

  it('offset and count page through the same order: pages join up to the whole list without repeats', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < all.length; offset += 7) {
      const page = await games({ offset: String(offset), count: '7' });
      expect(page.total).toBe(all.length);
      seen.push(...(sysnamesOf(page) as string[]));
    }
    expect(seen).toEqual(all.map((game) => game.sysname));
    expect((await games({ offset: String(all.length), count: '5' })).items).toEqual([]);
  });

  it('count is 1 to 300 (spec §9 max 300); outside it is InvalidParameterException naming count', async () => {
    for (const count of ['0', '301', 'many']) {
      const answer = await t.api('games.get', { params: { count } });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        type: 'InvalidParameterException',
        error_data: { field: 'count' },
      });
    }
    expect((await games({ count: '300' })).items).toHaveLength(all.length);
  });

  it('fields keeps only the keys asked for (and the sysname); unknown names are ignored', async () => {
    const page = await games({
      fields: 'name, image_url,nonsense',
      count: '3',
    });
    for (const item of page.items) expect(Object.keys(item).sort()).toEqual(['image_url', 'name', 'sysname']);
    expect(page.total).toBe(all.length);
  });

  it('sort_options priority (default), name and created, each asc or desc', async () => {
    const priorities = all.map((game) => game.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
    expect(all[0]?.sysname).toBe('aurora-fortune');

    const byPriorityDesc = (await games({ sort_options: 'priority', order: 'desc', count: '300' })).items as GameRecord[];
    expect(byPriorityDesc.map((game) => game.sysname)).toEqual([...all].reverse().map((game) => game.sysname));

    const byName = (await games({ sort_options: 'name', count: '300' })).items as GameRecord[];
    const names = byName.map(gameDisplayName);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(names[0]).toBe('Aurora Fortune');

    const newest = (await games({ sort_options: 'created', order: 'DESC', count: '300' })).items as GameRecord[];
    const dates = newest.map((game) => game.created_at);
    expect(dates).toEqual([...dates].sort().reverse());

    expect((await t.api('games.get', { params: { sort_options: 'rtp' } })).body.error).toMatchObject({
      error_data: { field: 'sort_options' },
    });
    expect((await t.api('games.get', { params: { order: 'up' } })).body.error).toMatchObject({ error_data: { field: 'order' } });
  });

  it('sysnames picks those games (unknown ones match nothing)', async () => {
    const page = await games({
      sysnames: 'dice-roll,mines-field,no-such-game',
    });
    expect(page.total).toBe(2);
    expect(sysnamesOf(page)).toEqual(['mines-field', 'dice-roll']);
  });

  it('types is a comma list of slot, casino, live, fast; an unknown type is InvalidParameterException naming types', async () => {
    const live = await games({ types: 'live', count: '300' });
    expect(live.total).toBe(all.filter((game) => game.type === 'live').length);
    expect(live.items.every((item) => item.type === 'live')).toBe(true);
    const mixed = await games({ types: 'live,fast', count: '300' });
    expect(mixed.total).toBe(all.filter((game) => game.type === 'live' || game.type === 'fast').length);
    // The tournament game list of spec §7: every type, sorted by priority ascending, 12 a page.
    const tournament = await games({
      types: 'slot,live,casino,fast',
      sort_options: 'priority',
      order: 'asc',
      count: '12',
    });
    expect(tournament.total).toBe(all.length);
    expect(tournament.items).toHaveLength(12);
    const answer = await t.api('games.get', {
      params: { types: 'slot,bingo' },
    });
    expect(answer.body.error).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'types' },
    });
  });

  it('tags and providers match any of their values; different parameters must all match', async () => {
    const jackpots = await games({ tags: 'jackpot', count: '300' });
    expect(jackpots.total).toBeGreaterThan(0);
    expect(jackpots.items.every((item) => item.tags?.includes('jackpot'))).toBe(true);
    const either = await games({ tags: 'jackpot,baccarat', count: '300' });
    expect(either.total).toBe(all.filter((game) => game.tags.includes('jackpot') || game.tags.includes('baccarat')).length);

    const livewave = await games({ providers: 'livewave', count: '300' });
    expect(livewave.total).toBe(all.filter((game) => game.provider === 'livewave').length);
    const two = await games({ providers: 'livewave,redfox', count: '300' });
    expect(two.total).toBe(all.filter((game) => ['livewave', 'redfox'].includes(game.provider)).length);

    const combined = await games({
      providers: 'redfox,northlight',
      types: 'slot',
      tags: 'jackpot,cascade',
      count: '300',
    });
    const expected = all.filter(
      (game) =>
        ['redfox', 'northlight'].includes(game.provider) &&
        game.type === 'slot' &&
        (game.tags.includes('jackpot') || game.tags.includes('cascade')),
    );
    expect(expected.length).toBeGreaterThan(1);
    expect(sysnamesOf(combined)).toEqual(expected.map((game) => game.sysname));
    expect(combined.total).toBe(expected.length);

    const paged = await games({
      providers: 'redfox,northlight',
      types: 'slot',
      tags: 'jackpot,cascade',
      count: '1',
      offset: '1',
      sort_options: 'name',
    });
    expect(paged.total).toBe(expected.length);
    expect(paged.items).toHaveLength(1);
  });

  it('query searches the name case-insensitively, and the sysname', async () => {
    // Every listed game whose shown name or sysname says roulette (LiveWave's Auto Roulette while the aggregator serves it).
    const roulettes = (types: string[]) =>
      all
        .filter((game) => types.includes(game.type) && /roulette/i.test(`${gameDisplayName(game)} ${game.name} ${game.sysname}`))
        .map((game) => game.sysname)
        .sort();
    expect(sysnamesOf(await games({ query: 'ROULETTE', count: '300' })).sort()).toEqual(
      roulettes(['slot', 'casino', 'live', 'fast']),
    );
    expect(roulettes(['slot', 'casino', 'live', 'fast'])).toEqual(expect.arrayContaining(['european-roulette', 'live-roulette']));
    expect(sysnamesOf(await games({ query: 'fox-fort' }))).toEqual(['fox-fortune']);
    expect((await games({ query: 'nothing like this' })).total).toBe(0);
    expect(sysnamesOf(await games({ query: 'roulette', types: 'live', count: '300' })).sort()).toEqual(roulettes(['live']));
  });

  it('Italian names come from the it locale, and query searches them there (spec §1 en and it)', async () => {
    const italian = await games({ sysnames: 'european-roulette,dice-roll' }, 'it');
    expect(italian.items.map((item) => item.name)).toEqual(['Dadi', 'Roulette Europea']);
    expect(sysnamesOf(await games({ query: 'europea' }, 'it'))).toEqual(['european-roulette']);
    expect(sysnamesOf(await games({ query: 'europea' }, 'en'))).toEqual(['european-roulette']);
    expect((await games({ query: 'dadi' }, 'en')).total).toBe(0);
    expect(sysnamesOf(await games({ query: 'dadi' }, 'it'))).toEqual(['dice-roll']);
  });

  it('the game-like record rule (spec §3): description.name and description.img_288_192 are shown instead of name and image_url', async () => {
    // Lightning Wheel is a LiveWave table: its record is read from the catalogue whether or not an aggregator serves it now.
    const wheel = await t.services.games.getGame((await t.services.sites.resolveSite('127.0.0.1')).id, 'en', 'lightning-wheel');
    expect(wheel.name).toBe('Lightning Wheel');
    expect(wheel.image_url).toMatch(/^\/platform\/art\/lightning-wheel\.svg(\?v=|$)/);
    expect(wheel.description).toEqual({
      name: 'Lightning Wheel: Halloween Nights',
      img_288_192: expect.stringMatching(/^\/platform\/art\/lightning-wheel-halloween\.svg\?v=/),
    });
    expect(gameDisplayName(wheel)).toBe('Lightning Wheel: Halloween Nights');
    expect(gameDisplayImage(wheel)).toBe(wheel.description?.img_288_192);
    // The shown name is searched and sorted on: the listed games whose shown name says Halloween.
    expect(sysnamesOf(await games({ query: 'halloween' }))).toEqual(
      all.filter((game) => gameDisplayName(game).toLowerCase().includes('halloween')).map((game) => game.sysname),
    );
    const italianWheel = await t.services.games.getGame(
      (await t.services.sites.resolveSite('127.0.0.1')).id,
      'it',
      'lightning-wheel',
    );
    expect(gameDisplayName(italianWheel)).toBe('Ruota Fulminea: Notti di Halloween');
    const [dice] = (await games({ sysnames: 'dice-roll' })).items as GameRecord[];
    expect(gameDisplayName(dice!)).toBe('Dice');
    expect(gameDisplayImage(dice!)).toBe(dice?.image_url);
    expect(dice?.image_url).toMatch(/^\/platform\/art\/dice-roll\.svg\?v=/);
  });

  it('options is JSON text: invalid JSON or a wrong option is InvalidParameterException naming options', async () => {
    for (const options of ['{favorites:true', '[1]', '{"favorites":"yes"}', 'null']) {
      const answer = await t.api('games.get', { params: { options } });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        type: 'InvalidParameterException',
        error_data: { field: 'options' },
      });
    }
    const newGames = await games({
      options: JSON.stringify({ category: 'new' }),
      count: '300',
    });
    expect(newGames.total).toBe(all.filter((game) => game.categories.includes('new')).length);
    expect(newGames.total).toBeGreaterThan(0);
    expect((await games({ options: '{}' })).total).toBe(all.length);
  });

  it('an anonymous visitor asking for favorites gets none', async () => {
    expect(await games({ options: '{"favorites":true}' })).toEqual({
      items: [],
      total: 0,
    });
  });

  it('games.getCategories counts all, casino, slot, live and fast (spec §9)', async () => {
    const answer = await t.api('games.getCategories');
    const categories = answer.body.data as GameCategoryView[];
    expect(categories.map((category) => category.sysname)).toEqual(['all', 'casino', 'slot', 'live', 'fast']);
    expect(categories[0]).toEqual({
      sysname: 'all',
      types: ['slot', 'casino', 'live', 'fast'],
      count: all.length,
    });
    for (const category of categories.slice(1)) {
      expect(category.types).toEqual([category.sysname]);
      expect(category.count).toBe(all.filter((game) => game.type === category.sysname).length);
      expect(category.count).toBeGreaterThan(0);
    }
  });

  it('games.getProviders lists providers with their game counts; fields=game_params adds game_params; types filters (spec §7)', async () => {
    const plain = (await t.api('games.getProviders')).body.data as GameProviderView[];
    // Every provider with a listed game, and only those (the aggregator's titles are listed while it serves them).
    expect(plain.map((provider) => provider.sysname).sort()).toEqual([...new Set(all.map((game) => game.provider))].sort());
    expect(plain.map((provider) => provider.sysname)).toEqual(expect.arrayContaining(['in-house', 'northlight', 'redfox']));
    for (const provider of plain) {
      expect(provider.games_count).toBe(all.filter((game) => game.provider === provider.sysname).length);
      expect(provider).not.toHaveProperty('game_params');
      expect(provider.image_url).toMatch(new RegExp(`^/platform/art/${provider.sysname}\\.svg\\?v=[0-9a-f]{10}$`));
    }
    const withParams = (
      await t.api('games.getProviders', {
        params: { fields: 'game_params', types: 'casino,slot,live,fast' },
      })
    ).body.data as GameProviderView[];
    expect(withParams).toHaveLength(plain.length);
    expect(withParams.find((provider) => provider.sysname === 'in-house')?.game_params).toMatchObject({
      is_in_house: true,
      is_provably_fair: true,
    });

    const live = (await t.api('games.getProviders', { params: { types: 'live' } })).body.data as GameProviderView[];
    expect(live.map((provider) => provider.sysname).sort()).toEqual(
      [...new Set(all.filter((game) => game.type === 'live').map((game) => game.provider))].sort(),
    );
    expect(live.find((provider) => provider.sysname === 'in-house')?.games_count).toBe(1);
    expect((await t.api('games.getProviders', { params: { types: 'sports' } })).body.error).toMatchObject({
      error_data: { field: 'types' },
    });
  });

  it('methods are read with GET; the names are case-insensitive (games.getcategories)', async () => {
    expect((await t.api('games.getcategories')).status).toBe(200);
  });
});
