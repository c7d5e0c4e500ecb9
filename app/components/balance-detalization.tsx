import { formatMoney } from '#common/money';
import { isAuthenticated } from '#common/api-contract';
import { useBalances } from '~/balance';
import { useI18n } from '~/i18n';
import { configValue, useRootData } from '~/site-data';
import { balanceRows, detalizationPlace, type DetalizationConfig, type DetalizationPlace } from '~/cashier/detalization';

/** Where cashier-config puts the balance breakdown (spec §3 detalization), or null. */
export function useDetalizationPlace(): DetalizationPlace | null {
  const root = useRootData();
  return detalizationPlace(configValue<DetalizationConfig | undefined>(root?.config, 'cashier-config.detalization', undefined));
}

/** The balance breakdown: main, bonus, betting bonus and total, kept fresh by the balance provider. */
export function BalanceDetalization({ className = '' }: { className?: string }) {
  const { t } = useI18n();
  const root = useRootData();
  const { balances } = useBalances();
  const current = balances ?? root?.account.balances;
  if (!current || !isAuthenticated(root?.account)) return null;
  return (
    <dl className={`detalization ${className}`} data-detalization>
      {balanceRows(current).map((row) => (
        <div key={row.key} className={`detalization__row detalization__row--${row.key}`} data-balance-row={row.key}>
          <dt>{t(`cashier.balance.${row.key}`)}</dt>
          <dd>{formatMoney(row.money)}</dd>
        </div>
      ))}
    </dl>
  );
}
