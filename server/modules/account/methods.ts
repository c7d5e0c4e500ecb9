import { defineMethod } from '../../api/define';

export const accountMethods = [
  defineMethod({
    name: 'account.getInfo',
    handler: (ctx) => ctx.services.accounts.infoFor(ctx.uid, { currency: ctx.site.defaultCurrency, locale: ctx.locale }),
  }),
  defineMethod({
    name: 'account.getBalance',
    handler: async (ctx) =>
      (await ctx.services.accounts.infoFor(ctx.uid, { currency: ctx.site.defaultCurrency, locale: ctx.locale })).balances,
  }),
];
