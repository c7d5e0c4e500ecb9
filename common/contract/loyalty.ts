/**
 * loyalty.* (spec §7). The info is the signed-in player's (spec §6: only authenticated users load
 * it); the characters list is public, because the sign-up form offers it to a visitor.
 */
import { z } from 'zod';
import type { LoyaltyCharacterList, LoyaltyInfo } from '../loyalty-contract';
import { method, type Done } from './method';

export type { LoyaltyCharacter, LoyaltyCharacterList, LoyaltyInfo, LoyaltyLevel, LoyaltyProgress } from '../loyalty-contract';

export const CHARACTERS_PAGE_MAX = 100;

export const loyaltyContract = {
  'loyalty.getinfo': method<LoyaltyInfo>()({ params: z.object({}), requiresUser: true }),
  'loyalty.getcharacters': method<LoyaltyCharacterList>()({
    params: z.object({
      offset: z.coerce.number().int().min(0).max(10_000).default(0),
      limit: z.coerce.number().int().min(1).max(CHARACTERS_PAGE_MAX).default(CHARACTERS_PAGE_MAX),
    }),
  }),
  'loyalty.setcharacter': method<Done>()({
    params: z.object({ id: z.coerce.number().int().min(1).max(1_000_000) }),
    requiresUser: true,
  }),
};
