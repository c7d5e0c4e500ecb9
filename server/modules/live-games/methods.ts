/**
 * The live tables in the product API (issue 5; docs/live-games.md): games.getLiveState,
 * placeLiveBet, cashOut, getLiveBets, verifyLiveRound. Parameters are checked here, rules in the
 * service.
 */
import { z } from 'zod';
import { ApiError } from '#common/errors';
import { defineMethod, type ApiContext } from '../../api/define';
import type { Gambler } from '../game-rounds/service';

const sysnameParam = z.string().min(1).max(64);
const idParam = z.string().regex(/^\d{1,15}$/);

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
    service: 'games',
    method: 'getLiveState',
    verbs: ['GET'],
    /** With `mode`, a signed-in player's balance of that mode comes along (main for real, fun for demo). */
    params: z.object({ sysname: sysnameParam, mode: z.enum(['real', 'demo']).optional() }),
    handler: async (ctx, params) => ctx.services.liveGames.getState(gambler(ctx), params.sysname, params.mode),
  }),
  defineMethod({
    service: 'games',
    method: 'placeLiveBet',
    verbs: ['POST'],
    params: z.object({
      sysname: sysnameParam,
      mode: z.enum(['real', 'demo']).default('real'),
      /** The bet as JSON text: crash {"stake":"1.00","auto_cash_out":"2.00"}; live roulette {"bets":[{"kind":"red","stake":"1.00"}]}. */
      bet: z.string().min(2).max(20_000),
      request_id: z.string().regex(/^[A-Za-z0-9_:.-]{1,64}$/),
    }),
    handler: async (ctx, params) =>
      ctx.services.liveGames.placeBet(gambler(ctx), {
        sysname: params.sysname,
        mode: params.mode,
        bet: params.bet,
        requestId: params.request_id,
      }),
  }),
  defineMethod({
    service: 'games',
    method: 'cashOut',
    verbs: ['POST'],
    params: z.object({ bet_id: idParam }),
    handler: async (ctx, params) => ctx.services.liveGames.cashOut(gambler(ctx), positiveId(params.bet_id, 'bet_id')),
  }),
  defineMethod({
    service: 'games',
    method: 'getLiveBets',
    verbs: ['GET'],
    params: z.object({ sysname: sysnameParam, count: z.coerce.number().int().min(1).max(100).default(10) }),
    handler: async (ctx, params) => ctx.services.liveGames.getBets(gambler(ctx), params.sysname, params.count),
  }),
  defineMethod({
    service: 'games',
    method: 'verifyLiveRound',
    verbs: ['GET'],
    params: z.object({ round_id: idParam }),
    handler: async (ctx, params) => ctx.services.liveGames.verifyRound(gambler(ctx), positiveId(params.round_id, 'round_id')),
  }),
];
