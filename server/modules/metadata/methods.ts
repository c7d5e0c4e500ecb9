import { defineMethod } from '../../api/define';
import { LOCALE_INFO } from '#common/locale';
import type { GeneralInfo, SiteMetadata } from '#common/api-contract';
import type { Site } from '../sites';

function setting<T>(site: Site, key: string, fallback: T): T {
  const value = site.settings[key];
  return value === undefined ? fallback : (value as T);
}

/** General site info of spec §3, per host. */
export function generalInfo(site: Site): GeneralInfo {
  return {
    analytic: setting(site, 'analytic', { gtm_id: null, ga_id: null }),
    available_currencies: site.currencies,
    available_locales: site.locales.map((code) => LOCALE_INFO[code]),
    default_currency: site.defaultCurrency,
    is_seon_enabled: setting(site, 'is_seon_enabled', false),
    domain_state: site.isMaintenance ? 'maintenance' : setting(site, 'domain_state', 'active'),
    domain_type: setting(site, 'domain_type', 'main'),
    time_to_force_logout: setting(site, 'time_to_force_logout', null),
    is_bonus_isolation_enabled: setting(site, 'is_bonus_isolation_enabled', false),
    is_game_history_export_enabled: setting(site, 'is_game_history_export_enabled', true),
    user_inactivity_cashier_time: setting(site, 'user_inactivity_cashier_time', null),
    user_inactivity_pp_time: setting(site, 'user_inactivity_pp_time', null),
  };
}

export const metadataMethods = [
  defineMethod({
    name: 'metadata.getgeneralinfo',
    handler: async (ctx) => generalInfo(ctx.site),
  }),
  defineMethod({
    name: 'metadata.get',
    handler: async (ctx): Promise<SiteMetadata> => {
      const config = await ctx.services.content.getConfig(ctx.site.id, ctx.locale);
      return { site: { id: ctx.site.id, name: ctx.site.name }, meta: config['meta-data-tool'] };
    },
  }),
];
