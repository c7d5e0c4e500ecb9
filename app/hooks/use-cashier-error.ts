/** Turns a cashier API error into its message, field and button link (spec §8), in the page's language. */
import { useCallback } from 'react';
import { describeCashierError, type CashierError } from '~/cashier/errors';
import { useI18n } from '~/i18n';
import { configValue, useRootData } from '~/site-data';

export function usePlayerCurrency(): string {
  const root = useRootData();
  return root?.account.balances.balance_main.currency ?? root?.generalInfo.default_currency ?? 'EUR';
}

export function useValidationDictionary(): Record<string, string> {
  return configValue<Record<string, string>>(useRootData()?.config, 'forms-config.validationDict', {});
}

export function useCashierError(): (error: unknown) => CashierError {
  const { t } = useI18n();
  const root = useRootData();
  const dictionary = useValidationDictionary();
  const currency = usePlayerCurrency();
  const links = configValue<Record<string, string>>(root?.config, 'cashier-config.withdrawErrorLinks', {});
  return useCallback(
    (error: unknown) => describeCashierError(error, { t, dictionary, currency, links }),
    [t, dictionary, currency, links],
  );
}
