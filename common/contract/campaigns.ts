/** campaigns.* (spec §7: deposit offers use offset 0 and fields trigger,description,promotions; promo codes). */
import { z } from 'zod';
import type { Money } from '../money';
import { method } from './method';

/** A deposit offer as the player sees it (spec §3 offer/campaign). */
export interface OfferView {
  id: number;
  sysname: string;
  trigger: {
    action: 'deposit' | 'promo_code' | 'opt_in';
    params: { exclude_methods: string[]; min_amount: string | null };
    user_satisfies_params: boolean;
  };
  description: { title: string; text: string; image: string | null };
  /** The bonus the offer grants (issue 13: one bonus template of the site): a match with its cap, or a fixed amount. */
  promotions: {
    type: 'deposit_match' | 'fixed_bonus';
    percent: number;
    max_amount: string | null;
    currency: string;
    wagering_multiplier: number;
    template_id: string;
  }[];
}

export interface PromoCheck {
  offer_id: number;
  title: string;
  text: string;
}

export interface PromoActivation {
  offer_id: number;
  title: string;
  bonus: Money;
  /** The bonus granted: active at once, or available when another bonus must end first (isolation). */
  bonus_id: number;
  bonus_status: 'active' | 'available';
}

/** An opt-in promotion taken (campaigns.takepromotions): the bonus it granted. */
export interface PromotionTaken {
  offer_id: number;
  bonus_id: number;
  bonus_status: 'active' | 'available';
}

const promoParams = z.object({ promo_code: z.string().max(64).default(''), fields: z.string().max(200).optional() });

export const campaignsContract = {
  'campaigns.getoffers': method<OfferView[]>()({
    params: z.object({
      offset: z.coerce.number().int().min(0).max(1000).default(0),
      count: z.coerce.number().int().min(1).max(100).default(20),
      /** Spec §7 sends trigger,description,promotions; every offer carries all of them anyway. */
      fields: z.unknown().optional(),
      /**
       * Which offers: deposit offers (the spec's call, the default), promo-code offers, opt-in
       * promotions, or all of them (the /promotions pages, issue 13).
       */
      action: z.enum(['deposit', 'promo_code', 'opt_in', 'all']).default('deposit'),
    }),
  }),
  /** Promo codes are guessable: both are rate-limited per player and per address. */
  'campaigns.checkPromocode': method<PromoCheck>()({ params: promoParams }),
  'campaigns.activateOffer': method<PromoActivation>()({ params: promoParams, requiresUser: true }),
  /** Spec §7 campaigns POST takepromotions (offer_id): opt in to a promotion. */
  'campaigns.takepromotions': method<PromotionTaken>()({
    params: z.object({ offer_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }),
    requiresUser: true,
  }),
};
