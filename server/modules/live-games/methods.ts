/**
 * The live tables in the product API (issue 5; docs/live-games.md): games.getLiveState,
 * placeLiveBet, cashOut, getLiveBets, verifyLiveRound. Parameters are checked here, rules in the
 * service.
 */
import { ApiError } from '#common/errors';
import { defineMethod } from '../../api/define';
import { gamblerOf } from '../../api/gambler';

function positiveId(value: string, field: string): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw new ApiError('InvalidParameterException', `Invalid parameter: ${field}`, { field, errorType: 'wrongField' });
  return id;
}

export const liveGamesMethods = [
  defineMethod({
    name: 'games.getLiveState',
    handler: async (ctx, params) => ctx.services.liveGames.getState(gamblerOf(ctx), params.sysname, params.mode),
  }),
  defineMethod({
    name: 'games.placeLiveBet',
    handler: async (ctx, params) =>
      ctx.services.liveGames.placeBet(gamblerOf(ctx), {
        sysname: params.sysname,
        mode: params.mode,
        bet: params.bet,
        requestId: params.request_id,
      }),
  }),
  defineMethod({
    name: 'games.cashOut',
    handler: async (ctx, params) => ctx.services.liveGames.cashOut(gamblerOf(ctx), positiveId(params.bet_id, 'bet_id')),
  }),
  defineMethod({
    name: 'games.getLiveBets',
    handler: async (ctx, params) => ctx.services.liveGames.getBets(gamblerOf(ctx), params.sysname, params.count),
  }),
  defineMethod({
    name: 'games.verifyLiveRound',
    handler: async (ctx, params) => ctx.services.liveGames.verifyRound(gamblerOf(ctx), positiveId(params.round_id, 'round_id')),
  }),
];
