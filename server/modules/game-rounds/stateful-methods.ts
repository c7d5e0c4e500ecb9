/**
 * The stateful in-house games in the product API (issue 5): games.start, games.act,
 * games.getOpenRound. Parameters are checked here, rules in stateful.ts.
 */
import { ApiError } from '#common/errors';
import { defineMethod } from '../../api/define';
import { gamblerOf } from '../../api/gambler';

function wrongField(field: string, message: string): ApiError {
  return new ApiError('InvalidParameterException', message, { field, errorType: 'wrongField' });
}

export const statefulRoundsMethods = [
  defineMethod({
    name: 'games.start',
    handler: async (ctx, params) =>
      ctx.services.statefulRounds.start(gamblerOf(ctx), {
        sysname: params.sysname,
        mode: params.mode,
        bet: params.bet,
        requestId: params.request_id,
      }),
  }),
  defineMethod({
    name: 'games.act',
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
      return ctx.services.statefulRounds.act(gamblerOf(ctx), {
        roundId,
        action: params.action,
        params: actionParams,
        requestId: params.request_id,
      });
    },
  }),
  defineMethod({
    name: 'games.getOpenRound',
    handler: async (ctx, params) => ctx.services.statefulRounds.getOpenRound(gamblerOf(ctx), params.sysname),
  }),
];
