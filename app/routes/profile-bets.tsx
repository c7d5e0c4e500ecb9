/**
 * /profile/bets: the player's sports bets (issue 14 "My bets", components/sport-tickets.tsx) and game
 * history (issue 5 "History and export"; spec §7 games.getHistory,
 * createhistoryexportrequest, gethistoryexportrequest). Real-money rounds and live-table bets
 * (issue 15) newest first, 4 a page (spec §9 history page size) with "Load more" appending and
 * de-duplicating by id; where the site allows it (is_game_history_export_enabled) the player asks
 * for a CSV export, waits while the server makes it, and downloads it.
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { Route } from './+types/profile-bets';
import type { GameHistoryItem, HistoryExportView } from '#common/contract';
import { formatMoney } from '#common/money';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { browserApi } from '~/api/client';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { appendUnique, hasMore, historyStamp } from '~/cashier/history';
import { ProfileLayout } from '~/components/profile-layout';
import { useRootData } from '~/site-data';
import { useToasts } from '~/toasts/toast-provider';
import { useCashierError } from '~/hooks/use-cashier-error';
import { SPORT_TICKETS_PAGE_SIZE, SportTickets } from '~/components/sport-tickets';

/** Spec §9: history lists load 4 rows a page. */
export const GAME_HISTORY_PAGE_SIZE = 4;
/** How often a pending export is asked about, and for how long at most. */
const EXPORT_POLL_MS = 1_500;
const EXPORT_POLL_LIMIT = 80;

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.profile-index-bets.title');

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = loaderApi(request, context);
  const [page, latestExport, tickets] = await Promise.all([
    loadOrFail(api.call('games.getHistory', { offset: '0', count: String(GAME_HISTORY_PAGE_SIZE) })),
    loadOrFail(api.call('games.gethistoryexportrequest')),
    // Issue 14 "My bets": the sports bets beside the game history.
    loadOrFail(api.call('sportsbook.getBets', { offset: '0', count: String(SPORT_TICKETS_PAGE_SIZE) })),
  ]);
  return { page, latestExport, tickets: tickets.items };
}

function GameHistoryRows({ items }: { items: readonly GameHistoryItem[] }) {
  const { t, localePath } = useI18n();
  if (items.length === 0)
    return (
      <p className="card__text" data-history-empty>
        {t('gameHistory.empty')}
      </p>
    );
  return (
    <ul className="history-list">
      {items.map((item) => {
        const netTone = item.net.amount.startsWith('-') ? 'loss' : item.net.amount === '0.00' ? 'even' : 'win';
        return (
          <li key={item.id} data-history-row={item.id} data-sysname={item.sysname}>
            <div className="history-row game-history-row">
              <span className="history-row__date">{historyStamp(item.created_at)}</span>
              <Link className="history-row__method" to={localePath(`/game/${item.sysname}`)}>
                {item.game_name}
                {item.is_freespin && <span className="badge game-history-row__freespin">{t('gameHistory.freespin')}</span>}
              </Link>
              <span className="game-history-row__stake" data-stake>
                {t('gameHistory.stake', { amount: formatMoney(item.stake) })}
              </span>
              <span className="game-history-row__payout" data-payout>
                {t('gameHistory.payout', { amount: formatMoney(item.payout) })}
              </span>
              <span className={`history-row__amount game-history-row__net is-${netTone}`} data-net={item.net.amount}>
                {formatMoney(item.net)}
              </span>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** Asks for an export, follows it until the server has made it, then offers the download. */
function HistoryExportPanel({ initial }: { initial: HistoryExportView | null }) {
  const { t, tc, locale } = useI18n();
  const describe = useCashierError();
  const { show } = useToasts();
  const [current, setCurrent] = useState(initial);
  const [isBusy, setBusy] = useState(false);
  const polls = useRef(0);

  useEffect(() => {
    if (current?.status !== 'pending') return;
    if (polls.current >= EXPORT_POLL_LIMIT) return;
    const timer = setTimeout(() => {
      polls.current += 1;
      browserApi(locale)
        .call('games.gethistoryexportrequest', { id: current.id })
        .then(setCurrent)
        .catch((error: unknown) => show(describe(error).text, { tone: 'error' }));
    }, EXPORT_POLL_MS);
    return () => clearTimeout(timer);
  }, [current, locale, show, describe]);

  async function requestExport() {
    setBusy(true);
    try {
      polls.current = 0;
      setCurrent(await browserApi(locale).call('games.createhistoryexportrequest'));
    } catch (error) {
      show(describe(error).text, { tone: 'error' });
    } finally {
      setBusy(false);
    }
  }

  const isPending = current?.status === 'pending';
  return (
    <div className="card game-history-export" data-export-status={current?.status ?? 'none'}>
      <h2 className="card__title">{t('gameHistory.export.title')}</h2>
      <p className="card__text">{t('gameHistory.export.description')}</p>
      <button
        type="button"
        className="button button--ghost"
        disabled={isBusy || isPending}
        onClick={() => void requestExport()}
        data-action="export-history"
      >
        {t('gameHistory.export.request')}
      </button>
      {isPending && (
        <p className="card__text" role="status" data-export-pending>
          {t('gameHistory.export.pending')}
        </p>
      )}
      {current?.status === 'ready' && current.download_url && (
        <p className="card__text" data-export-ready>
          <a className="button button--primary" href={current.download_url} download data-action="download-history">
            {tc('gameHistory.export.download', current.row_count ?? 0)}
          </a>
          {current.is_truncated && <span className="field__hint"> {t('gameHistory.export.truncated')}</span>}
        </p>
      )}
      {current?.status === 'failed' && (
        <p className="field__error" role="alert">
          {t('gameHistory.export.failed')}
        </p>
      )}
    </div>
  );
}

export default function ProfileBets({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const describe = useCashierError();
  const { show } = useToasts();
  const isExportEnabled = useRootData()?.generalInfo.is_game_history_export_enabled === true;
  const [items, setItems] = useState(loaderData.page.items);
  const [total, setTotal] = useState(loaderData.page.total);
  const [isBusy, setBusy] = useState(false);

  async function loadMore() {
    setBusy(true);
    try {
      const page = await browserApi(locale).call('games.getHistory', {
        offset: String(items.length),
        count: String(GAME_HISTORY_PAGE_SIZE),
      });
      setItems((shown) => appendUnique(shown, page.items));
      setTotal(page.total);
    } catch (error) {
      show(describe(error).text, { tone: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <ProfileLayout page="bets">
      <SportTickets initial={loaderData.tickets} />
      <div className="card" data-game-history data-history-total={total}>
        <h2 className="card__title">{t('gameHistory.title')}</h2>
        <GameHistoryRows items={items} />
        {hasMore(items.length, total) && (
          <button
            type="button"
            className="button button--ghost button--wide"
            disabled={isBusy}
            onClick={() => void loadMore()}
            data-action="load-more"
          >
            {t('gameHistory.more')}
          </button>
        )}
      </div>
      {isExportEnabled && <HistoryExportPanel initial={loaderData.latestExport} />}
    </ProfileLayout>
  );
}
