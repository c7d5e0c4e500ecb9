/**
 * The games catalogue (spec §3 game-like record and games state, §7 games.*): games and their
 * providers are content (collections `games` and `game-providers`: rules in _all, names per
 * locale), so an operator edits them like any other content; a player's favourites are the one
 * table of this module.
 */
import { and, desc, eq } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import type { Locale } from '#common/locale';
import { nameCollator } from '#common/collation';
import {
  GAME_CATEGORIES,
  GAME_TYPES,
  gameDisplayName,
  type GameCategoryView,
  type GameField,
  type GameProviderView,
  type GameRecord,
  type GameSort,
  type GameType,
  type GamesPage,
} from '#common/games-contract';
import type { Database } from '../../db/client';
import type { PlayerRowsCache } from '../../db/player-rows-cache';
import type { ContentService, ContentEntry } from '../content';
import { gameLikes } from './tables';
import { artUrl, versionedArtUrl } from './drawn-art';

/** A catalogue game: its record plus what only the server needs. */
export interface Game extends GameRecord {
  /** The in-house engine that plays it (common/games/), absent for an external provider's game. */
  engine?: string;
}

export interface GameQuery {
  siteId: string;
  locale: Locale;
  /** Signed-in player's uid, 0 for an anonymous visitor. */
  userId: number;
  offset: number;
  count: number;
  /** Keys each item keeps; undefined keeps them all. */
  fields?: readonly string[];
  sort: GameSort;
  order: 'asc' | 'desc';
  sysnames?: readonly string[];
  /** Case-insensitive part of the shown name, the name or the sysname. */
  query?: string;
  types?: readonly GameType[];
  tags?: readonly string[];
  providers?: readonly string[];
  /** Only the player's favourites (options {"favorites": true}); none for an anonymous visitor. */
  isFavoritesOnly?: boolean;
  /** Only games of this catalogue category (options {"category": "new"}). */
  category?: string;
}

const CONTENT_PAGE = 100;
const GAME_TYPE_SET: ReadonlySet<string> = new Set(GAME_TYPES);

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Each cached content entry's game, made once: every play and lobby call lists the site's games,
 * and the content cache hands out the same entry objects until content changes (issue 12).
 */
const gameOfEntry = new WeakMap<ContentEntry, Game | null>();

function cachedGame(entry: ContentEntry): Game | undefined {
  let game = gameOfEntry.get(entry);
  if (game === undefined) {
    game = Object.freeze(toGame(entry)) ?? null;
    gameOfEntry.set(entry, game);
  }
  return game ?? undefined;
}

/** A content entry as a game, or undefined when its rules are incomplete (it is then not offered). */
function toGame(entry: ContentEntry): Game | undefined {
  const data = entry.data;
  const sysname = typeof data.sysname === 'string' ? data.sysname : entry.slug;
  if (typeof data.type !== 'string' || !GAME_TYPE_SET.has(data.type) || typeof data.provider !== 'string') return undefined;
  const description = isRecord(data.description) ? data.description : {};
  return {
    sysname,
    name: typeof data.name === 'string' ? data.name : sysname,
    provider: data.provider,
    type: data.type as GameType,
    categories: stringList(data.categories),
    tags: stringList(data.tags),
    priority: typeof data.priority === 'number' ? data.priority : Number.MAX_SAFE_INTEGER,
    image_url: typeof data.image_url === 'string' ? versionedArtUrl(data.image_url) : artUrl(sysname),
    game_params: isRecord(data.game_params) ? data.game_params : {},
    has_demo: data.has_demo === true,
    is_in_house: data.is_in_house === true,
    created_at: typeof data.created_at === 'string' ? data.created_at : entry.updatedAt.slice(0, 10),
    description: {
      ...(typeof description.name === 'string' ? { name: description.name } : {}),
      ...(typeof description.img_288_192 === 'string' ? { img_288_192: versionedArtUrl(description.img_288_192) } : {}),
    },
    ...(typeof data.engine === 'string' ? { engine: data.engine } : {}),
  };
}

