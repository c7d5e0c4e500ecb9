/**
 * Deposit offers (spec §3 offer/campaign, §6): shown to anonymous visitors or to players who
 * satisfy the offer's trigger; trigger.params.exclude_methods hides an offer for those methods.
 * The chosen offer travels as campaign_offer_id, -1 for none.
 */

export const NO_OFFER_ID = -1;

export interface DepositOffer {
  id: number;
  trigger: {
    action?: string;
    params?: { exclude_methods?: string[] | string | null } | null;
    user_satisfies_params?: boolean;
  } | null;
  description?: { title?: string; name?: string; text?: string; description?: string; image?: string | null } | null;
  promotions?: unknown[];
}

function excludedMethods(offer: DepositOffer): string[] {
  const value = offer.trigger?.params?.exclude_methods;
  if (!value) return [];
  return Array.isArray(value)
    ? value
    : value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
}

/** Whether a player sees an offer when depositing with a method. */
export function isOfferVisible(offer: DepositOffer, input: { isAuthenticated: boolean; method: string | undefined }): boolean {
  // Offers triggered by something other than a deposit (registration, a promo code…) are not chosen here.
  if (offer.trigger?.action && offer.trigger.action !== 'deposit') return false;
  if (input.isAuthenticated && offer.trigger?.user_satisfies_params !== true) return false;
  return !(input.method && excludedMethods(offer).includes(input.method));
}

export function visibleOffers(
  offers: readonly DepositOffer[],
  input: { isAuthenticated: boolean; method: string | undefined },
): DepositOffer[] {
  return offers.filter((offer) => isOfferVisible(offer, input));
}

/** The chosen offer if it is still visible for the method, else none. */
export function keptOfferId(chosenId: number, visible: readonly DepositOffer[]): number {
  return visible.some((offer) => offer.id === chosenId) ? chosenId : NO_OFFER_ID;
}

export function offerTitle(offer: DepositOffer): string {
  return offer.description?.title ?? offer.description?.name ?? `#${offer.id}`;
}

export function offerText(offer: DepositOffer): string {
  return offer.description?.text ?? offer.description?.description ?? '';
}
