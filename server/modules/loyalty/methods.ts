/**
 * loyalty.getinfo, getcharacters, setcharacter (spec §7). The info is the signed-in player's
 * (spec §6: only authenticated users load it); the characters list is public, because the
 * sign-up form offers it to a visitor (auth config showCharacterSelect).
 */
import { z } from 'zod';
import { defineMethod } from '../../api/define';
import { CHARACTERS_PAGE_MAX } from './service';

export const loyaltyMethods = [
  defineMethod({
    service: 'loyalty',
    method: 'getinfo',
    verbs: ['GET'],
    requiresUser: true,
    params: z.object({}),
    handler: (ctx) => ctx.services.loyalty.info(ctx.site.id, ctx.uid),
  }),
  defineMethod({
    service: 'loyalty',
    method: 'getcharacters',
    verbs: ['GET'],
    params: z.object({
      offset: z.coerce.number().int().min(0).max(10_000).default(0),
      limit: z.coerce.number().int().min(1).max(CHARACTERS_PAGE_MAX).default(CHARACTERS_PAGE_MAX),
    }),
    handler: (ctx, params) => ctx.services.loyalty.characters(ctx.site.id, params.offset, params.limit),
  }),
  defineMethod({
    service: 'loyalty',
    method: 'setcharacter',
    verbs: ['POST'],
    requiresUser: true,
    params: z.object({ id: z.coerce.number().int().min(1).max(1_000_000) }),
    handler: (ctx, params) => ctx.services.loyalty.setCharacter(ctx.site.id, ctx.uid, params.id),
  }),
];
