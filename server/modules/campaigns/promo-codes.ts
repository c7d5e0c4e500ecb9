/**
 * Promo codes (spec §4 promo code, §5 "promo code errors: looked up by the first code in
 * error_data.promo_code, falling back to the INVALID message"): an offer whose trigger is a code
 * pays a fixed bonus onto the bonus balance, once per player, through the ledger.
 */
import { ApiError } from '#common/errors';
import type { Locale } from '#common/locale';
import { amountToMinor, money, type Money } from '#common/money';
import type { ContentService } from '../content';
import { house, move, player, type WalletService } from '../wallet';

interface PromoEntry {
  id: number;
  sysname: string;
  trigger: { action: 'promo_code'; params: { promo_code: string } };
  promotions: { type: 'fixed_bonus'; amount: Record<string, string> }[];
  description?: { title?: string; text?: string };
}

/** The codes of the promo-code error table (translations promo.error.{CODE}). */
export type PromoCodeError = 'INVALID' | 'ALREADY_ACTIVATED' | 'NOT_AVAILABLE_IN_CURRENCY';

export function promoError(code: PromoCodeError): ApiError {
  return new ApiError('InvalidParameterException', 'Invalid parameter: promo_code', { field: 'promo_code', promo_code: [code] });
}

export async function findPromoOffer(
  content: ContentService,
  siteId: string,
  locale: Locale,
  code: string,
): Promise<PromoEntry | undefined> {
  const wanted = code.trim().toUpperCase();
  if (!wanted) return undefined;
  const { entries } = await content.list({ siteId, collection: 'offers', locale, limit: 100 });
  return entries
    .map((entry) => entry.data as unknown as PromoEntry)
    .find((entry) => entry.trigger?.action === 'promo_code' && entry.trigger.params.promo_code.toUpperCase() === wanted);
}

export function promoBonusMinor(offer: PromoEntry, currency: string): bigint {
  return offer.promotions.reduce(
    (total, promotion) =>
      total + (promotion.type === 'fixed_bonus' && promotion.amount[currency] ? amountToMinor(promotion.amount[currency]) : 0n),
    0n,
  );
}

/** Credits the code's bonus; the idempotency key makes a second activation by the same player a replay. */
export async function activatePromo(
  wallet: WalletService,
  offer: PromoEntry,
  input: { siteId: string; userId: number; currency: string },
): Promise<{ offer_id: number; title: string; bonus: Money }> {
  const bonusMinor = promoBonusMinor(offer, input.currency);
  if (bonusMinor <= 0n) throw promoError('NOT_AVAILABLE_IN_CURRENCY');
  const result = await wallet.transfer({
    siteId: input.siteId,
    userId: input.userId,
    kind: 'bonus_promo_code',
    currency: input.currency,
    amountMinor: bonusMinor,
    legs: move(house('bonus_cost', input.userId), player(input.userId, 'bonus'), bonusMinor),
    idempotencyKey: `promo:${offer.id}:${input.userId}`,
    reference: `offer:${offer.id}`,
    actor: `player:${input.userId}`,
    reason: offer.description?.title ?? `promo code ${offer.trigger.params.promo_code}`,
  });
  if (result.isReplay) throw promoError('ALREADY_ACTIVATED');
  return { offer_id: offer.id, title: offer.description?.title ?? offer.sysname, bonus: money(bonusMinor, input.currency) };
}
