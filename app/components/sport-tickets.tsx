/**
 * The player's sports bets on /profile/bets (issue 14 "My bets": open and settled sports bets with
 * their legs and live status; "Cash-out": open bets offer a price, full or partial). Four a page
 * with "Load more" appending and de-duplicating by id (spec §9 history page size); a cash-out asks
 * once more before it sells, and a price that moved meanwhile is shown for the player to take.
 */
import { useState } from 'react';
import type { TicketView } from '#common/contract/sportsbook-bets';
import { formatMoney, type Money } from '#common/money';
import { isApiError } from '#common/errors';
import { useI18n } from '~/i18n';
import { browserApi } from '~/api/client';
import { historyStamp } from '~/cashier/history';
import { useBalances } from '~/balance';
import { useToasts } from '~/toasts/toast-provider';

export const SPORT_TICKETS_PAGE_SIZE = 4;

function TicketLegs({ ticket }: { ticket: TicketView }) {
  const { t } = useI18n();
  return (
    <ul className="ticket__legs">
      {ticket.legs.map((leg) => (
        <li key={`${leg.event_id}/${leg.market_key}/${leg.outcome_id}`} className="ticket__leg" data-leg-result={leg.result}>
          <span className="ticket__event">{leg.event_name}</span>
          <span className="ticket__pick">
            {leg.market_name}: <strong>{leg.outcome_name}</strong> @ {leg.odds}
          </span>
          <span className={`badge ticket__result ticket__result--${leg.result}`}>{t(`sportsbook.leg.${leg.result}`)}</span>
        </li>
      ))}
    </ul>
  );
}

function CashOut({ ticket, onDone }: { ticket: TicketView; onDone: (next: TicketView) => void }) {
  const { t, locale } = useI18n();
  const { show } = useToasts();
  const { refresh } = useBalances();
  const [price, setPrice] = useState<Money | null>(ticket.cash_out);
  const [isConfirming, setConfirming] = useState(false);
  const [isBusy, setBusy] = useState(false);
  if (!price) return null;

  async function sell(offered: Money) {
    setBusy(true);
    try {
      const next = await browserApi(locale).call('sportsbook.cashOut', { ticket_id: String(ticket.id), price: offered.amount });
      show(t('sportsbook.cashout.done', { amount: formatMoney(offered) }), { tone: 'success' });
      void refresh();
      onDone(next);
    } catch (error) {
      const moved = isApiError(error) && error.errorData?.errorType === 'CASH_OUT_PRICE_CHANGED';
      const newPrice = moved ? String(error.errorData?.price ?? '') : '';
      if (moved && newPrice) setPrice({ amount: (Number(newPrice) / 100).toFixed(2), currency: offered.currency });
      else setPrice(null);
      show(t(moved ? 'sportsbook.cashout.moved' : 'sportsbook.cashout.unavailable'), { tone: 'error' });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  return isConfirming ? (
    <div className="ticket__cash-out" data-cash-out-confirm>
      <button
        type="button"
        className="button button--primary"
        disabled={isBusy}
        onClick={() => void sell(price)}
        data-action="confirm-cash-out"
      >
        {t('sportsbook.cashout.confirm', { amount: formatMoney(price) })}
      </button>
      <button type="button" className="button button--ghost" disabled={isBusy} onClick={() => setConfirming(false)}>
        {t('dialog.cancel')}
      </button>
    </div>
  ) : (
    <button
      type="button"
      className="button button--ghost ticket__cash-out"
      onClick={() => setConfirming(true)}
      data-action="cash-out"
      data-cash-out={price.amount}
    >
      {t('sportsbook.cashout.offer', { amount: formatMoney(price) })}
    </button>
  );
}

function Ticket({ ticket, onChange }: { ticket: TicketView; onChange: (next: TicketView) => void }) {
  const { t } = useI18n();
  const isOpen = ticket.status === 'open';
  return (
    <li className="ticket" data-ticket={ticket.id} data-ticket-status={ticket.status}>
      <div className="ticket__head">
        <span className="history-row__date">{historyStamp(ticket.placed_at)}</span>
        <span className="ticket__type">
          {t(`sportsbook.betType.${ticket.bet_type.startsWith('system:') ? 'system' : ticket.bet_type}`, {
            size: ticket.bet_type.split(':')[1] ?? '',
            selections: ticket.legs.length,
          })}
        </span>
        <span className={`badge ticket__status ticket__status--${ticket.status}`}>{t(`sportsbook.ticket.${ticket.status}`)}</span>
      </div>
      <TicketLegs ticket={ticket} />
      <dl className="ticket__money">
        <dt>{t('sportsbook.ticket.stake')}</dt>
        <dd>{formatMoney(ticket.total_stake)}</dd>
        <dt>{t(isOpen ? 'sportsbook.ticket.potentialReturn' : 'sportsbook.ticket.payout')}</dt>
        <dd data-ticket-payout>{formatMoney(isOpen ? ticket.potential_return : ticket.payout)}</dd>
      </dl>
      {isOpen && <CashOut key={ticket.cash_out?.amount ?? 'none'} ticket={ticket} onDone={onChange} />}
    </li>
  );
}

export type TicketFilter = 'open' | 'settled' | 'all';

/** The sports bets card: its list, its empty state and "Load more" (of the bets the filter keeps). */
export function SportTickets({
  initial,
  status = 'all',
  title,
}: {
  initial: readonly TicketView[];
  status?: TicketFilter;
  title?: string;
}) {
  const { t, locale } = useI18n();
  const { show } = useToasts();
  const [tickets, setTickets] = useState<TicketView[]>([...initial]);
  const [isBusy, setBusy] = useState(false);
  const [hasMore, setHasMore] = useState(initial.length === SPORT_TICKETS_PAGE_SIZE);

  async function loadMore() {
    setBusy(true);
    try {
      const page = await browserApi(locale).call('sportsbook.getBets', {
        status,
        offset: String(tickets.length),
        count: String(SPORT_TICKETS_PAGE_SIZE),
      });
      setTickets((shown) => [...shown, ...page.items.filter((item) => !shown.some((known) => known.id === item.id))]);
      // A full page may have more behind it; a short one is the last.
      setHasMore(page.items.length === SPORT_TICKETS_PAGE_SIZE);
    } catch {
      show(t('sportsbook.tickets.loadFailed'), { tone: 'error' });
    } finally {
      setBusy(false);
    }
  }

  const replace = (next: TicketView) => setTickets((shown) => shown.map((item) => (item.id === next.id ? next : item)));
  return (
    <div className="card sport-tickets" data-sport-tickets={status}>
      <h2 className="card__title">{title ?? t('sportsbook.tickets.title')}</h2>
      {tickets.length === 0 ? (
        <p className="card__text" data-sport-tickets-empty>
          {t(status === 'all' ? 'sportsbook.tickets.empty' : `sportsbook.tickets.empty.${status}`)}
        </p>
      ) : (
        <ul className="ticket-list">
          {tickets.map((ticket) => (
            <Ticket key={ticket.id} ticket={ticket} onChange={replace} />
          ))}
        </ul>
      )}
      {hasMore && (
        <button
          type="button"
          className="button button--ghost button--wide"
          disabled={isBusy}
          onClick={() => void loadMore()}
          data-action="load-more-tickets"
        >
          {t('sportsbook.tickets.more')}
        </button>
      )}
    </div>
  );
}
