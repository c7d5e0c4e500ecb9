/**
 * The pieces of the betting area (issue 14) that show events and prices: an event's line (teams,
 * start time or score and clock) and a price button that puts the outcome on the bet slip.
 */
import { Link } from 'react-router';
import type { MarketView, OutcomeView, SportEventView } from '#common/sportsbook/types';
import { useI18n } from '~/i18n';
import { formatDate, formatTime } from '~/format';
import type { PriceMove } from '~/hooks/use-price-stream';
import { selectionKey, showOdds, type BetSlipState, type SlipSelection } from '~/sportsbook/slip';

export const eventName = (event: SportEventView) => `${event.competitors[0].name} – ${event.competitors[1].name}`;

/** Start time before kick-off; score and clock in play. */
export function EventClock({ event }: { event: SportEventView }) {
  const { t } = useI18n();
  if (event.status === 'not_started')
    return (
      <time className="sport-event__time" dateTime={event.start_time} suppressHydrationWarning>
        {formatDate(event.start_time)} {formatTime(event.start_time)}
      </time>
    );
  return (
    <span className="sport-event__live" data-status={event.status}>
      <span className="sport-event__badge">{t(`sportsbook.eventStatus.${event.status}`)}</span>
      {event.score && (
        <strong className="sport-event__score" data-score>
          {event.score.home}:{event.score.away}
        </strong>
      )}
      {event.clock_minute !== null && <span className="sport-event__minute">{event.clock_minute}′</span>}
    </span>
  );
}

export function OddsButton({
  event,
  market,
  outcome,
  slip,
  move,
}: {
  event: SportEventView;
  market: MarketView;
  outcome: OutcomeView;
  slip: BetSlipState;
  move?: PriceMove;
}) {
  const { locale } = useI18n();
  const selection: SlipSelection = {
    event_id: event.id,
    market_key: market.key,
    outcome_id: outcome.id,
    odds: outcome.odds,
    event_name: eventName(event),
    market_name: market.name,
    outcome_name: outcome.name,
  };
  const key = selectionKey(selection);
  const isChosen = slip.selections.some((item) => selectionKey(item) === key);
  // A suspended market stays on screen, greyed, so the player sees what comes back.
  const isOpen = market.status === 'active' && outcome.active;
  return (
    <button
      type="button"
      className={`odds-button${isChosen ? ' is-chosen' : ''}${move ? ` is-moved-${move}` : ''}`}
      data-selection={key}
      data-odds={outcome.odds}
      aria-pressed={isChosen}
      disabled={!isOpen && !isChosen}
      onClick={() => slip.toggle(selection)}
    >
      <span className="odds-button__name">{outcome.name}</span>
      <span className="odds-button__price">{showOdds(outcome.odds, slip.oddsFormat, locale)}</span>
    </button>
  );
}

/** One event in a list: its line, its main market's prices and a link to every market. */
export function EventRow({ event, market, slip }: { event: SportEventView; market: MarketView | null; slip: BetSlipState }) {
  const { t, localePath } = useI18n();
  return (
    <li className="card sport-event" data-event-id={event.id} data-event-status={event.status}>
      <div className="sport-event__head">
        <span className="sport-event__tournament">
          {event.category.name} · {event.tournament.name}
        </span>
        <EventClock event={event} />
      </div>
      <Link className="sport-event__teams" to={`${localePath('/betting')}?event=${encodeURIComponent(event.id)}`}>
        <span>{event.competitors[0].name}</span>
        <span>{event.competitors[1].name}</span>
      </Link>
      {market ? (
        <div className={`sport-event__prices market-status--${market.status}`} data-market={market.key}>
          {market.outcomes.map((outcome) => (
            <OddsButton key={outcome.id} event={event} market={market} outcome={outcome} slip={slip} />
          ))}
        </div>
      ) : (
        <p className="sport-event__no-market">{t('sportsbook.noMarket')}</p>
      )}
    </li>
  );
}
