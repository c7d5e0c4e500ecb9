/**
 * Offers (spec §3 offer/campaign; §6 "shown to anonymous users or to users satisfying the offer
 * trigger"): their rules from the `offers` content collection (_all entries), their texts from
 * each locale. Each offer grants a bonus template of the site's programme (issue 13): a deposit
 * offer when the deposit it was chosen with is credited, a promo code when it is entered, an
 * opt-in promotion when the player takes it. The template decides the amount and the terms.
 */
import { ApiError } from '#common/errors';
import type { Locale } from '#common/locale';
import { amountToMinor } from '#common/money';
import type { BonusProgramme, BonusTemplate } from '../bonuses';
import type { ContentService } from '../content';
import type { OfferView } from '#common/contract';

export type { OfferView };

export const NO_OFFER = -1;

/** An offer's promotion: the bonus template of the site's programme it grants (issue 13). */
interface OfferPromotion {
  type: 'bonus';
  template_id: string;
}

interface OfferEntry {
  /** The operator's offer id: the same in every locale, unlike the content rows holding the texts. */
  id: number;
  sysname: string;
  sort?: number;
  trigger: {
    action: 'deposit' | 'promo_code' | 'opt_in';
    params: { exclude_methods?: string[]; first_deposit_only?: boolean; promo_code?: string };
  };
  promotions: OfferPromotion[];
  description?: { title?: string; text?: string; image?: string };
}

/** An offer whose bonus template exists on the site: offers naming a template the site lacks are not offered there. */
export interface DepositOffer {
  id: number;
  entry: OfferEntry;
  template: BonusTemplate;
  /** The template's own title and terms in the language asked for: they carry this site's amounts. */
  texts?: { title: string; text: string };
}

/** What a player is: the trigger's conditions are about them. */
export interface OfferAudience {
  isAuthenticated: boolean;
  currency: string;
  depositCount: number;
}

/** Every offer of the site with its template resolved, by trigger action, in the operator's order. */
export async function listOffers(
  content: ContentService,
  programme: BonusProgramme,
  query: { siteId: string; locale: Locale; action: OfferEntry['trigger']['action'] },
): Promise<DepositOffer[]> {
  const { entries } = await content.list({ siteId: query.siteId, collection: 'offers', locale: query.locale, limit: 100 });
  const offers: DepositOffer[] = [];
  for (const entry of entries.map((row) => row.data as unknown as OfferEntry)) {
    if (!Number.isSafeInteger(entry.id) || entry.id <= 0 || entry.trigger?.action !== query.action) continue;
    const template = programme.templates.get(entry.promotions?.[0]?.template_id ?? '');
    if (template) offers.push({ id: entry.id, entry, template, texts: template.texts?.[query.locale] ?? template.texts?.en });
  }
  return offers.sort((a, b) => (a.entry.sort ?? 0) - (b.entry.sort ?? 0));
}

export function listDepositOffers(content: ContentService, programme: BonusProgramme, siteId: string, locale: Locale) {
  return listOffers(content, programme, { siteId, locale, action: 'deposit' });
}

/** The template pays in the player's currency, and a first-deposit offer only before any deposit. */
export function satisfiesTrigger(offer: DepositOffer, audience: OfferAudience): boolean {
  if (!audience.isAuthenticated) return false;
  if (!offeredIn(offer.template, audience.currency)) return false;
  return !(offer.entry.trigger.params.first_deposit_only && audience.depositCount > 0);
}

function offeredIn(template: BonusTemplate, currency: string): boolean {
  return template.amount.kind === 'fixed'
    ? template.amount.amounts[currency] !== undefined
    : template.amount.caps[currency] !== undefined;
}

export function offerView(offer: DepositOffer, audience: OfferAudience): OfferView {
  const { entry } = offer;
  const minimum = offer.template.min_deposit?.[audience.currency];
  return {
    id: offer.id,
    sysname: entry.sysname,
    trigger: {
      action: entry.trigger.action,
      params: { exclude_methods: entry.trigger.params.exclude_methods ?? [], min_amount: minimum ?? null },
      user_satisfies_params: satisfiesTrigger(offer, audience),
    },
    description: {
      title: offer.texts?.title ?? entry.description?.title ?? entry.sysname,
      text: offer.texts?.text ?? entry.description?.text ?? '',
      image: entry.description?.image ?? null,
    },
    promotions: [promotionView(offer.template, audience.currency)],
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
  const minimum = offer.template.min_deposit?.[input.currency];
  if (minimum && input.amountMinor < amountToMinor(minimum)) throw refuse('below_minimum');
  return offer;
}

/** What the deposit dialog shows of an offer's bonus: a match percentage with its cap, or a fixed amount. */
function promotionView(template: BonusTemplate, currency: string): OfferView['promotions'][number] {
  const wagering = { wagering_multiplier: template.wagering.multiplier, template_id: template.id, currency };
  if (template.amount.kind === 'fixed') {
    return { type: 'fixed_bonus', percent: 0, max_amount: template.amount.amounts[currency] ?? null, ...wagering };
  }
  return {
    type: 'deposit_match',
    percent: template.amount.percent,
    max_amount: template.amount.caps[currency] ?? null,
    ...wagering,
  };
}
