/**
 * /betting (issue 14 "Betting area, in both languages, on desktop and on a phone"): the sports
 * with their live and upcoming counts, the chosen sport's events in play and to come with the main
 * market's prices, upcoming by day (day tabs), a league filter with the top leagues, a search over
 * team and league names, and one event's every market at /betting?event={id}, its prices live from
 * the price stream. Long lists load a page at a time. Prices go on the bet slip beside the list (a
 * bottom sheet on a phone). Filters live in the address, so a filtered list can be shared and works
 * before the page's script has loaded.
 */
import { useEffect, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import type { Route } from './+types/betting';
import type { SportEventListItem, SportEventPage, SportSummary, SportTournamentView } from '#common/contract/sportsbook';
import type { SportEventDetail } from '#common/contract/sportsbook';
import { SPORTS, type Sport } from '#common/sportsbook/types';
import type { Locale } from '#common/locale';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { browserApi } from '~/api/client';
import { loaderApi } from '~/api/loader-api';
import { pageNotFound } from '~/api/errors';
import { Icon } from '~/components/icon';
import { BetSlip } from '~/components/bet-slip';
import { EventClock, EventRow, OddsButton, eventName } from '~/components/sport-event';
import { usePriceStream } from '~/hooks/use-price-stream';
import { configValue, useRootData } from '~/site-data';
import { selectionKey, useBetSlip, type BetSlipState } from '~/sportsbook/slip';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.betting.title');

/** Events a page of a list loads at a time. */
export const BETTING_PAGE_SIZE = 20;
/** Day tabs: today and the days after it (the feed schedules a few days ahead). */
const DAY_TABS = 7;
/** Leagues shown as quick filters; the rest are in the league list. */
const TOP_LEAGUES = 6;
const DAY_MS = 86_400_000;

/** A list that failed to load is shown as failed, not as empty: the rest of the page still works. */
const orFailed = <T,>(promise: Promise<T>): Promise<T | null> => promise.catch(() => null);

/** The list filters the address carries, each dropped when it is not well formed. */
function filtersOf(url: URL) {
  const day = url.searchParams.get('day') ?? '';
  const league = url.searchParams.get('league') ?? '';
  const q = (url.searchParams.get('q') ?? '').trim();
  return {
    day: /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null,
    league: league.length > 0 && league.length <= 64 ? league : null,
    q: q.length >= 2 && q.length <= 64 ? q : null,
    /** A search too short to run, to tell the player so. */
    isShortQuery: q.length === 1,
  };
}

export type BettingFilters = ReturnType<typeof filtersOf>;

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = loaderApi(request, context);
  const url = new URL(request.url);
  const eventId = url.searchParams.get('event');
  // The days are calendar days in UTC, as sportsbook.getEvents reads them; the server's clock names today.
  const today = new Date().toISOString().slice(0, 10);
  const filters = filtersOf(url);
  if (eventId !== null) {
    const detail = await api.call('sportsbook.getEvent', { event_id: eventId }).catch(() => pageNotFound(request));
    const sports = await orFailed(api.call('sportsbook.getSports'));
    return {
      sports,
      sport: detail.event.sport,
      detail,
      live: null,
      upcoming: null,
      tournaments: null,
      results: null,
      filters,
      today,
    };
  }
  const sports = await orFailed(api.call('sportsbook.getSports'));
  const wanted = url.searchParams.get('sport');
  // Without a choice, the first sport that has anything to bet on.
  const sport: Sport =
    SPORTS.find((name) => name === wanted) ?? sports?.find((item) => item.live + item.upcoming > 0)?.sport ?? SPORTS[0];
  if (filters.q) {
    // A search looks through every sport: a player typing a team does not first pick its sport.
    const found = await orFailed(
      Promise.all(
        SPORTS.flatMap((name) =>
          (['live', 'upcoming'] as const).map((status) =>
            api.call('sportsbook.getEvents', { sport: name, status, search: filters.q!, count: BETTING_PAGE_SIZE }),
          ),
        ),
      ),
    );
    const results = found && { items: found.flatMap((page) => page.items), total: found.reduce((n, page) => n + page.total, 0) };
    return { sports, sport, detail: null, live: null, upcoming: null, tournaments: null, results, filters, today };
  }
  const league = filters.league ?? undefined;
  const [live, upcoming, tournaments] = await Promise.all([
    // A day tab shows that day's matches to come; what is in play now is today's, under "Live now" without a day.
    filters.day
      ? Promise.resolve(null)
      : orFailed(api.call('sportsbook.getEvents', { sport, status: 'live', tournament: league, count: BETTING_PAGE_SIZE })),
    orFailed(
      api.call('sportsbook.getEvents', {
        sport,
        status: 'upcoming',
        tournament: league,
        day: filters.day ?? undefined,
        count: BETTING_PAGE_SIZE,
      }),
    ),
    orFailed(api.call('sportsbook.getTournaments', { sport })),
  ]);
  return { sports, sport, detail: null, live, upcoming, tournaments, results: null, filters, today };
}

