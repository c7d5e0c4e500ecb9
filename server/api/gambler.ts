/** Who plays, as the round intake knows them, from a method's context (every bet path's methods). */
import type { Gambler } from '../modules/round-intake';
import type { ApiContext } from './define';

export function gamblerOf(ctx: ApiContext): Gambler {
  return {
    siteId: ctx.site.id,
    uid: ctx.uid,
    visitorId: ctx.visitorId,
    locale: ctx.locale,
    siteCurrency: ctx.site.defaultCurrency,
  };
}
