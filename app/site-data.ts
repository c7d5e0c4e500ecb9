/** The root loader's data, readable from any component: site, locale, config, account. */
import { useRouteLoaderData } from 'react-router';
import type { AccountInfo, GeneralInfo } from '#common/api-contract';
import type { SiteSummary } from '#common/load-context';
import type { Locale } from '#common/locale';
import type { LoyaltyInfo } from '#common/loyalty-contract';

export type ConfigSections = Record<string, Record<string, unknown>>;

export interface RootData {
  locale: Locale;
  site: SiteSummary;
  account: AccountInfo;
  /** The signed-in player's loyalty info (spec §4: loaded with the profile after sign-in); null for a visitor. */
  loyalty: LoyaltyInfo | null;
  generalInfo: GeneralInfo;
  config: ConfigSections;
  /** The version of the locale's translation table (app/translations.ts holds the tables). */
  translationsVersion: string;
  origin: string;
}

export function useRootData(): RootData | undefined {
  return useRouteLoaderData('root') as RootData | undefined;
}

/** Reads a config value by dotted path with a fallback: configValue(config, 'prazer-config.logo', '/brand/logo.svg'). */
export function configValue<T>(config: ConfigSections | undefined, path: string, fallback: T): T {
  let value: unknown = config;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null) return fallback;
    value = (value as Record<string, unknown>)[part];
  }
  return value === undefined || value === null ? fallback : (value as T);
}
