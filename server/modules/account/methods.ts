import { defineMethod } from '../../api/define';

export const accountMethods = [
  defineMethod({
    name: 'account.getInfo',
    // Read only: the row the session lookup read for this request is as fresh as a second read.
    isAnswerKeptPerSession: true,
    handler: (ctx) =>
      ctx.services.accounts.infoFor(ctx.uid, { currency: ctx.site.defaultCurrency, locale: ctx.locale }, ctx.sessionUser),
  }),
  defineMethod({
    name: 'account.getBalance',
    isAnswerKeptPerSession: true,
    handler: async (ctx) =>
      (await ctx.services.accounts.infoFor(ctx.uid, { currency: ctx.site.defaultCurrency, locale: ctx.locale })).balances,
  }),
];
