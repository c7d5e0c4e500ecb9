/** Shapes of the product API answers that both the server and the app rely on (spec §3). */
import type { LocaleInfo } from './locale';
import type { Money } from './money';

export const API_VERSION = '2.34';

export interface GeneralInfo {
  analytic: { gtm_id: string | null; ga_id: string | null };
  available_currencies: string[];
  available_locales: LocaleInfo[];
  default_currency: string;
  is_seon_enabled: boolean;
  domain_state: string;
  domain_type: string;
  time_to_force_logout: number | null;
  is_bonus_isolation_enabled: boolean;
  is_game_history_export_enabled: boolean;
  user_inactivity_cashier_time: number | null;
  user_inactivity_pp_time: number | null;
}

export interface AccountInfo {
  uid: number;
  reg_time: string | null;
  login: string;
  fakename: string;
  is_subscribed: boolean;
  balances: {
    balance_main: Money;
    balance_bonus: Money;
    balance_betting_bonus: Money;
    balance_fun: Money;
  };
  is_on_verification: boolean;
  is_verified: boolean;
  is_kyc_block_enabled: boolean;
  is_registration_completed: boolean;
  country_code: string | null;
  locale: string;
  two_factor_auth: boolean;
}

/** Authenticated means uid greater than 0 (spec §3). */
export function isAuthenticated(account: Pick<AccountInfo, 'uid'> | null | undefined): boolean {
  return (account?.uid ?? 0) > 0;
}

export interface SiteMetadata {
  site: { id: string; name: string };
  meta: Record<string, unknown>;
}
