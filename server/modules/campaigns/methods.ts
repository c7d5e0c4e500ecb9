/** campaigns.getoffers (spec §7: deposit offers use offset 0 and fields trigger,description,promotions). */
import { defineMethod } from '../../api/define';
import { listDepositOffers, offerView } from './deposit-offers';
import { activatePromo, findPromoOffer, promoError } from './promo-codes';
import { IdempotencyConflictError } from '../wallet';
import type { ApiContext } from '../../api/define';

const PROMO_WINDOW_MS = 15 * 60 * 1000;

/** Promo codes are guessable: limit tries per player and per address (architecture §4). */
async function limitPromoTries(ctx: ApiContext): Promise<void> {
  await ctx.services.rateLimits.consumeAll([
    { key: `promo:ip:${ctx.ip}`, max: 30, windowMs: PROMO_WINDOW_MS },
    ...(ctx.uid > 0 ? [{ key: `promo:user:${ctx.uid}`, max: 10, windowMs: PROMO_WINDOW_MS }] : []),
  ]);
}

export const campaignMethods = [
  defineMethod({
    name: 'campaigns.getoffers',
    handler: async (ctx, params) => {
      const user = ctx.uid > 0 ? await ctx.services.accounts.findUser(ctx.uid) : undefined;
      const audience = {
        isAuthenticated: user !== undefined,
        currency: user?.currency ?? ctx.site.defaultCurrency,
        depositCount: user ? await ctx.services.cashier.depositCount(user.id) : 0,
      };
      const offers = await listDepositOffers(ctx.services.content, ctx.site.id, ctx.locale);
      return offers.slice(params.offset, params.offset + params.count).map((offer) => offerView(offer, audience));
    },
  }),
  defineMethod({
    name: 'campaigns.checkPromocode',
    handler: async (ctx, params) => {
      await limitPromoTries(ctx);
      const offer = await findPromoOffer(ctx.services.content, ctx.site.id, ctx.locale, params.promo_code);
      if (!offer) throw promoError('INVALID');
      return { offer_id: offer.id, title: offer.description?.title ?? offer.sysname, text: offer.description?.text ?? '' };
    },
  }),
  defineMethod({
    name: 'campaigns.activateOffer',
    handler: async (ctx, params) => {
      await limitPromoTries(ctx);
      const user = await ctx.services.accounts.findUser(ctx.uid);
      const offer = await findPromoOffer(ctx.services.content, ctx.site.id, ctx.locale, params.promo_code);
      if (!offer || !user) throw promoError('INVALID');
      try {
        return await activatePromo(ctx.services.wallet, offer, { siteId: ctx.site.id, userId: user.id, currency: user.currency });
      } catch (error) {
        // The same player's activation in another currency is the same code used twice.
        if (error instanceof IdempotencyConflictError) throw promoError('ALREADY_ACTIVATED');
        throw error;
      }
    },
  }),
];
