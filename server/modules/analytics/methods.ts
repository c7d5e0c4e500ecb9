import { defineMethod } from '../../api/define';

export const analyticsMethods = [
  defineMethod({
    name: 'events.handle',
    handler: async (ctx, params) => {
      await ctx.services.analytics.recordEvent({
        siteId: ctx.site.id,
        visitorId: ctx.visitorId,
        uid: ctx.uid,
        eventName: params.event_name,
        eventParams: params.event_params,
      });
      return 1;
    },
  }),
];
