/** banners.get (spec §7): public, the home page's carousel reads it for anonymous visitors too. */
import { defineMethod } from '../../api/define';

export const bannersMethods = [
  defineMethod({
    name: 'banners.get',
    handler: (ctx, params) => ctx.services.banners.list(ctx.site.id, ctx.locale, params.offset, params.count),
  }),
];
