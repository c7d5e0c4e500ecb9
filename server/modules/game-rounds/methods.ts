/**
 * Playing the in-house games in the product API (issue 5): games.getSeeds, setClientSeed,
 * rotateSeeds, play, getRounds, verifyRound. Parameters are checked here, rules in the service.
 */
import { z } from 'zod';
import { ApiError } from '#common/errors';
import { defineMethod, type ApiContext } from '../../api/define';
import { RECALL_DEFAULT, RECALL_MAX, type Gambler } from './service';

const sysnameParam = z.string().min(1).max(64);

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
    service: 'games',
    method: 'getSeeds',
    verbs: ['GET'],
    params: z.object({}),
    handler: async (ctx) => ctx.services.gameRounds.getSeeds(gambler(ctx)),
  }),
  defineMethod({
    service: 'games',
    method: 'setClientSeed',
    verbs: ['POST'],
    params: z.object({ client_seed: z.string().max(200) }),
    handler: async (ctx, params) => ctx.services.gameRounds.setClientSeed(gambler(ctx), params.client_seed),
  }),
  defineMethod({
    service: 'games',
    method: 'rotateSeeds',
    verbs: ['POST'],
    params: z.object({ client_seed: z.string().max(200).optional() }),
    handler: async (ctx, params) => ctx.services.gameRounds.rotateSeeds(gambler(ctx), params.client_seed || undefined),
  }),
  defineMethod({
    service: 'games',
    method: 'play',
    verbs: ['POST'],
    params: z.object({
      sysname: sysnameParam,
      mode: z.enum(['real', 'demo']).default('real'),
      /** The bet as JSON text, per engine: {"stake":"1.00","direction":"under","target":"50.00"}, {"bets":[{"kind":"red","stake":"1.00"}]}, {"stake":"1.00"}. */
      bet: z.string().min(2).max(20_000),
      request_id: z.string().regex(/^[A-Za-z0-9_:.-]{1,64}$/),
      /** Play this round as one free spin of the player's pack (freespins.get). */
      freespin_pack_id: z
        .string()
        .regex(/^[1-9]\d{0,14}$/)
        .optional(),
    }),
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
    service: 'games',
    method: 'getRounds',
    verbs: ['GET'],
    params: z.object({ sysname: sysnameParam, count: z.coerce.number().int().min(1).max(RECALL_MAX).default(RECALL_DEFAULT) }),
    handler: async (ctx, params) => ctx.services.gameRounds.getRounds(gambler(ctx), params.sysname, params.count),
  }),
  defineMethod({
    service: 'games',
    method: 'verifyRound',
    verbs: ['GET'],
    params: z.object({ round_id: z.string().regex(/^\d{1,15}$/) }),
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
