/** games.launch in the product API (issue 15): parameters checked here, the launch in the service. */
import { invalidParameter as invalid } from '#common/parameter-errors';
import { localizePath } from '#common/locale';
import { defineMethod } from '../../api/define';

export const gameLaunchMethods = [
  defineMethod({
    name: 'games.launch',
    handler: async (ctx, params) => {
      const game = await ctx.services.games.getGame(ctx.site.id, ctx.locale, params.sysname);
      if (game.is_in_house) throw invalid('sysname');
      const user = ctx.uid > 0 ? await ctx.services.accounts.findUser(ctx.uid) : undefined;
      const origin = new URL(ctx.url).origin;
      return ctx.services.gameLaunch.launch({
        siteId: ctx.site.id,
        uid: user ? user.id : 0,
        sysname: game.sysname,
        mode: params.mode,
        currency: user?.currency ?? ctx.site.defaultCurrency,
        language: ctx.locale,
        returnUrl: `${origin}${localizePath(`/game/${game.sysname}`, ctx.locale)}`,
        walletUrl: origin,
      });
    },
  }),
];
