/**
 * /cashier/history?tab=deposit|withdrawal|bonuses|cashbacks (spec §2, §4, §9): the tab in the
 * address; 4 rows a page; "Load more" appends and de-duplicates by id; switching the tab clears
 * the list and loads it again: while the new tab loads, a loader stands where the old list was.
 */
import { useState } from 'react';
import { Link, useLocation, useNavigation } from 'react-router';
import type { Route } from './+types/cashier-history';
import type { HistoryItem, HistoryTab } from '#common/cashier-contract';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { browserApi } from '~/api/client';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { useToasts } from '~/toasts/toast-provider';
import { cashierApi, loadMethodNames } from '~/cashier/cashier-api';
import { HISTORY_PAGE_SIZE, HISTORY_TABS, appendUnique, hasMore, parseHistoryTab } from '~/cashier/history';
import { CashierLayout } from '~/components/cashier-layout';
import { HistoryRows } from '~/components/history-rows';
import { useCashierError } from '~/hooks/use-cashier-error';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.cashier-index-history.title');

export async function loader({ request, context }: Route.LoaderArgs) {
  const tab = parseHistoryTab(new URL(request.url).searchParams.get('tab'));
  const api = cashierApi(loaderApi(request, context));
  const [page, methodNames] = await Promise.all([loadOrFail(api.history(tab, 0, HISTORY_PAGE_SIZE)), loadMethodNames(api)]);
  return { tab, page, methodNames };
}

function TabList({
  tab,
  items: initial,
  total: initialTotal,
  methodNames,
}: {
  tab: HistoryTab;
  items: HistoryItem[];
  total: number;
  methodNames: Record<string, string>;
}) {
  const { t, locale } = useI18n();
  const describe = useCashierError();
  const { show } = useToasts();
  const [items, setItems] = useState(initial);
  const [total, setTotal] = useState(initialTotal);
  const [isBusy, setBusy] = useState(false);
  async function loadMore() {
    setBusy(true);
    try {
      const page = await cashierApi(browserApi(locale)).history(tab, items.length, HISTORY_PAGE_SIZE);
      setItems((current) => appendUnique(current, page.items));
      setTotal(page.total);
    } catch (error) {
      show(describe(error).text, { tone: 'error' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="card" data-history-tab={tab} data-history-total={total}>
      <HistoryRows items={items} methodNames={methodNames} />
      {hasMore(items.length, total) && (
        <button
          type="button"
          className="button button--ghost button--wide"
          disabled={isBusy}
          aria-busy={isBusy}
          onClick={() => void loadMore()}
          data-action="load-more"
        >
          {t('cashier.history.more')}
        </button>
      )}
    </div>
  );
}

/** The tab a navigation on this page is loading, if the player picked another one. */
function useLoadingTab(current: HistoryTab): HistoryTab | undefined {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const target = navigation.location;
  if (!target || target.pathname !== pathname) return undefined;
  const next = parseHistoryTab(new URLSearchParams(target.search).get('tab'));
  return next === current ? undefined : next;
}

export default function CashierHistory({ loaderData }: Route.ComponentProps) {
  const { t, localePath } = useI18n();
  const { tab, page, methodNames } = loaderData;
  const loadingTab = useLoadingTab(tab);
  return (
    <CashierLayout page="history">
      <nav className="tabs history-tabs" aria-label={t('cashier.history.tabs')}>
        {HISTORY_TABS.map((name) => (
          <Link
            key={name}
            to={`${localePath('/cashier/history')}?tab=${name}`}
            className={`tabs__tab history-tabs__tab${name === (loadingTab ?? tab) ? ' active' : ''}`}
            aria-current={name === (loadingTab ?? tab) ? 'page' : undefined}
            data-history-tab-link={name}
            preventScrollReset
          >
            {t(`cashier.history.tab.${name}`)}
          </Link>
        ))}
      </nav>
      {loadingTab ? (
        // Spec §4: switching clears that tab's list; the old tab's rows never stand under the new tab's name.
        <div className="card" data-history-loading={loadingTab} aria-busy="true">
          <div className="loader" role="progressbar" aria-label={t('system.loading')} />
        </div>
      ) : (
        <TabList key={tab} tab={tab} items={page.items} total={page.total} methodNames={methodNames} />
      )}
    </CashierLayout>
  );
}
