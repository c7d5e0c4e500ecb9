import { describe, expect, it } from 'vitest';
import { NO_OFFER_ID, isOfferVisible, keptOfferId, offerTitle, visibleOffers, type DepositOffer } from './offers';

const offer = (id: number, trigger: DepositOffer['trigger']): DepositOffer => ({
  id,
  trigger,
  description: { title: `Offer ${id}` },
  promotions: [],
});

describe('deposit offers (spec §6: shown to anonymous users or users satisfying the trigger)', () => {
  it('shows every offer to an anonymous visitor', () => {
    expect(
      isOfferVisible(offer(1, { action: 'deposit', user_satisfies_params: false }), {
        isAuthenticated: false,
        method: undefined,
      }),
    ).toBe(true);
  });
  it('shows a signed-in player only the offers whose trigger they satisfy', () => {
    expect(isOfferVisible(offer(1, { user_satisfies_params: true }), { isAuthenticated: true, method: 'card' })).toBe(true);
    expect(isOfferVisible(offer(2, { user_satisfies_params: false }), { isAuthenticated: true, method: 'card' })).toBe(false);
    expect(isOfferVisible(offer(3, null), { isAuthenticated: true, method: 'card' })).toBe(false);
  });
  it('hides an offer for the methods in trigger.params.exclude_methods (list or comma text)', () => {
    const listed = offer(4, { user_satisfies_params: true, params: { exclude_methods: ['pix'] } });
    const text = offer(5, { user_satisfies_params: true, params: { exclude_methods: 'pix, bank-transfer' } });
    expect(visibleOffers([listed, text], { isAuthenticated: true, method: 'pix' })).toEqual([]);
    expect(visibleOffers([listed, text], { isAuthenticated: true, method: 'bank-transfer' }).map((o) => o.id)).toEqual([4]);
    expect(visibleOffers([listed, text], { isAuthenticated: false, method: 'card' }).map((o) => o.id)).toEqual([4, 5]);
  });
  it('offers only deposit-triggered offers at the deposit', () => {
    expect(
      isOfferVisible(offer(9, { action: 'registration', user_satisfies_params: true }), {
        isAuthenticated: true,
        method: 'card',
      }),
    ).toBe(false);
    expect(
      isOfferVisible(offer(10, { action: 'deposit', user_satisfies_params: true }), { isAuthenticated: true, method: 'card' }),
    ).toBe(true);
  });
  it('drops a chosen offer that the new method hides (campaign_offer_id back to -1)', () => {
    const kept = offer(6, { user_satisfies_params: true });
    expect(keptOfferId(6, [kept])).toBe(6);
    expect(keptOfferId(6, [])).toBe(NO_OFFER_ID);
  });
  it('titles an offer from its description', () => {
    expect(offerTitle(offer(7, null))).toBe('Offer 7');
    expect(offerTitle({ id: 8, trigger: null })).toBe('#8');
  });
});
