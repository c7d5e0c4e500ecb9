import { useEffect, type ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useBalances } from '~/balance';
import { useI18n } from '~/i18n';
import { BalanceDetalization, useDetalizationPlace } from './balance-detalization';

/** The cashier's sections, in the order of its navigation. */
export const CASHIER_SECTIONS = ['deposit', 'withdraw', 'wallet', 'history'] as const;
export type CashierPage = (typeof CASHIER_SECTIONS)[number] | 'receipt';

/** The frame of every cashier page: title, the balance breakdown when configured for it, and the section tabs; opening a cashier page refreshes the balances. */
export function CashierLayout({ page, children }: { page: CashierPage; children: ReactNode }) {
  const { t, localePath } = useI18n();
  const place = useDetalizationPlace();
  const { refresh } = useBalances();
  // The header and the breakdown show the balances as they are now, not as at the first page load.
  useEffect(() => void refresh(), [refresh, page]);
  return (
    <div className="cashier" data-cashier-page={page}>
      <header className="cashier__header">
        <h1 className="page__title">{t(`page.cashier-index-${page}.title`)}</h1>
        {place === 'header' && <BalanceDetalization className="detalization--header" />}
      </header>
      <nav className="cashier__nav tabs" aria-label={t('cashier.nav.label')}>
        {CASHIER_SECTIONS.map((section) => (
          <NavLink
            key={section}
            to={localePath(`/cashier/${section}`)}
            className="tabs__tab cashier__tab"
            data-cashier-tab={section}
          >
            {t(`cashier.nav.${section}`)}
          </NavLink>
        ))}
      </nav>
      <section className="cashier__content">{children}</section>
    </div>
  );
}
