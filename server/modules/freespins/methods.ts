/**
 * freespins.get (spec §7: GET get with fields description, status active, count 99): the signed-in
 * player's packs. Playing a spin is games.play with `freespin_pack_id` (game-rounds/methods.ts).
 */
import { z } from 'zod';
import { defineMethod } from '../../api/define';
import { FREESPINS_PAGE_MAX } from './service';

export const freespinsMethods = [
  defineMethod({
    service: 'freespins',
    method: 'get',
    verbs: ['GET'],
    requiresUser: true,
    params: z.object({
      /** Comma-joined extra fields; `description` adds a title per pack. */
      fields: z.string().max(200).optional(),
      status: z.enum(['active', 'all']).default('active'),
      offset: z.coerce.number().int().min(0).max(100_000).default(0),
      count: z.coerce.number().int().min(1).max(FREESPINS_PAGE_MAX).default(FREESPINS_PAGE_MAX),
    }),
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
