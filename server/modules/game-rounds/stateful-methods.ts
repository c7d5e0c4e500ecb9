/**
 * The stateful in-house games in the product API (issue 5): games.start, games.act,
 * games.getOpenRound. Parameters are checked here, rules in stateful.ts.
 */
import { z } from 'zod';
import { ApiError } from '#common/errors';
import { defineMethod, type ApiContext } from '../../api/define';
import type { Gambler } from './service';

const sysnameParam = z.string().min(1).max(64);
const requestIdParam = z.string().regex(/^[A-Za-z0-9_:.-]{1,64}$/);

function gambler(ctx: ApiContext): Gambler {
  return {
    siteId: ctx.site.id,
    uid: ctx.uid,
    visitorId: ctx.visitorId,
    locale: ctx.locale,
    siteCurrency: ctx.site.defaultCurrency,
  };
}

function wrongField(field: string, message: string): ApiError {
  return new ApiError('InvalidParameterException', message, { field, errorType: 'wrongField' });
}

export const statefulRoundsMethods = [
  defineMethod({
    service: 'games',
    method: 'start',
    verbs: ['POST'],
    params: z.object({
      sysname: sysnameParam,
      mode: z.enum(['real', 'demo']).default('real'),
      /** The opening bet as JSON text: mines {"stake":"1.00","mines":3}, blackjack {"stake":"1.00"}. */
      bet: z.string().min(2).max(2_000),
      request_id: requestIdParam,
    }),
    handler: async (ctx, params) =>
      ctx.services.statefulRounds.start(gambler(ctx), {
        sysname: params.sysname,
        mode: params.mode,
        bet: params.bet,
        requestId: params.request_id,
      }),
  }),
  defineMethod({
    service: 'games',
    method: 'act',
    verbs: ['POST'],
    params: z.object({
      round_id: z.string().regex(/^\d{1,15}$/),
      /** mines: reveal, cashout; blackjack: hit, stand, double, split, insurance, no-insurance. */
      action: z.string().min(1).max(32),
      /** JSON text: mines reveal {"cell":12} (0 … 24, 5 × row + column); empty for the others. */
      params: z.string().max(500).optional(),
      request_id: requestIdParam,
    }),
    handler: async (ctx, params) => {
      const roundId = Number(params.round_id);
      if (!Number.isSafeInteger(roundId) || roundId <= 0) throw wrongField('round_id', 'Invalid parameter: round_id');
      let actionParams: unknown = {};
      if (params.params) {
        try {
          actionParams = JSON.parse(params.params);
        } catch {
          throw wrongField('params', 'The action parameters must be JSON');
        }
      }
      return ctx.services.statefulRounds.act(gambler(ctx), {
        roundId,
        action: params.action,
        params: actionParams,
        requestId: params.request_id,
      });
    },
  }),
  defineMethod({
    service: 'games',
    method: 'getOpenRound',
    verbs: ['GET'],
    params: z.object({ sysname: sysnameParam }),
    handler: async (ctx, params) => ctx.services.statefulRounds.getOpenRound(gambler(ctx), params.sysname),
  }),
];