/** The wire record: server-only keys dropped, then cut to the fields asked for. */
function recordView(game: Game, fields: readonly string[] | undefined, isLiked: boolean | undefined): Partial<GameRecord> {
  const { engine: _engine, ...record } = game;
  const full: GameRecord = isLiked === undefined ? record : { ...record, is_liked: isLiked };
  if (!fields) return full;
  const view: Partial<Record<GameField, unknown>> = { sysname: full.sysname };
  for (const field of fields) if (field in full) view[field as GameField] = full[field as GameField];
  return view as Partial<GameRecord>;
}

function compareGames(sort: GameSort, locale: Locale): (a: Game, b: Game) => number {
  const collator = nameCollator(locale);
  const byKey: Record<GameSort, (a: Game, b: Game) => number> = {
    priority: (a, b) => a.priority - b.priority,
    name: (a, b) => collator.compare(gameDisplayName(a), gameDisplayName(b)),
    created: (a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0),
  };
  // Ties keep one order on every page, so paging never repeats or skips a game.
  return (a, b) => byKey[sort](a, b) || (a.sysname < b.sysname ? -1 : a.sysname > b.sysname ? 1 : 0);
}

export interface GamesDeps {
  db: Database;
  content: ContentService;
  /**
   * The external titles an aggregator serves now (issue 15): the others are left out of the
   * lobby, search and counts instead of failing at launch. Unset: none is served.
   */
  hostedExternalTitles?: () => Promise<ReadonlySet<string>>;
  /** Where a player's likes are kept between changes (issue 12). */
  playerRows?: PlayerRowsCache;
}

