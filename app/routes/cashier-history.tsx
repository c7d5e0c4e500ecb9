/**
 * /cashier/history?tab=deposit|withdrawal|bonuses|cashbacks (spec §2, §4, §9): the tab in the
 * address; 4 rows a page; "Load more" appends and de-duplicates by id; switching the tab clears
 * the list and loads it again.
 */
import { useState } from 'react';
import { Link } from 'react-router';
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
          onClick={() => void loadMore()}
          data-action="load-more"
        >
          {t('cashier.history.more')}
        </button>
      )}
    </div>
  );
}

export default function CashierHistory({ loaderData }: Route.ComponentProps) {
  const { t, localePath } = useI18n();
  const { tab, page, methodNames } = loaderData;
  return (
    <CashierLayout page="history">
      <nav className="tabs history-tabs" aria-label={t('cashier.history.tabs')}>
        {HISTORY_TABS.map((name) => (
          <Link
            key={name}
            to={`${localePath('/cashier/history')}?tab=${name}`}
            className={`tabs__tab history-tabs__tab${name === tab ? ' active' : ''}`}
            aria-current={name === tab ? 'page' : undefined}
            data-history-tab-link={name}
            preventScrollReset
          >
            {t(`cashier.history.tab.${name}`)}
          </Link>
        ))}
      </nav>
      <TabList key={tab} tab={tab} items={page.items} total={page.total} methodNames={methodNames} />
    </CashierLayout>
  );
}
