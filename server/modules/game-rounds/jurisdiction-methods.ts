/**
 * games.getSettings: the site's jurisdiction rules for in-house play (jurisdiction.ts), for the
 * game client to pace spins and offer (or hide) autoplay. Public: the same for every visitor of a site.
 */
import { defineMethod } from '../../api/define';
import { gamesJurisdiction, jurisdictionView } from './jurisdiction';

export const jurisdictionMethods = [
  defineMethod({
    name: 'games.getSettings',
    handler: async (ctx) => jurisdictionView(gamesJurisdiction(ctx.site.settings)),
  }),
];
