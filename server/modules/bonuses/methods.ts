/**
 * bonuses.* (casino bonuses) and BettingBonuses.* (betting bonuses) of spec §7: the signed-in
 * player's own bonuses only; another player's bonus id answers AccessDeniedException.
 */
import { defineMethod } from '../../api/define';

export const bonusesMethods = [
  defineMethod({
    name: 'bonuses.get',
    handler: (ctx, params) =>
      ctx.services.bonuses.list(ctx.site.id, ctx.uid, {
        type: 'casino',
        statuses: params.status,
        ...page(params),
        locale: ctx.locale,
      }),
  }),
  defineMethod({
    name: 'bonuses.activate',
    handler: (ctx, params) => ctx.services.bonuses.activate(ctx.site.id, ctx.uid, params.bonus_id, 'casino', ctx.locale),
  }),
  defineMethod({
    name: 'bonuses.deactivate',
    handler: (ctx, params) => ctx.services.bonuses.deactivate(ctx.site.id, ctx.uid, params.bonus_id, ctx.locale),
  }),
  defineMethod({
    name: 'bonuses.remove',
    handler: (ctx, params) => ctx.services.bonuses.remove(ctx.site.id, ctx.uid, params.bonus_id, 'casino'),
  }),
  defineMethod({
    name: 'BettingBonuses.get',
    handler: (ctx, params) =>
      ctx.services.bonuses.list(ctx.site.id, ctx.uid, {
        type: 'betting',
        statuses: params.status,
        ...page(params),
        locale: ctx.locale,
      }),
  }),
  defineMethod({
    name: 'BettingBonuses.activate',
    handler: (ctx, params) => ctx.services.bonuses.activate(ctx.site.id, ctx.uid, params.bonus_id, 'betting', ctx.locale),
  }),
  defineMethod({
    name: 'BettingBonuses.remove',
    handler: (ctx, params) => ctx.services.bonuses.remove(ctx.site.id, ctx.uid, params.bonus_id, 'betting'),
  }),
];

function page(params: { offset: number; count: number }) {
  return { offset: params.offset, count: params.count };
}
