/**
 * campaigns.* (spec §7): deposit offers (offset 0, fields trigger,description,promotions), promo
 * codes (checkPromocode, activateOffer) and opt-in promotions (takepromotions). Every offer grants
 * a bonus template of the site's programme through the bonus engine (issue 13).
 */
import { defineMethod } from '../../api/define';
import type { ApiContext } from '../../api/define';
import { listOffers, offerView, satisfiesTrigger } from './deposit-offers';
import { activatePromo, findPromoOffer, promoError } from './promo-codes';
import { ApiError } from '#common/errors';
import { BonusGrantError } from '../bonuses';

const PROMO_WINDOW_MS = 15 * 60 * 1000;

/** Promo codes are guessable: limit tries per player and per address (architecture §4). */
async function limitPromoTries(ctx: ApiContext): Promise<void> {
  await ctx.services.rateLimits.consumeAll([
    { key: `promo:ip:${ctx.ip}`, max: 30, windowMs: PROMO_WINDOW_MS },
    ...(ctx.uid > 0 ? [{ key: `promo:user:${ctx.uid}`, max: 10, windowMs: PROMO_WINDOW_MS }] : []),
  ]);
}

async function audienceOf(ctx: ApiContext) {
  const user = ctx.uid > 0 ? await ctx.services.accounts.findUser(ctx.uid) : undefined;
  return {
    user,
    audience: {
      isAuthenticated: user !== undefined,
      currency: user?.currency ?? ctx.site.defaultCurrency,
      depositCount: user ? await ctx.services.cashier.depositCount(user.id) : 0,
    },
  };
}

const offerRefused = (reason: string) =>
  new ApiError('InvalidParameterException', 'Invalid parameter: offer_id', {
    field: 'offer_id',
    errorType: 'wrongField',
    reason,
  });

export const campaignMethods = [
  defineMethod({
    name: 'campaigns.getoffers',
    handler: async (ctx, params) => {
      const { audience } = await audienceOf(ctx);
      const programme = await ctx.services.bonuses.programmeOf(ctx.site.id);
      const actions = params.action === 'all' ? (['deposit', 'opt_in', 'promo_code'] as const) : [params.action];
      const lists = await Promise.all(
        actions.map((action) => listOffers(ctx.services.content, programme, { siteId: ctx.site.id, locale: ctx.locale, action })),
      );
      return lists
        .flat()
        .slice(params.offset, params.offset + params.count)
        .map((offer) => offerView(offer, audience));
    },
  }),
  defineMethod({
    name: 'campaigns.checkPromocode',
    handler: async (ctx, params) => {
      await limitPromoTries(ctx);
      const programme = await ctx.services.bonuses.programmeOf(ctx.site.id);
      const offer = await findPromoOffer(ctx.services.content, programme, {
        siteId: ctx.site.id,
        locale: ctx.locale,
        code: params.promo_code,
      });
      if (!offer) throw promoError('INVALID');
      return {
        offer_id: offer.id,
        title: offer.entry.description?.title ?? offer.entry.sysname,
        text: offer.entry.description?.text ?? '',
      };
    },
  }),
  defineMethod({
    name: 'campaigns.activateOffer',
    handler: async (ctx, params) => {
      await limitPromoTries(ctx);
      const user = await ctx.services.accounts.findUser(ctx.uid);
      const programme = await ctx.services.bonuses.programmeOf(ctx.site.id);
      const offer = await findPromoOffer(ctx.services.content, programme, {
        siteId: ctx.site.id,
        locale: ctx.locale,
        code: params.promo_code,
      });
      if (!offer || !user) throw promoError('INVALID');
      return activatePromo(ctx.services.bonuses, offer, { siteId: ctx.site.id, userId: user.id, currency: user.currency });
    },
  }),
  defineMethod({
    name: 'campaigns.takepromotions',
    handler: async (ctx, params) => {
      const { user, audience } = await audienceOf(ctx);
      const programme = await ctx.services.bonuses.programmeOf(ctx.site.id);
      const offers = await listOffers(ctx.services.content, programme, {
        siteId: ctx.site.id,
        locale: ctx.locale,
        action: 'opt_in',
      });
      const offer = offers.find((candidate) => candidate.id === params.offer_id);
      if (!offer || !user) throw offerRefused('not_found');
      if (!satisfiesTrigger(offer, audience)) throw offerRefused('not_available');
      try {
        const { row, isNew } = await ctx.services.bonuses.grantAndActivate({
          siteId: ctx.site.id,
          userId: user.id,
          currency: user.currency,
          templateId: offer.template.id,
          source: 'promotion',
          sourceRef: `offer:${offer.id}`,
        });
        if (!isNew) throw offerRefused('already_taken');
        return { offer_id: offer.id, bonus_id: row.id, bonus_status: row.status === 'active' ? 'active' : 'available' };
      } catch (error) {
        if (error instanceof BonusGrantError) throw offerRefused('not_available');
        throw error;
      }
    },
  }),
];
