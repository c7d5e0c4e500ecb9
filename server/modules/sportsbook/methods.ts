/** sportsbook.* (issue 14): the offer for the betting pages, in the request's locale; anyone may read it. */
import { defineMethod } from '../../api/define';

export const sportsbookMethods = [
  defineMethod({
    name: 'sportsbook.getSports',
    handler: (ctx) => ctx.services.sportsbook.getSports(),
  }),
  defineMethod({
    name: 'sportsbook.getEvents',
    handler: (ctx, params) => ctx.services.sportsbook.getEvents(params, ctx.locale),
  }),
  defineMethod({
    name: 'sportsbook.getTournaments',
    handler: (ctx, params) => ctx.services.sportsbook.getTournaments(params.sport),
  }),
  defineMethod({
    name: 'sportsbook.getEvent',
    handler: (ctx, params) => ctx.services.sportsbook.getEvent(params.event_id, ctx.locale),
  }),
];
