/** Campaigns' public face (architecture §3): offers (deposit, promo code, opt-in) and their methods. */
export {
  listDepositOffers,
  listOffers,
  NO_OFFER,
  offerView,
  requireEligibleOffer,
  satisfiesTrigger,
  type DepositOffer,
  type OfferAudience,
  type OfferView,
} from './deposit-offers';
export { activatePromo, findPromoOffer, promoError, type PromoCodeError } from './promo-codes';
export { campaignMethods } from './methods';
