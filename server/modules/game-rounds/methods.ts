/**
 * Playing the in-house games in the product API (issue 5): games.getSeeds, setClientSeed,
 * rotateSeeds, play, getRounds, verifyRound. Parameters are checked here, rules in the service.
 */
import { ApiError } from '#common/errors';
import { defineMethod } from '../../api/define';
import { gamblerOf } from '../../api/gambler';

export const gameRoundsMethods = [
  defineMethod({
    name: 'games.getSeeds',
    handler: async (ctx) => ctx.services.gameRounds.getSeeds(gamblerOf(ctx)),
  }),
  defineMethod({
    name: 'games.setClientSeed',
    handler: async (ctx, params) => ctx.services.gameRounds.setClientSeed(gamblerOf(ctx), params.client_seed),
  }),
  defineMethod({
    name: 'games.rotateSeeds',
    handler: async (ctx, params) => ctx.services.gameRounds.rotateSeeds(gamblerOf(ctx), params.client_seed || undefined),
  }),
  defineMethod({
    name: 'games.play',
    handler: async (ctx, params) =>
      ctx.services.gameRounds.play(gamblerOf(ctx), {
        sysname: params.sysname,
        mode: params.mode,
        bet: params.bet,
        requestId: params.request_id,
        freespinPackId: params.freespin_pack_id ? Number(params.freespin_pack_id) : undefined,
      }),
  }),
  defineMethod({
    name: 'games.getRounds',
    handler: async (ctx, params) => ctx.services.gameRounds.getRounds(gamblerOf(ctx), params.sysname, params.count),
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
      return ctx.services.gameRounds.verifyRound(gamblerOf(ctx), id);
    },
  }),
];
