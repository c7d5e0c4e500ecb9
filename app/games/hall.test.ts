import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GameCategoryView } from '#common/games-contract';
import {
  appendGames,
  debounce,
  hallCounts,
  hallQuery,
  hallSearch,
  nextCount,
  parseHallFilter,
  searchConfig,
  toggleProvider,
} from './hall';

const CATEGORIES: GameCategoryView[] = [
  { sysname: 'all', types: ['slot', 'casino', 'live', 'fast'], count: 24 },
  { sysname: 'casino', types: ['casino'], count: 4 },
  { sysname: 'slot', types: ['slot'], count: 11 },
];

describe('the game hall filter in the address (spec §2 /gamehall: category, providers)', () => {
  it('reads one category and a comma-joined provider list', () => {
    expect(parseHallFilter(new URLSearchParams('category=slot&providers=redfox,%20northlight,,redfox'))).toEqual({
      category: 'slot',
      providers: ['redfox', 'northlight'],
      isFavoritesOnly: false,
    });
  });

  it('treats an absent or unknown category as all (spec §9 categories all, casino, slot, live, fast)', () => {
    expect(parseHallFilter(new URLSearchParams('')).category).toBe('all');
    expect(parseHallFilter(new URLSearchParams('category=poker')).category).toBe('all');
  });

  it('reads the favourites filter as favorites=1', () => {
    expect(parseHallFilter(new URLSearchParams('favorites=1')).isFavoritesOnly).toBe(true);
    expect(parseHallFilter(new URLSearchParams('favorites=0')).isFavoritesOnly).toBe(false);
  });

  it('writes back the same address it reads, leaving out all and empty parts', () => {
    expect(hallSearch({ category: 'all', providers: [], isFavoritesOnly: false })).toBe('');
    const search = '?category=live&providers=livewave,redfox&favorites=1';
    expect(hallSearch(parseHallFilter(new URLSearchParams(search)))).toBe(search);
  });

  it('ticks and unticks a provider (checkbox filter)', () => {
    const filter = parseHallFilter(new URLSearchParams('providers=redfox'));
    expect(toggleProvider(filter, 'northlight').providers).toEqual(['redfox', 'northlight']);
    expect(toggleProvider(filter, 'redfox').providers).toEqual([]);
  });
});

describe('games.get parameters of a hall page (spec §7)', () => {
  it('asks for the category types, providers, priority order and favourites as options JSON', () => {
    const filter = parseHallFilter(new URLSearchParams('category=slot&providers=redfox,northlight&favorites=1'));
    expect(hallQuery(filter, CATEGORIES, 15, 12)).toEqual({
      offset: 15,
      count: 12,
      sort_options: 'priority',
      order: 'asc',
      types: 'slot',
      providers: 'redfox,northlight',
      options: '{"favorites":true}',
    });
  });

  it('leaves types out for all', () => {
    expect(hallQuery(parseHallFilter(new URLSearchParams('')), CATEGORIES, 0, 15)).toEqual({
      offset: 0,
      count: 15,
      sort_options: 'priority',
      order: 'asc',
    });
  });
});

describe('page sizes (spec §9: games config counts 15, 12, 300)', () => {
  it('reads games-config counts default, category and max', () => {
    expect(hallCounts({ default: 15, category: 12, max: 300 })).toEqual({ first: 15, more: 12, max: 300 });
    expect(hallCounts({ default: 20, category: 8, max: 100 })).toEqual({ first: 20, more: 8, max: 100 });
  });

  it('keeps the defaults for missing or bad values', () => {
    expect(hallCounts(undefined)).toEqual({ first: 15, more: 12, max: 300 });
    expect(hallCounts({ default: -1, category: 'x', max: 0 })).toEqual({ first: 15, more: 12, max: 300 });
  });

  it('loads 12 more until the total, and never past the maximum', () => {
    const counts = hallCounts({ default: 15, category: 12, max: 300 });
    expect(nextCount(15, 24, counts)).toBe(9);
    expect(nextCount(15, 100, counts)).toBe(12);
    expect(nextCount(24, 24, counts)).toBe(0);
    expect(nextCount(295, 1000, counts)).toBe(5);
    expect(nextCount(300, 1000, counts)).toBe(0);
  });
});

describe('load more appends and de-duplicates by sysname', () => {
  it('keeps the first copy of every game and the order of arrival', () => {
    const merged = appendGames([{ sysname: 'a' }, { sysname: 'b' }], [{ sysname: 'b' }, { sysname: 'c' }, { sysname: 'c' }]);
    expect(merged.map((game) => game.sysname)).toEqual(['a', 'b', 'c']);
  });
});

describe('debounce (games search as you type)', () => {
  afterEach(() => vi.useRealTimers());

  it('calls once with the last arguments after the wait has passed without another call', () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const search = debounce((query: string) => calls.push(query), 300);
    search('a');
    vi.advanceTimersByTime(200);
    search('au');
    vi.advanceTimersByTime(299);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['au']);
  });

  it('calls nothing once cancelled', () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const search = debounce((query: string) => calls.push(query), 300);
    search('au');
    search.cancel();
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual([]);
  });
});

describe('search config (spec §3 search config sections)', () => {
  it('reads sections, debounce and minimum length, with defaults', () => {
    expect(
      searchConfig({
        sections: [
          { type: 'games', count: 12 },
          { type: 'providers', count: 6 },
        ],
        debounceMs: 300,
        minQueryLength: 2,
      }),
    ).toEqual({
      sections: [
        { type: 'games', count: 12 },
        { type: 'providers', count: 6 },
      ],
      debounceMs: 300,
      minQueryLength: 2,
    });
    expect(searchConfig(undefined).sections.map((section) => section.type)).toEqual(['games', 'providers']);
  });
});
