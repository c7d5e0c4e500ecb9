/**
 * The bets area, /bets/{any path} (issue 14 "My bets … the bets area addressed by /bets/{any
 * path}"; spec §2: guarded like every path with a bets segment, so an anonymous visitor is sent
 * home with redirectUrl by the site layout). The player's sports bets with their legs, live status
 * and cash-out, in tabs: /bets/open, /bets/settled, and every other path all of them. Game rounds
 * stay on /profile/bets beside the same list.
 */
import { Link } from 'react-router';
import type { Route } from './+types/bets';
import { stripLocalePrefix } from '#common/locale';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { Icon } from '~/components/icon';
import { SPORT_TICKETS_PAGE_SIZE, SportTickets, type TicketFilter } from '~/components/sport-tickets';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.bets-all.title');

const TABS: readonly TicketFilter[] = ['open', 'settled', 'all'];

/** The tab a path names: its segment after /bets when that is a tab, else every bet. */
export function ticketFilterOf(pathname: string): TicketFilter {
  const segment = stripLocalePrefix(pathname).split('/')[2] ?? '';
  return segment === 'open' || segment === 'settled' ? segment : 'all';
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = loaderApi(request, context);
  const status = ticketFilterOf(new URL(request.url).pathname);
  const page = await loadOrFail(api.call('sportsbook.getBets', { status, offset: 0, count: SPORT_TICKETS_PAGE_SIZE }));
  return { status, tickets: page.items };
}

export default function Bets({ loaderData }: Route.ComponentProps) {
  const { status, tickets } = loaderData;
  const { t, localePath } = useI18n();
  return (
    <div className="page bets-area" data-bets-area={status}>
      <header className="page__header page-band">
        <span className="page-band__icon">
          <Icon name="betting" size={30} />
        </span>
        <div className="page-band__text">
          <h1 className="page__title">{t('page.bets-all.title')}</h1>
          <p className="page__intro">{t('page.bets-all.description')}</p>
        </div>
      </header>
      <nav className="day-tabs" role="tablist" aria-label={t('page.bets-all.title')}>
        {TABS.map((tab) => (
          <Link
            key={tab}
            role="tab"
            aria-selected={tab === status}
            className={`day-tabs__tab${tab === status ? ' is-active' : ''}`}
            to={localePath(tab === 'all' ? '/bets/all' : `/bets/${tab}`)}
            data-bets-tab={tab}
          >
            {t(`sportsbook.tickets.tab.${tab}`)}
          </Link>
        ))}
      </nav>
      <SportTickets key={status} initial={tickets} status={status} title={t(`sportsbook.tickets.tab.${status}`)} />
      <p className="bets-area__links">
        <Link className="button button--primary" to={localePath('/betting')}>
          {t('sportsbook.tickets.toBetting')}
        </Link>
        <Link className="button button--ghost" to={localePath('/profile/bets')}>
          {t('sportsbook.tickets.toHistory')}
        </Link>
      </p>
    </div>
  );
}
