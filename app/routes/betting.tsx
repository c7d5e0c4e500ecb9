/**
 * /betting (issue 14 "Betting area, in both languages, on desktop and on a phone"): the sports
 * with their live and upcoming counts, the chosen sport's events in play and to come with the main
 * market's prices, and one event's every market at /betting?event={id}, its prices live from the
 * price stream. Prices go on the bet slip beside the list (a bottom sheet on a phone).
 */
import { Link, useNavigation } from 'react-router';
import type { Route } from './+types/betting';
import type { SportEventPage, SportSummary } from '#common/contract/sportsbook';
import type { SportEventDetail } from '#common/contract/sportsbook';
import { SPORTS, type Sport } from '#common/sportsbook/types';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { loaderApi } from '~/api/loader-api';
import { pageNotFound } from '~/api/errors';
import { Icon } from '~/components/icon';
import { BetSlip } from '~/components/bet-slip';
import { EventClock, EventRow, OddsButton, eventName } from '~/components/sport-event';
import { usePriceStream } from '~/hooks/use-price-stream';
import { configValue, useRootData } from '~/site-data';
import { selectionKey, useBetSlip, type BetSlipState } from '~/sportsbook/slip';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.betting.title');

/** A list that failed to load is shown as failed, not as empty: the rest of the page still works. */
const orFailed = <T,>(promise: Promise<T>): Promise<T | null> => promise.catch(() => null);

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = loaderApi(request, context);
  const url = new URL(request.url);
  const eventId = url.searchParams.get('event');
  if (eventId !== null) {
    const detail = await api.call('sportsbook.getEvent', { event_id: eventId }).catch(() => pageNotFound(request));
    const sports = await orFailed(api.call('sportsbook.getSports'));
    return { sports, sport: detail.event.sport, detail, live: null, upcoming: null };
  }
  const sports = await orFailed(api.call('sportsbook.getSports'));
  const wanted = url.searchParams.get('sport');
  // Without a choice, the first sport that has anything to bet on.
  const sport: Sport =
    SPORTS.find((name) => name === wanted) ?? sports?.find((item) => item.live + item.upcoming > 0)?.sport ?? SPORTS[0];
  const [live, upcoming] = await Promise.all([
    orFailed(api.call('sportsbook.getEvents', { sport, status: 'live', count: 20 })),
    orFailed(api.call('sportsbook.getEvents', { sport, status: 'upcoming', count: 20 })),
  ]);
  return { sports, sport, detail: null, live, upcoming };
}

export default function Betting({ loaderData }: Route.ComponentProps) {
  const { sports, sport, detail, live, upcoming } = loaderData;
  const { t } = useI18n();
  const root = useRootData();
  const slip = useBetSlip();
  const isLoading = useNavigation().state === 'loading';
  const showNotice = configValue<boolean>(root?.config, 'prazer-config.functionalSettings.isVisibleNoticeBetting', false);
  return (
    <div className="page betting" data-sport={sport}>
      <header className="page__header page-band">
        <span className="page-band__icon">
          <Icon name={`sport-${sport}`} size={30} />
        </span>
        <div className="page-band__text">
          <h1 className="page__title">{t('page.betting.title')}</h1>
          <p className="page__intro">{t('page.betting.description')}</p>
        </div>
        <span className="page-band__art" aria-hidden="true">
          <Icon name={`sport-${sport}`} size={150} />
        </span>
      </header>
      {showNotice && (
        <p className="card betting__notice" role="note" data-betting-notice>
          {t('sportsbook.notice')}
        </p>
      )}
      <SportNav sports={sports} current={sport} />
      <div className="betting__layout">
        <div className="betting__main" aria-busy={isLoading} data-loading={isLoading || undefined}>
          {detail ? (
            <EventDetail initial={detail} slip={slip} />
          ) : (
            <>
              <EventList title={t('sportsbook.live')} page={live} slip={slip} kind="live" />
              <EventList title={t('sportsbook.upcoming')} page={upcoming} slip={slip} kind="upcoming" />
            </>
          )}
        </div>
        <BetSlip slip={slip} />
      </div>
    </div>
  );
}

