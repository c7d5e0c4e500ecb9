/** Campaigns' public face (architecture §3): deposit offers and promo codes, their methods. */
export {
  depositMatchBonus,
  describeBonus,
  listDepositOffers,
  NO_OFFER,
  offerView,
  requireEligibleOffer,
  satisfiesTrigger,
  type DepositOffer,
  type OfferAudience,
  type OfferView,
} from './deposit-offers';
export { activatePromo, findPromoOffer, promoBonusMinor, promoError, type PromoCodeError } from './promo-codes';
export { campaignMethods } from './methods';
