/**
 * Playing the in-house games in the product API (issue 5): games.getSeeds, setClientSeed,
 * rotateSeeds, play, getRounds, verifyRound. Parameters are checked here, rules in the service.
 */
import { ApiError } from '#common/errors';
import { defineMethod, type ApiContext } from '../../api/define';
import { type Gambler } from './service';

function gambler(ctx: ApiContext): Gambler {
  return {
    siteId: ctx.site.id,
    uid: ctx.uid,
    visitorId: ctx.visitorId,
    locale: ctx.locale,
    siteCurrency: ctx.site.defaultCurrency,
  };
}

export const gameRoundsMethods = [
  defineMethod({
    name: 'games.getSeeds',
    handler: async (ctx) => ctx.services.gameRounds.getSeeds(gambler(ctx)),
  }),
  defineMethod({
    name: 'games.setClientSeed',
    handler: async (ctx, params) => ctx.services.gameRounds.setClientSeed(gambler(ctx), params.client_seed),
  }),
  defineMethod({
    name: 'games.rotateSeeds',
    handler: async (ctx, params) => ctx.services.gameRounds.rotateSeeds(gambler(ctx), params.client_seed || undefined),
  }),
  defineMethod({
    name: 'games.play',
    handler: async (ctx, params) =>
      ctx.services.gameRounds.play(gambler(ctx), {
        sysname: params.sysname,
        mode: params.mode,
        bet: params.bet,
        requestId: params.request_id,
        freespinPackId: params.freespin_pack_id ? Number(params.freespin_pack_id) : undefined,
      }),
  }),
  defineMethod({
    name: 'games.getRounds',
    handler: async (ctx, params) => ctx.services.gameRounds.getRounds(gambler(ctx), params.sysname, params.count),
  }),
  defineMethod({
    name: 'games.verifyRound',
    handler: async (ctx, params) => {
      const id = Number(params.round_id);
      if (!Number.isSafeInteger(id) || id <= 0)
        throw new ApiError('InvalidParameterException', 'Invalid parameter: round_id', {
          field: 'round_id',
          errorType: 'wrongField',
        });
      return ctx.services.gameRounds.verifyRound(gambler(ctx), id);
    },
  }),
];
