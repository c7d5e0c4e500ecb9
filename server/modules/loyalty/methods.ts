/**
 * loyalty.getinfo, getcharacters, setcharacter (spec §7). The info is the signed-in player's
 * (spec §6: only authenticated users load it); the characters list is public, because the
 * sign-up form offers it to a visitor (auth config showCharacterSelect).
 */
import { defineMethod } from '../../api/define';

export const loyaltyMethods = [
  defineMethod({
    name: 'loyalty.getinfo',
    handler: (ctx) => ctx.services.loyalty.info(ctx.site.id, ctx.uid),
  }),
  defineMethod({
    name: 'loyalty.getcharacters',
    handler: (ctx, params) => ctx.services.loyalty.characters(ctx.site.id, params.offset, params.limit),
  }),
  defineMethod({
    name: 'loyalty.setcharacter',
    handler: (ctx, params) => ctx.services.loyalty.setCharacter(ctx.site.id, ctx.uid, params.id),
  }),
];