export function createGamesService({ db, content, hostedExternalTitles, playerRows }: GamesDeps) {
  async function listCollection(siteId: string, collection: string, locale: Locale): Promise<ContentEntry[]> {
    const entries: ContentEntry[] = [];
    for (let offset = 0; ; offset += CONTENT_PAGE) {
      const page = await content.list({
        siteId,
        collection,
        locale,
        offset,
        limit: CONTENT_PAGE,
      });
      entries.push(...page.entries);
      if (page.entries.length < CONTENT_PAGE || entries.length >= page.total) return entries;
    }
  }

  /** Every game of a site in a locale, in no particular order. */
  async function listGames(siteId: string, locale: Locale): Promise<Game[]> {
    return (await listCollection(siteId, 'games', locale)).map(cachedGame).filter((game): game is Game => game !== undefined);
  }

  /** The games a player can start now: in-house ones, and external ones an aggregator serves. */
  async function listPlayable(siteId: string, locale: Locale): Promise<Game[]> {
    const all = await listGames(siteId, locale);
    if (all.every((game) => game.is_in_house)) return all;
    const hosted = hostedExternalTitles ? await hostedExternalTitles() : new Set<string>();
    return all.filter((game) => game.is_in_house || hosted.has(game.sysname));
  }

  async function likedSysnames(userId: number, siteId: string): Promise<readonly string[]> {
    if (userId <= 0) return [];
    const read = async () => {
      const rows = await db
        .select({ sysname: gameLikes.sysname })
        .from(gameLikes)
        .where(and(eq(gameLikes.userId, userId), eq(gameLikes.siteId, siteId)))
        .orderBy(desc(gameLikes.createdAt), desc(gameLikes.sysname));
      return Object.freeze(rows.map((row) => row.sysname));
    };
    if (!playerRows) return read();
    return playerRows.get(`likes:${siteId}:${userId}`, read, { ownerOf: () => userId });
  }

  /** The game, or InvalidParameterException naming `sysname` when the site has none of that name. */
  async function getGame(siteId: string, locale: Locale, sysname: string): Promise<Game> {
    const game = (await listGames(siteId, locale)).find((candidate) => candidate.sysname === sysname);
    if (!game)
      throw new ApiError('InvalidParameterException', 'Invalid parameter: sysname', {
        field: 'sysname',
        errorType: 'wrongField',
      });
    return game;
  }

  return {
    listGames,
    listPlayable,
    getGame,

    /** games.get: filters are joined by AND, the values of one filter by OR. */
    async list(query: GameQuery): Promise<GamesPage> {
      // The likes are read only when the answer needs them: is_liked asked for (or every field), or the favourites filter.
      const needsLikes = query.isFavoritesOnly === true || !query.fields || query.fields.includes('is_liked');
      const likes = query.userId > 0 && needsLikes ? new Set(await likedSysnames(query.userId, query.siteId)) : undefined;
      const sysnames = query.sysnames?.length ? new Set(query.sysnames) : undefined;
      const types = query.types?.length ? new Set<string>(query.types) : undefined;
      const tags = query.tags?.length ? query.tags : undefined;
      const providers = query.providers?.length ? new Set(query.providers) : undefined;
      const needle = query.query?.trim().toLocaleLowerCase(query.locale);
      const matches = (await listPlayable(query.siteId, query.locale)).filter(
        (game) =>
          (!sysnames || sysnames.has(game.sysname)) &&
          (!types || types.has(game.type)) &&
          (!tags || tags.some((tag) => game.tags.includes(tag))) &&
          (!providers || providers.has(game.provider)) &&
          (!query.category || game.categories.includes(query.category)) &&
          (!query.isFavoritesOnly || likes?.has(game.sysname) === true) &&
          (!needle ||
            [gameDisplayName(game), game.name, game.sysname].some((text) =>
              text.toLocaleLowerCase(query.locale).includes(needle),
            )),
      );
      const compare = compareGames(query.sort, query.locale);
      matches.sort(query.order === 'asc' ? compare : (a, b) => compare(b, a));
      return {
        items: matches
          .slice(query.offset, query.offset + query.count)
          .map((game) => recordView(game, query.fields, likes && likes.has(game.sysname))),
        total: matches.length,
      };
    },

    /** games.getCategories: the categories of spec §9 with how many games each holds. */
    async categories(siteId: string, locale: Locale): Promise<GameCategoryView[]> {
      const games = await listPlayable(siteId, locale);
      return GAME_CATEGORIES.map((category) => {
        const types = category === 'all' ? [...GAME_TYPES] : [category];
        return {
          sysname: category,
          types,
          count: games.filter((game) => types.includes(game.type)).length,
        };
      });
    },

    /** games.getProviders: providers with at least one game of the given types (any type when none). */
    async providers(
      siteId: string,
      locale: Locale,
      options: { types?: readonly GameType[]; hasGameParams: boolean },
    ): Promise<GameProviderView[]> {
      const games = await listPlayable(siteId, locale);
      const counts = new Map<string, number>();
      for (const game of games)
        if (!options.types?.length || options.types.includes(game.type))
          counts.set(game.provider, (counts.get(game.provider) ?? 0) + 1);
      const views: GameProviderView[] = [];
      for (const entry of await listCollection(siteId, 'game-providers', locale)) {
        const sysname = typeof entry.data.sysname === 'string' ? entry.data.sysname : entry.slug;
        const count = counts.get(sysname);
        if (!count) continue;
        views.push({
          sysname,
          name: typeof entry.data.name === 'string' ? entry.data.name : sysname,
          image_url: artUrl(sysname),
          games_count: count,
          ...(options.hasGameParams
            ? {
                game_params: isRecord(entry.data.game_params) ? entry.data.game_params : {},
              }
            : {}),
        });
      }
      const collator = nameCollator(locale);
      return views.sort((a, b) => collator.compare(a.name, b.name));
    },

    /** games.getLikes: the player's favourites still in the catalogue, newest first. */
    async likes(userId: number, siteId: string, locale: Locale): Promise<string[]> {
      const known = new Set((await listGames(siteId, locale)).map((game) => game.sysname));
      return (await likedSysnames(userId, siteId)).filter((sysname) => known.has(sysname));
    },

    /** games.addLike: liking a game twice keeps one like. */
    async addLike(userId: number, siteId: string, locale: Locale, sysname: string): Promise<void> {
      await getGame(siteId, locale, sysname);
      await db.insert(gameLikes).values({ userId, siteId, sysname }).onConflictDoNothing();
    },

    /** games.removeLike: removing a like that is not there changes nothing. */
    async removeLike(userId: number, siteId: string, locale: Locale, sysname: string): Promise<void> {
      await getGame(siteId, locale, sysname);
      await db.delete(gameLikes).where(and(eq(gameLikes.userId, userId), eq(gameLikes.sysname, sysname)));
    },
  };
}

export type GamesService = ReturnType<typeof createGamesService>;