/** The address of the betting list with these filters (the sport always; the others when set). */
function listPath(localePath: (path: string) => string, sport: Sport, filters: { day?: string | null; league?: string | null }) {
  const params = new URLSearchParams({ sport });
  if (filters.league) params.set('league', filters.league);
  if (filters.day) params.set('day', filters.day);
  return `${localePath('/betting')}?${params.toString()}`;
}

export default function Betting({ loaderData }: Route.ComponentProps) {
  const { sports, sport, detail, live, upcoming, tournaments, results, filters, today } = loaderData;
  const { t } = useI18n();
  const root = useRootData();
  const slip = useBetSlip();
  const isLoading = useNavigation().state === 'loading';
  const showNotice = configValue<boolean>(root?.config, 'prazer-config.functionalSettings.isVisibleNoticeBetting', false);
  const league = tournaments?.find((item) => item.id === filters.league);
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
      {!detail && <SearchForm sport={sport} filters={filters} />}
      <div className="betting__layout">
        <div className="betting__main" aria-busy={isLoading} data-loading={isLoading || undefined}>
          {isLoading && (
            <p className="betting__loading" role="status">
              {t('sportsbook.loading')}
            </p>
          )}
          {detail ? (
            <EventDetail initial={detail} slip={slip} />
          ) : results !== null || filters.q ? (
            <EventList
              key={`search:${filters.q}`}
              title={t('sportsbook.search.results', { query: filters.q ?? '' })}
              page={results}
              slip={slip}
              kind="search"
            />
          ) : (
            <>
              <LeagueFilter sport={sport} tournaments={tournaments} filters={filters} />
              <DayTabs sport={sport} filters={filters} today={today} />
              {!filters.day && (
                <EventList
                  key={`live:${sport}:${filters.league}`}
                  title={league ? `${t('sportsbook.live')} · ${league.name}` : t('sportsbook.live')}
                  page={live}
                  slip={slip}
                  kind="live"
                  query={{ sport, status: 'live', tournament: filters.league }}
                />
              )}
              <EventList
                key={`upcoming:${sport}:${filters.league}:${filters.day}`}
                title={league ? `${t('sportsbook.upcoming')} · ${league.name}` : t('sportsbook.upcoming')}
                page={upcoming}
                slip={slip}
                kind={filters.day ? 'day' : 'upcoming'}
                query={{ sport, status: 'upcoming', tournament: filters.league, day: filters.day }}
              />
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

/** Search over team and league names of every sport: a plain GET form, so it works before hydration too. */
function SearchForm({ sport, filters }: { sport: Sport; filters: BettingFilters }) {
  const { t, localePath } = useI18n();
  return (
    <Form method="get" action={localePath('/betting')} className="betting-search" role="search" data-betting-search>
      <input type="hidden" name="sport" value={sport} />
      <label className="betting-search__field">
        <Icon name="search" size={18} />
        <span className="visually-hidden">{t('sportsbook.search.label')}</span>
        <input
          key={filters.q ?? ''}
          type="search"
          name="q"
          defaultValue={filters.q ?? ''}
          placeholder={t('sportsbook.search.placeholder')}
          minLength={2}
          maxLength={64}
          autoComplete="off"
        />
      </label>
      <button type="submit" className="button button--ghost">
        {t('sportsbook.search.submit')}
      </button>
      {filters.q && (
        <Link className="betting-search__clear" to={`${localePath('/betting')}?sport=${sport}`} data-action="clear-search">
          {t('sportsbook.search.clear')}
        </Link>
      )}
      {filters.isShortQuery && (
        <p className="field__hint betting-search__hint" role="status">
          {t('sportsbook.search.tooShort')}
        </p>
      )}
    </Form>
  );
}

/** "All leagues", the busiest leagues as quick filters, and every league of the sport in a list. */
function LeagueFilter({
  sport,
  tournaments,
  filters,
}: {
  sport: Sport;
  tournaments: SportTournamentView[] | null;
  filters: BettingFilters;
}) {
  const { t, localePath } = useI18n();
  if (!tournaments || tournaments.length === 0) return null;
  const top = tournaments.slice(0, TOP_LEAGUES);
  // A chosen league outside the top ones is shown as a chip too, so the choice is visible.
  const chosen = tournaments.find((item) => item.id === filters.league);
  const chips = chosen && !top.includes(chosen) ? [...top, chosen] : top;
  return (
    <nav className="league-filter" aria-label={t('sportsbook.leagues.title')} data-league-filter>
      <h2 className="league-filter__title">{t('sportsbook.leagues.top')}</h2>
      <div className="league-filter__chips">
        <Link
          className={`chip${filters.league ? '' : ' is-active'}`}
          to={listPath(localePath, sport, { day: filters.day })}
          aria-current={filters.league ? undefined : 'page'}
          data-league-link=""
        >
          {t('sportsbook.leagues.all')}
        </Link>
        {chips.map((item) => (
          <Link
            key={item.id}
            className={`chip${item.id === filters.league ? ' is-active' : ''}`}
            to={listPath(localePath, sport, { day: filters.day, league: item.id })}
            aria-current={item.id === filters.league ? 'page' : undefined}
            data-league-link={item.id}
            title={`${item.category.name} · ${item.name}`}
          >
            {item.name}
            {item.live > 0 && <span className="chip__live">{t('sportsbook.liveCount', { count: item.live })}</span>}
          </Link>
        ))}
      </div>
      {tournaments.length > top.length && <LeagueSelect sport={sport} tournaments={tournaments} filters={filters} />}
    </nav>
  );
}

/** Every league, by country: a GET form whose choice goes through at once once the script runs. */
function LeagueSelect({
  sport,
  tournaments,
  filters,
}: {
  sport: Sport;
  tournaments: SportTournamentView[];
  filters: BettingFilters;
}) {
  const { t, localePath } = useI18n();
  const sorted = [...tournaments].sort((a, b) => a.category.name.localeCompare(b.category.name) || a.name.localeCompare(b.name));
  return (
    <Form method="get" action={localePath('/betting')} className="league-filter__select">
      <input type="hidden" name="sport" value={sport} />
      {filters.day && <input type="hidden" name="day" value={filters.day} />}
      <label className="field">
        <span className="field__label">{t('sportsbook.leagues.every')}</span>
        <select
          className="field__input"
          name="league"
          defaultValue={filters.league ?? ''}
          onChange={(event) => event.currentTarget.form?.requestSubmit()}
        >
          <option value="">{t('sportsbook.leagues.all')}</option>
          {sorted.map((item) => (
            <option key={item.id} value={item.id}>
              {item.category.name} · {item.name}
            </option>
          ))}
        </select>
      </label>
      <noscript>
        <button type="submit" className="button button--ghost">
          {t('sportsbook.leagues.show')}
        </button>
      </noscript>
    </Form>
  );
}

/** A day's tab label: today, tomorrow, then the weekday and date in the player's language (UTC days). */
function dayLabel(day: string, today: string, locale: Locale, t: (key: string) => string): string {
  const offset = Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
  if (offset === 0) return t('sportsbook.day.today');
  if (offset === 1) return t('sportsbook.day.tomorrow');
  return new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

function DayTabs({ sport, filters, today }: { sport: Sport; filters: BettingFilters; today: string }) {
  const { t, locale, localePath } = useI18n();
  const start = Date.parse(`${today}T00:00:00Z`);
  const days = Array.from({ length: DAY_TABS }, (_, index) => new Date(start + index * DAY_MS).toISOString().slice(0, 10));
  const tab = (day: string | null, label: string) => (
    <Link
      key={day ?? 'all'}
      role="tab"
      aria-selected={filters.day === day}
      className={`day-tabs__tab${filters.day === day ? ' is-active' : ''}`}
      to={listPath(localePath, sport, { day, league: filters.league })}
      data-day-tab={day ?? 'all'}
    >
      {label}
    </Link>
  );
  return (
    <nav className="day-tabs" aria-label={t('sportsbook.day.title')} role="tablist">
      {tab(null, t('sportsbook.day.all'))}
      {days.map((day) => tab(day, dayLabel(day, today, locale, t)))}
    </nav>
  );
}

interface ListQuery {
  sport: Sport;
  status: 'live' | 'upcoming';
  tournament: string | null;
  day?: string | null;
}

type ListKind = 'live' | 'upcoming' | 'day' | 'search';

/** A list of events with its failed and empty states and "Show more" for the next page. */
function EventList({
  title,
  page,
  slip,
  kind,
  query,
}: {
  title: string;
  page: SportEventPage | null;
  slip: BetSlipState;
  kind: ListKind;
  query?: ListQuery;
}) {
  const { t, locale } = useI18n();
  const [items, setItems] = useState<SportEventListItem[]>(page?.items ?? []);
  const [total, setTotal] = useState(page?.total ?? 0);
  const [isBusy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  // New loader data (a revalidation of the same filters) starts the list again.
  useEffect(() => {
    setItems(page?.items ?? []);
    setTotal(page?.total ?? 0);
  }, [page]);

  async function loadMore() {
    if (!query) return;
    setBusy(true);
    setFailed(false);
    try {
      const next = await browserApi(locale).call('sportsbook.getEvents', {
        sport: query.sport,
        status: query.status,
        tournament: query.tournament ?? undefined,
        day: query.day ?? undefined,
        offset: items.length,
        count: BETTING_PAGE_SIZE,
      });
      // Events move between lists as they start: what is already shown is not shown twice.
      setItems((shown) => [...shown, ...next.items.filter((item) => !shown.some((known) => known.id === item.id))]);
      setTotal(next.total);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="betting__section" data-event-list={kind === 'day' ? 'upcoming' : kind} data-total={total}>
      <h2 className="section-title">{title}</h2>
      {page === null ? (
        <p className="card betting__error" role="alert">
          {t('sportsbook.loadFailed')}
        </p>
      ) : items.length === 0 ? (
        <p className="card betting__empty" data-empty-list={kind}>
          <Icon name="clock" size={22} />
          <span>{t(`sportsbook.empty.${kind}`)}</span>
        </p>
      ) : (
        <ul className="sport-events">
          {items.map((item) => (
            <EventRow key={item.id} event={item} market={item.main_market} slip={slip} />
          ))}
        </ul>
      )}
      {failed && (
        <p className="field__error" role="alert">
          {t('sportsbook.loadMoreFailed')}
        </p>
      )}
      {query && items.length < total && (
        <button
          type="button"
          className="button button--ghost button--wide betting__more"
          disabled={isBusy}
          onClick={() => void loadMore()}
          data-action="more-events"
        >
          {isBusy ? t('sportsbook.loading') : t('sportsbook.more', { shown: items.length, total })}
        </button>
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
