/**
 * /cashier/wallet: the balances (main, bonus, betting bonus and their total, spec §9), the
 * currency switch among the site's currencies (account.setCurrency, then the site data and
 * balances reload), the currency rates, and the 4 most recent transactions (payments and bonuses
 * merged, newest first, spec §9).
 */
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import type { Route } from './+types/cashier-wallet';
import type { CurrencyRates } from '#common/cashier-contract';
import { formatMoney } from '#common/money';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';
import { browserApi } from '~/api/client';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { useBalances } from '~/balance';
import { useToasts } from '~/toasts/toast-provider';
import { formatDateTime } from '~/format';
import { cashierApi, loadMethodNames } from '~/cashier/cashier-api';
import { balanceRows } from '~/cashier/detalization';
import { RECENT_TRANSACTIONS_COUNT, RECENT_TRANSACTION_TABS, recentTransactions } from '~/cashier/history';
import { CashierLayout } from '~/components/cashier-layout';
import { HistoryRows } from '~/components/history-rows';
import { useCashierError } from '~/hooks/use-cashier-error';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.cashier-index-wallet.title');

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = cashierApi(loaderApi(request, context));
  const [balances, rates, methodNames, ...lists] = await Promise.all([
    loadOrFail(api.balances()),
    loadOrFail(api.currencyRates()),
    loadMethodNames(api),
    ...RECENT_TRANSACTION_TABS.map((tab) =>
      loadOrFail(api.history(tab, 0, RECENT_TRANSACTIONS_COUNT)).then((page) => page.items),
    ),
  ]);
  return { balances, rates, methodNames, recent: recentTransactions(lists) };
}

function CurrencySwitch({ currency }: { currency: string }) {
  const { t, locale } = useI18n();
  const root = useRootData();
  const describe = useCashierError();
  const revalidator = useRevalidator();
  const { refresh } = useBalances();
  const { show } = useToasts();
  const [isBusy, setBusy] = useState(false);
  const currencies = root?.generalInfo.available_currencies ?? [currency];
  if (currencies.length < 2) return null;
  async function change(next: string) {
    setBusy(true);
    try {
      await cashierApi(browserApi(locale)).setCurrency(next);
      show(t('cashier.wallet.currencyChanged', { currency: next }), { tone: 'success' });
      await revalidator.revalidate();
      await refresh();
    } catch (error) {
      show(describe(error).text, { tone: 'error' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <label className="field currency-switch" data-field="currency">
      <span className="field__label">{t('cashier.wallet.currency')}</span>
      <select className="field__input" value={currency} disabled={isBusy} onChange={(event) => void change(event.target.value)}>
        {currencies.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
    </label>
  );
}

function RatesTable({ rates }: { rates: CurrencyRates }) {
  const { t } = useI18n();
  const entries = Object.entries(rates.rates);
  if (entries.length === 0) return null;
  return (
    <section className="card" data-currency-rates>
      <h2 className="card__title">{t('cashier.wallet.rates')}</h2>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{t('cashier.wallet.rateCurrency')}</th>
            <th scope="col">{t('cashier.wallet.rateValue', { base: rates.base })}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map(([code, rate]) => (
            <tr key={code} data-rate={code}>
              <td>{code}</td>
              <td>{rate}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="field__hint">
        {t('cashier.wallet.ratesUpdated', { date: formatDateTime(rates.updated_at, t('format.dateTimeJoiner')) })}
      </p>
    </section>
  );
}

export default function CashierWallet({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  const { balances: fresh } = useBalances();
  const balances = fresh ?? loaderData.balances;
  return (
    <CashierLayout page="wallet">
      <section className="card" data-wallet-balances>
        <h2 className="card__title">{t('cashier.wallet.balances')}</h2>
        <dl className="wallet-balances">
          {balanceRows(balances).map((row) => (
            <div key={row.key} className={`wallet-balances__item wallet-balances__item--${row.key}`} data-balance-row={row.key}>
              <dt>{t(`cashier.balance.${row.key}`)}</dt>
              <dd>{formatMoney(row.money)}</dd>
            </div>
          ))}
        </dl>
        <CurrencySwitch currency={balances.balance_main.currency} />
      </section>
      <RatesTable rates={loaderData.rates} />
      <section className="card" data-recent-transactions>
        <h2 className="card__title">{t('cashier.wallet.recent')}</h2>
        <HistoryRows items={loaderData.recent} methodNames={loaderData.methodNames} showType />
      </section>
    </CashierLayout>
  );
}
