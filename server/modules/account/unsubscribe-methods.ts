import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { ApiError } from '#common/errors';
import { defineMethod } from '../../api/define';
import { contacts } from './tables';
import { isUnsubscribeSignatureValid, unsubscribeKey } from './unsubscribe';

export const unsubscribeMethods = [
  defineMethod({
    service: 'account',
    method: 'unsubscribe',
    verbs: ['POST'],
    params: z.object({ u: z.coerce.number().int().positive(), c: z.string().min(1).max(254), s: z.string().min(10).max(100) }),
    handler: async (ctx, params) => {
      const key = await unsubscribeKey(ctx.services.storage);
      if (!isUnsubscribeSignatureValid(key, params.u, params.c, params.s)) {
        throw new ApiError('InvalidParameterException', 'The unsubscribe link is not valid', { field: 's' });
      }
      await ctx.services.db
        .update(contacts)
        .set({ isSubscribed: false })
        .where(and(eq(contacts.userId, params.u), eq(contacts.value, params.c)));
      return 1;
    },
  }),
];
