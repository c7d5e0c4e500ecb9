/**
 * Game hall rules (spec §2 /gamehall, §3 games state, §9 page sizes and categories): the filter
 * lives in the address (category: one category; providers: a comma-joined list; favorites=1 for
 * a signed-in player's likes), pages append and de-duplicate by sysname, and the counts come
 * from games-config (first page, each "load more", the most a hall ever holds).
 */
import { GAME_CATEGORIES, type GameCategory, type GameCategoryView, type GameRecord } from '#common/games-contract';

export interface HallFilter {
  category: GameCategory;
  /** Provider sysnames, in address order, without repeats. */
  providers: string[];
  isFavoritesOnly: boolean;
}

export interface HallCounts {
  /** The first page. */
  first: number;
  /** Each "load more". */
  more: number;
  /** The most games a hall lists. */
  max: number;
}

/** Spec §9 defaults: 15, 12, 300 (games-config counts.default, counts.category, counts.max). */
export const DEFAULT_HALL_COUNTS: HallCounts = { first: 15, more: 12, max: 300 };

function positive(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** The counts from games-config's `counts` ({default, category, max}); a bad value keeps the default. */
export function hallCounts(counts: unknown): HallCounts {
  const source = typeof counts === 'object' && counts !== null ? (counts as Record<string, unknown>) : {};
  const max = positive(source.max, DEFAULT_HALL_COUNTS.max);
  return {
    first: Math.min(positive(source.default, DEFAULT_HALL_COUNTS.first), max),
    more: Math.min(positive(source.category, DEFAULT_HALL_COUNTS.more), max),
    max,
  };
}

export function isGameCategory(value: string | null | undefined): value is GameCategory {
  return (GAME_CATEGORIES as readonly string[]).includes(value ?? '');
}

/** A comma-joined list: trimmed, blanks and repeats dropped. */
export function commaList(value: string | null | undefined): string[] {
  return [
    ...new Set(
      (value ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ];
}

/** The filter of an address query; an unknown or absent category is `all`. */
export function parseHallFilter(search: URLSearchParams): HallFilter {
  const category = search.get('category');
  return {
    category: isGameCategory(category) ? category : 'all',
    providers: commaList(search.get('providers')),
    isFavoritesOnly: search.get('favorites') === '1',
  };
}

/** The address query of a filter, `all` and empty parts left out: '' or '?category=slot&providers=a,b'. */
export function hallSearch(filter: HallFilter): string {
  const parts: string[] = [];
  if (filter.category !== 'all') parts.push(`category=${encodeURIComponent(filter.category)}`);
  if (filter.providers.length) parts.push(`providers=${filter.providers.map(encodeURIComponent).join(',')}`);
  if (filter.isFavoritesOnly) parts.push('favorites=1');
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The filter with one provider ticked or unticked (checkbox filter). */
export function toggleProvider(filter: HallFilter, sysname: string): HallFilter {
  const providers = filter.providers.includes(sysname)
    ? filter.providers.filter((item) => item !== sysname)
    : [...filter.providers, sysname];
  return { ...filter, providers };
}

/** games.get parameters of a filter's page: the category's types, the providers, favourites as options JSON. */
export function hallQuery(
  filter: HallFilter,
  categories: readonly GameCategoryView[],
  offset: number,
  count: number,
): Record<string, string | number> {
  const params: Record<string, string | number> = { offset, count, sort_options: 'priority', order: 'asc' };
  const types =
    filter.category === 'all'
      ? []
      : (categories.find((category) => category.sysname === filter.category)?.types ?? [filter.category]);
  if (types.length) params.types = types.join(',');
  if (filter.providers.length) params.providers = filter.providers.join(',');
  if (filter.isFavoritesOnly) params.options = JSON.stringify({ favorites: true });
  return params;
}

/** How many to ask for next: `more`, never past `max` in all; 0 when nothing is left. */
export function nextCount(loaded: number, total: number, counts: HallCounts): number {
  const limit = Math.min(total, counts.max);
  return Math.max(0, Math.min(counts.more, limit - loaded));
}

/** Appends a loaded page, keeping the first copy of every sysname. */
export function appendGames<T extends Pick<GameRecord, 'sysname'>>(current: readonly T[], page: readonly T[]): T[] {
  const seen = new Set(current.map((game) => game.sysname));
  const added = page.filter((game) => {
    if (seen.has(game.sysname)) return false;
    seen.add(game.sysname);
    return true;
  });
  return [...current, ...added];
}

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  cancel: () => void;
}

/** Calls `fn` once `waitMs` have passed without another call, with the last call's arguments. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, waitMs: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn(...args);
    }, waitMs);
  };
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return debounced;
}

export interface SearchSection {
  type: 'games' | 'providers';
  count: number;
}

export interface SearchConfig {
  sections: SearchSection[];
  debounceMs: number;
  minQueryLength: number;
}

/** search-config with its defaults: games (12) then providers (6), 300 ms, 2 characters. */
export function searchConfig(value: unknown): SearchConfig {
  const source = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const sections = Array.isArray(source.sections)
    ? (source.sections as unknown[]).flatMap((section): SearchSection[] => {
        const entry = (section ?? {}) as Record<string, unknown>;
        return entry.type === 'games' || entry.type === 'providers'
          ? [{ type: entry.type, count: positive(entry.count, 6) }]
          : [];
      })
    : [];
  return {
    sections: sections.length
      ? sections
      : [
          { type: 'games', count: 12 },
          { type: 'providers', count: 6 },
        ],
    debounceMs: typeof source.debounceMs === 'number' && source.debounceMs >= 0 ? source.debounceMs : 300,
    minQueryLength: positive(source.minQueryLength, 2),
  };
}
