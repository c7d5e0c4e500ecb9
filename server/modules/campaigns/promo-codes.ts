/**
 * Promo codes (spec §4 promo code, §5 "promo code errors: looked up by the first code in
 * error_data.promo_code, falling back to the INVALID message"): an offer whose trigger is a code
 * grants its bonus template to the player once (issue 13: a bonus with its wagering, expiry and
 * status, not loose money), active at once when the site's rules allow.
 */
import { ApiError } from '#common/errors';
import type { Locale } from '#common/locale';
import { money, type Money } from '#common/money';
import type { BonusProgramme, BonusService } from '../bonuses';
import { BonusGrantError } from '../bonuses';
import type { ContentService } from '../content';
import { listOffers, type DepositOffer } from './deposit-offers';

/** The codes of the promo-code error table (translations promo.error.{CODE}). */
export type PromoCodeError = 'INVALID' | 'ALREADY_ACTIVATED' | 'NOT_AVAILABLE_IN_CURRENCY';

export function promoError(code: PromoCodeError): ApiError {
  return new ApiError('InvalidParameterException', 'Invalid parameter: promo_code', { field: 'promo_code', promo_code: [code] });
}

export async function findPromoOffer(
  content: ContentService,
  programme: BonusProgramme,
  query: { siteId: string; locale: Locale; code: string },
): Promise<DepositOffer | undefined> {
  const wanted = query.code.trim().toUpperCase();
  if (!wanted) return undefined;
  const offers = await listOffers(content, programme, { siteId: query.siteId, locale: query.locale, action: 'promo_code' });
  return offers.find((offer) => offer.entry.trigger.params.promo_code?.toUpperCase() === wanted);
}

/** Grants the code's bonus; the grant key (the offer) makes a second activation by the same player a refusal. */
export async function activatePromo(
  bonuses: BonusService,
  offer: DepositOffer,
  input: { siteId: string; userId: number; currency: string },
): Promise<{ offer_id: number; title: string; bonus: Money; bonus_id: number; bonus_status: 'active' | 'available' }> {
  try {
    const { row, isNew } = await bonuses.grantAndActivate({
      ...input,
      templateId: offer.template.id,
      source: 'promo_code',
      sourceRef: `offer:${offer.id}`,
    });
    if (!isNew) throw promoError('ALREADY_ACTIVATED');
    return {
      offer_id: offer.id,
      title: offer.entry.description?.title ?? offer.entry.sysname,
      bonus: money(row.amountMinor, row.currency),
      bonus_id: row.id,
      bonus_status: row.status === 'active' ? 'active' : 'available',
    };
  } catch (error) {
    if (error instanceof BonusGrantError) throw promoError('NOT_AVAILABLE_IN_CURRENCY');
    throw error;
  }
}
