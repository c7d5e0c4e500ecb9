/**
 * Deposit offers (spec §3 offer/campaign; §6 "shown to anonymous users or to users satisfying
 * the offer trigger"): their rules from the `offers` content collection (_all entries), their
 * texts from each locale. A chosen offer pays a deposit-match bonus onto the bonus balance when
 * the deposit is credited, in the same database transaction, through the ledger.
 */
import { ApiError } from '#common/errors';
import type { Locale } from '#common/locale';
import { amountToMinor, minorToAmount } from '#common/money';
import type { ContentService } from '../content';
import type { OfferView } from '#common/contract';

export type { OfferView };

export const NO_OFFER = -1;

interface OfferEntry {
  /** The operator's offer id: the same in every locale, unlike the content rows holding the texts. */
  id: number;
  sysname: string;
  sort?: number;
  trigger: {
    action: 'deposit';
    params: { exclude_methods?: string[]; min_amount?: Record<string, string>; first_deposit_only?: boolean };
  };
  promotions: { type: 'deposit_match'; percent: number; max_amount: Record<string, string> }[];
  description?: { title?: string; text?: string; image?: string };
}

export interface DepositOffer {
  id: number;
  entry: OfferEntry;
}

/** What a player is: the trigger's conditions are about them. */
export interface OfferAudience {
  isAuthenticated: boolean;
  currency: string;
  depositCount: number;
}

export async function listDepositOffers(content: ContentService, siteId: string, locale: Locale): Promise<DepositOffer[]> {
  const { entries } = await content.list({ siteId, collection: 'offers', locale, limit: 100 });
  return entries
    .map((entry) => ({ id: (entry.data as unknown as OfferEntry).id, entry: entry.data as unknown as OfferEntry }))
    .filter((offer) => Number.isSafeInteger(offer.id) && offer.id > 0)
    .filter((offer) => offer.entry.trigger?.action === 'deposit')
    .sort((a, b) => (a.entry.sort ?? 0) - (b.entry.sort ?? 0));
}

export function satisfiesTrigger(offer: DepositOffer, audience: OfferAudience): boolean {
  if (!audience.isAuthenticated) return false;
  if (!offer.entry.promotions.some((promotion) => promotion.max_amount[audience.currency])) return false;
  return !(offer.entry.trigger.params.first_deposit_only && audience.depositCount > 0);
}

export function offerView(offer: DepositOffer, audience: OfferAudience): OfferView {
  const { entry } = offer;
  const minimum = entry.trigger.params.min_amount?.[audience.currency];
  return {
    id: offer.id,
    sysname: entry.sysname,
    trigger: {
      action: entry.trigger.action,
      params: { exclude_methods: entry.trigger.params.exclude_methods ?? [], min_amount: minimum ?? null },
      user_satisfies_params: satisfiesTrigger(offer, audience),
    },
    description: {
      title: entry.description?.title ?? entry.sysname,
      text: entry.description?.text ?? '',
      image: entry.description?.image ?? null,
    },
    promotions: entry.promotions.map((promotion) => ({
      type: promotion.type,
      percent: promotion.percent,
      max_amount: promotion.max_amount[audience.currency] ?? null,
      currency: audience.currency,
    })),
  };
}

/**
 * Checks a deposit's chosen offer: the trigger holds for the player, the method is not excluded
 * and the amount reaches the minimum. InvalidParameterException naming campaign_offer_id otherwise.
 */
export function requireEligibleOffer(
  offers: DepositOffer[],
  offerId: number,
  input: OfferAudience & { method: string; amountMinor: bigint },
): DepositOffer | undefined {
  if (offerId === NO_OFFER) return undefined;
  const refuse = (reason: string) =>
    new ApiError('InvalidParameterException', 'Invalid parameter: campaign_offer_id', {
      field: 'campaign_offer_id',
      errorType: 'wrongField',
      reason,
    });
  const offer = offers.find((candidate) => candidate.id === offerId);
  if (!offer || !satisfiesTrigger(offer, input)) throw refuse('not_available');
  if (offer.entry.trigger.params.exclude_methods?.includes(input.method)) throw refuse('method_excluded');
  const minimum = offer.entry.trigger.params.min_amount?.[input.currency];
  if (minimum && input.amountMinor < amountToMinor(minimum)) throw refuse('below_minimum');
  return offer;
}

/** The bonus a deposit earns: percent of the amount, capped, rounded down to the minor unit. */
export function depositMatchBonus(offer: DepositOffer, amountMinor: bigint, currency: string): bigint {
  let total = 0n;
  for (const promotion of offer.entry.promotions) {
    const cap = promotion.max_amount[currency];
    if (promotion.type !== 'deposit_match' || !cap) continue;
    const match = (amountMinor * BigInt(Math.round(promotion.percent * 100))) / 10_000n;
    const capMinor = amountToMinor(cap);
    total += match < capMinor ? match : capMinor;
  }
  return total;
}

export const describeBonus = (offer: DepositOffer, bonusMinor: bigint) =>
  `${offer.entry.description?.title ?? offer.entry.sysname} (${minorToAmount(bonusMinor)})`;
