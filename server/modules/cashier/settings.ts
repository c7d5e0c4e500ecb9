/**
 * The cashier's per-site rules, from the site's settings (`cashier` block in content/sites.json)
 * with defaults a regulated operator would start from.
 */
import { amountToMinor } from '#common/money';

export interface CashierSettings {
  /** Withdrawals need an approved identity verification (KycWithdrawalException otherwise). */
  isKycRequiredForWithdrawal: boolean;
  /** Withdrawals need a confirmed e-mail or phone (UserNeedConfirmContactException otherwise). */
  isConfirmedContactRequiredForWithdrawal: boolean;
  /** Most a player may withdraw per UTC day, per currency, in minor units. */
  dailyWithdrawalLimitMinor: (currency: string) => bigint;
  currencyRates: { base: string; rates: Record<string, string>; updatedAt: string };
}

interface RawSettings {
  is_kyc_required_for_withdrawal?: boolean;
  is_confirmed_contact_required_for_withdrawal?: boolean;
  daily_withdrawal_limit?: Record<string, string>;
  currency_rates?: { base: string; rates: Record<string, string>; updated_at: string };
}

const DEFAULT_DAILY_LIMIT = '5000.00';

export function cashierSettings(siteSettings: Record<string, unknown>): CashierSettings {
  const raw = (siteSettings.cashier ?? {}) as RawSettings;
  const limits = raw.daily_withdrawal_limit ?? {};
  return {
    isKycRequiredForWithdrawal: raw.is_kyc_required_for_withdrawal ?? true,
    isConfirmedContactRequiredForWithdrawal: raw.is_confirmed_contact_required_for_withdrawal ?? true,
    dailyWithdrawalLimitMinor: (currency) => amountToMinor(limits[currency] ?? DEFAULT_DAILY_LIMIT),
    currencyRates: raw.currency_rates
      ? { base: raw.currency_rates.base, rates: raw.currency_rates.rates, updatedAt: raw.currency_rates.updated_at }
      : { base: 'EUR', rates: { EUR: '1.0000' }, updatedAt: new Date(0).toISOString() },
  };
}
