/**
 * The live tables in the product API (issue 5; docs/live-games.md): games.getLiveState,
 * placeLiveBet, cashOut, getLiveBets, verifyLiveRound. Parameters are checked here, rules in the
 * service.
 */
import { ApiError } from '#common/errors';
import { defineMethod, type ApiContext } from '../../api/define';
import type { Gambler } from '../round-intake';

function gambler(ctx: ApiContext): Gambler {
  return {
    siteId: ctx.site.id,
    uid: ctx.uid,
    visitorId: ctx.visitorId,
    locale: ctx.locale,
    siteCurrency: ctx.site.defaultCurrency,
  };
}

function positiveId(value: string, field: string): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw new ApiError('InvalidParameterException', `Invalid parameter: ${field}`, { field, errorType: 'wrongField' });
  return id;
}

export const liveGamesMethods = [
  defineMethod({
    name: 'games.getLiveState',
    handler: async (ctx, params) => ctx.services.liveGames.getState(gambler(ctx), params.sysname, params.mode),
  }),
  defineMethod({
    name: 'games.placeLiveBet',
    handler: async (ctx, params) =>
      ctx.services.liveGames.placeBet(gambler(ctx), {
        sysname: params.sysname,
        mode: params.mode,
        bet: params.bet,
        requestId: params.request_id,
      }),
  }),
  defineMethod({
    name: 'games.cashOut',
    handler: async (ctx, params) => ctx.services.liveGames.cashOut(gambler(ctx), positiveId(params.bet_id, 'bet_id')),
  }),
  defineMethod({
    name: 'games.getLiveBets',
    handler: async (ctx, params) => ctx.services.liveGames.getBets(gambler(ctx), params.sysname, params.count),
  }),
  defineMethod({
    name: 'games.verifyLiveRound',
    handler: async (ctx, params) => ctx.services.liveGames.verifyRound(gambler(ctx), positiveId(params.round_id, 'round_id')),
  }),
];
