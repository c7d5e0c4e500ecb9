/**
 * cashbacks.* of spec §7: the signed-in player's own cashbacks only; another player's cashback
 * id answers AccessDeniedException.
 */
import { defineMethod } from '../../api/define';

export const cashbacksMethods = [
  defineMethod({
    name: 'cashbacks.get',
    handler: (ctx, params) =>
      ctx.services.cashbacks.list(ctx.site.id, ctx.uid, {
        offset: params.offset,
        count: params.count,
        sort: params.sort,
        order: params.order,
        statuses: params.statuses,
        locale: ctx.locale,
      }),
  }),
  defineMethod({
    name: 'cashbacks.payout',
    handler: (ctx, params) => ctx.services.cashbacks.payout(ctx.site.id, ctx.uid, params.cashback_id, ctx.locale),
  }),
  defineMethod({
    name: 'cashbacks.remove',
    handler: (ctx) => ctx.services.cashbacks.remove(ctx.site.id, ctx.uid),
  }),
];