function SportNav({ sports, current }: { sports: SportSummary[] | null; current: Sport }) {
  const { t, localePath } = useI18n();
  if (!sports)
    return (
      <p className="card betting__error" role="alert">
        {t('sportsbook.loadFailed')}
      </p>
    );
  return (
    <nav className="sport-nav" aria-label={t('sportsbook.sports')}>
      {sports.map((item) => (
        <Link
          key={item.sport}
          to={`${localePath('/betting')}?sport=${item.sport}`}
          className={`sport-nav__item${item.sport === current ? ' is-active' : ''}`}
          aria-current={item.sport === current ? 'page' : undefined}
          data-sport-link={item.sport}
        >
          <Icon name={`sport-${item.sport}`} size={22} />
          <span className="sport-nav__name">{t(`sportsbook.sport.${item.sport}`)}</span>
          <span className="sport-nav__counts">
            {item.live > 0 && <span className="sport-nav__live">{t('sportsbook.liveCount', { count: item.live })}</span>}
            <span title={t('sportsbook.upcoming')}>{item.upcoming}</span>
          </span>
        </Link>
      ))}
    </nav>
  );
}

function EventList({
  title,
  page,
  slip,
  kind,
}: {
  title: string;
  page: SportEventPage | null;
  slip: BetSlipState;
  kind: 'live' | 'upcoming';
}) {
  const { t } = useI18n();
  return (
    <section className="betting__section" data-event-list={kind}>
      <h2 className="section-title">{title}</h2>
      {page === null ? (
        <p className="card betting__error" role="alert">
          {t('sportsbook.loadFailed')}
        </p>
      ) : page.items.length === 0 ? (
        <p className="card betting__empty">{t(`sportsbook.empty.${kind}`)}</p>
      ) : (
        <ul className="sport-events">
          {page.items.map((item) => (
            <EventRow key={item.id} event={item} market={item.main_market} slip={slip} />
          ))}
        </ul>
      )}
    </section>
  );
}

function EventDetail({ initial, slip }: { initial: SportEventDetail; slip: BetSlipState }) {
  const { t, locale, localePath } = useI18n();
  const { detail, moves } = usePriceStream(initial, locale);
  const { event, groups } = detail;
  return (
    <section className="sport-detail" data-event-id={event.id} data-event-status={event.status}>
      <Link className="sport-detail__back" to={`${localePath('/betting')}?sport=${event.sport}`}>
        {t('sportsbook.back')}
      </Link>
      <div className="card sport-detail__head">
        <span className="sport-event__tournament">
          {event.category.name} · {event.tournament.name}
        </span>
        <h2 className="sport-detail__title">{eventName(event)}</h2>
        <EventClock event={event} />
      </div>
      {groups.length === 0 && <p className="card betting__empty">{t('sportsbook.noMarket')}</p>}
      {groups.flatMap((group) =>
        group.markets.map((market) => (
          <div
            key={market.key}
            className={`card sport-market market-status--${market.status}`}
            data-market={market.key}
            data-market-status={market.status}
          >
            <h3 className="sport-market__name">
              {market.name}
              {market.status !== 'active' && (
                <span className="sport-market__status">{t(`sportsbook.marketStatus.${market.status}`)}</span>
              )}
            </h3>
            <div className="sport-market__outcomes">
              {market.outcomes.map((outcome) => (
                <OddsButton
                  key={outcome.id}
                  event={event}
                  market={market}
                  outcome={outcome}
                  slip={slip}
                  move={moves.get(selectionKey({ event_id: event.id, market_key: market.key, outcome_id: outcome.id }))}
                />
              ))}
            </div>
          </div>
        )),
      )}
    </section>
  );
}
