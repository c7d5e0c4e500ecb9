import { ApiError } from '#common/errors';
import { defineMethod } from '../../api/define';
import { isUnsubscribeSignatureValid, unsubscribeKey } from './unsubscribe';

export const unsubscribeMethods = [
  defineMethod({
    name: 'account.unsubscribe',
    handler: async (ctx, params) => {
      const key = await unsubscribeKey(ctx.services.storage);
      if (!isUnsubscribeSignatureValid(key, params.u, params.c, params.s)) {
        throw new ApiError('InvalidParameterException', 'The unsubscribe link is not valid', { field: 's' });
      }
      await ctx.services.accounts.unsubscribeContact(params.u, params.c);
      return 1;
    },
  }),
];
