/**
 * The games catalogue in the product API (spec §7 games.get, getCategories, getProviders,
 * getLikes, addLike, removeLike): parameters checked here, rules in the service.
 */
import { z } from 'zod';
import { invalidParameter as invalid } from '../../api/require-valid';
import { GAME_SORTS, GAME_TYPES, type GameType } from '#common/games-contract';
import { defineMethod } from '../../api/define';

const MAX_LIST_ITEMS = 300;

/** A comma-joined list (spec §7 sysnames, types, tags, providers, fields): blanks dropped. */
function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .slice(0, MAX_LIST_ITEMS);
}

/** Game types of a comma list; an unknown type is an invalid parameter, not an empty answer. */
function gameTypes(value: string | undefined, field = 'types'): GameType[] {
  const types = commaList(value);
  if (types.some((type) => !(GAME_TYPES as readonly string[]).includes(type))) throw invalid(field);
  return types as GameType[];
}

const optionsSchema = z.object({
  favorites: z.boolean().optional(),
  category: z.string().max(64).optional(),
});

/** options is JSON text (spec §7): {"favorites": true} lists the player's likes, {"category": "new"} one catalogue category. */
function gameOptions(value: string | undefined): z.infer<typeof optionsSchema> {
  if (value === undefined || value.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw invalid('options');
  }
  const options = optionsSchema.safeParse(parsed);
  if (!options.success) throw invalid('options');
  return options.data;
}

const listParam = z.string().max(4000).optional();
const sysnameParam = z.string().min(1).max(64);

export const gamesMethods = [
  defineMethod({
    service: 'games',
    method: 'get',
    verbs: ['GET'],
    params: z.object({
      offset: z.coerce.number().int().min(0).max(100_000).default(0),
      count: z.coerce.number().int().min(1).max(MAX_LIST_ITEMS).default(15),
      fields: listParam,
      sort_options: z
        .preprocess((value) => (typeof value === 'string' ? value.toLowerCase() : value), z.enum(GAME_SORTS))
        .default('priority'),
      order: z
        .preprocess((value) => (typeof value === 'string' ? value.toLowerCase() : value), z.enum(['asc', 'desc']))
        .default('asc'),
      sysnames: listParam,
      options: z.string().max(1000).optional(),
      query: z.string().max(100).optional(),
      types: listParam,
      tags: listParam,
      providers: listParam,
    }),
    handler: async (ctx, params) => {
      const options = gameOptions(params.options);
      const fields = commaList(params.fields);
      return ctx.services.games.list({
        siteId: ctx.site.id,
        locale: ctx.locale,
        userId: ctx.uid,
        offset: params.offset,
        count: params.count,
        fields: fields.length ? fields : undefined,
        sort: params.sort_options,
        order: params.order,
        sysnames: commaList(params.sysnames),
        query: params.query,
        types: gameTypes(params.types),
        tags: commaList(params.tags),
        providers: commaList(params.providers),
        isFavoritesOnly: options.favorites === true,
        category: options.category,
      });
    },
  }),
  defineMethod({
    service: 'games',
    method: 'getCategories',
    verbs: ['GET'],
    params: z.object({}),
    handler: async (ctx) => ctx.services.games.categories(ctx.site.id, ctx.locale),
  }),
  defineMethod({
    service: 'games',
    method: 'getProviders',
    verbs: ['GET'],
    params: z.object({ fields: listParam, types: listParam }),
    handler: async (ctx, params) =>
      ctx.services.games.providers(ctx.site.id, ctx.locale, {
        types: gameTypes(params.types),
        hasGameParams: commaList(params.fields).includes('game_params'),
      }),
  }),
  defineMethod({
    service: 'games',
    method: 'getLikes',
    verbs: ['GET'],
    requiresUser: true,
    params: z.object({}),
    handler: async (ctx) => ({
      sysnames: await ctx.services.games.likes(ctx.uid, ctx.site.id, ctx.locale),
    }),
  }),
  defineMethod({
    service: 'games',
    method: 'addLike',
    verbs: ['POST'],
    requiresUser: true,
    params: z.object({ sysname: sysnameParam }),
    handler: async (ctx, params) => {
      await ctx.services.games.addLike(ctx.uid, ctx.site.id, ctx.locale, params.sysname);
      return 1;
    },
  }),
  defineMethod({
    service: 'games',
    method: 'removeLike',
    verbs: ['POST'],
    requiresUser: true,
    params: z.object({ sysname: sysnameParam }),
    handler: async (ctx, params) => {
      await ctx.services.games.removeLike(ctx.uid, ctx.site.id, ctx.locale, params.sysname);
      return 1;
    },
  }),
];
