/** popups.get (spec §7): the campaign popup for this visitor, or null; anonymous visitors ask too. */
import { defineMethod } from '../../api/define';

export const popupsMethods = [
  defineMethod({
    name: 'popups.get',
    handler: (ctx, params) =>
      ctx.services.popups.forVisitor({ siteId: ctx.site.id, locale: ctx.locale, uid: ctx.uid, event: params.event }),
  }),
];
