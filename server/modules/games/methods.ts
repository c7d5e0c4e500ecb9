/**
 * The games catalogue in the product API (spec §7 games.get, getCategories, getProviders,
 * getLikes, addLike, removeLike): parameters checked here, rules in the service.
 */
import { z } from 'zod';
import { invalidParameter as invalid } from '#common/parameter-errors';
import { GAME_TYPES, type GameType } from '#common/games-contract';
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

export const gamesMethods = [
  defineMethod({
    name: 'games.get',
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
    name: 'games.getCategories',
    handler: async (ctx) => ctx.services.games.categories(ctx.site.id, ctx.locale),
  }),
  defineMethod({
    name: 'games.getProviders',
    handler: async (ctx, params) =>
      ctx.services.games.providers(ctx.site.id, ctx.locale, {
        types: gameTypes(params.types),
        hasGameParams: commaList(params.fields).includes('game_params'),
      }),
  }),
  defineMethod({
    name: 'games.getLikes',
    handler: async (ctx) => ({
      sysnames: await ctx.services.games.likes(ctx.uid, ctx.site.id, ctx.locale),
    }),
  }),
  defineMethod({
    name: 'games.addLike',
    handler: async (ctx, params) => {
      await ctx.services.games.addLike(ctx.uid, ctx.site.id, ctx.locale, params.sysname);
      return 1;
    },
  }),
  defineMethod({
    name: 'games.removeLike',
    handler: async (ctx, params) => {
      await ctx.services.games.removeLike(ctx.uid, ctx.site.id, ctx.locale, params.sysname);
      return 1;
    },
  }),
];
