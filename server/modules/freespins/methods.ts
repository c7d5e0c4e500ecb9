/**
 * freespins.get (spec §7: GET get with fields description, status active, count 99): the signed-in
 * player's packs. Playing a spin is games.play with `freespin_pack_id` (game-rounds/methods.ts).
 */
import { defineMethod } from '../../api/define';

export const freespinsMethods = [
  defineMethod({
    name: 'freespins.get',
    handler: async (ctx, params) => {
      const fields = (params.fields ?? '').split(',').map((field) => field.trim());
      return ctx.services.freespins.list(ctx.site.id, ctx.uid, {
        locale: ctx.locale,
        status: params.status,
        offset: params.offset,
        count: params.count,
        withDescription: fields.includes('description'),
      });
    },
  }),
];
