import { z } from 'zod';
import { defineMethod } from '../../api/define';

export const accountMethods = [
  defineMethod({
    service: 'account',
    method: 'getInfo',
    verbs: ['GET'],
    params: z.object({}),
    handler: (ctx) => ctx.services.accounts.infoFor(ctx.uid, { currency: ctx.site.defaultCurrency, locale: ctx.locale }),
  }),
  defineMethod({
    service: 'account',
    method: 'getBalance',
    verbs: ['GET'],
    requiresUser: true,
    params: z.object({}),
    handler: async (ctx) =>
      (await ctx.services.accounts.infoFor(ctx.uid, { currency: ctx.site.defaultCurrency, locale: ctx.locale })).balances,
  }),
];
