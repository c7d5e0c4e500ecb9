/**
 * Shapes of the games catalogue in the product API (spec §3 game-like record and games state,
 * §7 games.get, getCategories, getProviders, getLikes, addLike, removeLike).
 */

/** The game categories of spec §9; every category but `all` is one game type. */
export const GAME_CATEGORIES = ['all', 'casino', 'slot', 'live', 'fast'] as const;
export type GameCategory = (typeof GAME_CATEGORIES)[number];

export const GAME_TYPES = ['slot', 'casino', 'live', 'fast'] as const;
export type GameType = (typeof GAME_TYPES)[number];

/** Sort keys of games.get (sort_options); `priority` ranks 1 first in ascending order. */
export const GAME_SORTS = ['priority', 'name', 'created'] as const;
export type GameSort = (typeof GAME_SORTS)[number];

export interface GameParams {
  /** Stake bounds as 2-decimal amounts in the player's currency (docs/decisions/0003). */
  min_bet?: string;
  max_bet?: string;
  /** Return to player in percent. */
  rtp?: number;
  [key: string]: unknown;
}

/** Per-locale overrides of a game-like record (spec §3). */
export interface GameDescription {
  name?: string;
  img_288_192?: string;
}

/** One game of games.get: a game-like record (spec §3). */
export interface GameRecord {
  sysname: string;
  name: string;
  provider: string;
  type: GameType;
  categories: string[];
  tags: string[];
  /** Rank in the hall: 1 comes first. */
  priority: number;
  image_url: string;
  game_params: GameParams;
  has_demo: boolean;
  is_in_house: boolean;
  /** Date the game joined the catalogue (YYYY-MM-DD); the `created` sort. */
  created_at: string;
  description: GameDescription;
  /** Only for a signed-in player. */
  is_liked?: boolean;
}

export type GameField = keyof GameRecord;

/** games.get: the page of games and how many match in all. */
export interface GamesPage {
  items: Partial<GameRecord>[];
  total: number;
}

/** games.getCategories. */
export interface GameCategoryView {
  sysname: GameCategory;
  /** The game types a category holds (all of them for `all`). */
  types: GameType[];
  count: number;
}

/** games.getProviders; game_params only when asked for with fields=game_params. */
export interface GameProviderView {
  sysname: string;
  name: string;
  image_url: string;
  games_count: number;
  game_params?: Record<string, unknown>;
}

/** games.getLikes (spec §7: response data.sysnames). */
export interface GameLikes {
  sysnames: string[];
}

/** The game-like record rule (spec §3): description.name is shown instead of name. */
export function gameDisplayName(record: Pick<GameRecord, 'name' | 'description'>): string {
  return record.description?.name || record.name;
}

/** The game-like record rule (spec §3): description.img_288_192 is shown instead of image_url. */
export function gameDisplayImage(record: Pick<GameRecord, 'image_url' | 'description'>): string {
  return record.description?.img_288_192 || record.image_url;
}

/** Address of a game's generated tile art (server/web/game-art.ts). */
export function gameArtPath(sysname: string): string {
  return `/platform/art/${sysname}.svg`;
}
