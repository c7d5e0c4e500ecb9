import { Link } from 'react-router';
import type { Route } from './+types/home';
import type { BannerView, GameProviderView, GameWinnerView } from '#common/contract';
import { DEFAULT_LOCALE, localeFromPath } from '#common/locale';
import { formatMoney } from '#common/money';
import { cmsList } from '~/content.server';
import { loaderApi } from '~/api/loader-api';
import { gamesApi } from '~/games/games-api';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { BannerSlot } from '~/components/banner-slot';
import { GameGrid } from '~/components/game-grid';
import type { HallGame } from '~/components/hall-tile';
import { ProviderCard } from '~/components/provider-card';
import { DeferredImage } from '~/components/deferred-image';
import { Icon } from '~/components/icon';

/** The symbol of a home section by its id; content may add sections this does not know. */
const SECTION_ICONS: Record<string, string> = {
  popular: 'flame',
  live: 'live',
  new: 'sparkle',
  providers: 'casino',
  wins: 'star',
};
/** Tiles a catalogue rail shows at most: one desktop row of six. */
const RAIL_COUNT = 6;
/** Big wins the home rail lists. */
const WINS_COUNT = 8;
/** Tiles of the first rail a phone shows without scrolling: their pictures load at once (issue 12 LCP). */
const ABOVE_FOLD_TILES = 2;

/**
 * A home rail as content describes it (home/main): hand-picked games (`games`), or a catalogue
 * category (`category`, e.g. live-now, new) in an order, so the rail shows what the site has now.
 */
interface HomeSectionContent {
  id: string;
  titleKey: string;
  games?: { sysname: string }[];
  category?: string;
  sort?: 'priority' | 'name' | 'created';
  order?: 'asc' | 'desc';
}

interface HomeSection {
  id: string;
  titleKey: string;
  games: HallGame[];
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.index.title');

/**
 * The carousel's banners from banners.get (spec §7, §9 banners 10; issue 13): the method already
 * sorts by description position and leaves finished ones and drafts out. A failed read shows the
 * page without banners rather than an error page: the games are what the visitor came for.
 */
async function homeBanners(request: Request, context: unknown): Promise<BannerView[]> {
  try {
    return (await loaderApi(request, context).call('banners.get', {})).items;
  } catch {
    return [];
  }
}

/**
 * One rail's games from the catalogue (games.get): a category in its order, or the picked games
 * by priority. Only games the catalogue lists appear, so a title that cannot start
 * (hidden from the lobby) is never offered here; a failed read leaves the rail empty.
 */
async function railGames(api: ReturnType<typeof gamesApi>, section: HomeSectionContent): Promise<HallGame[]> {
  try {
    if (section.category) {
      const page = await api.list({
        options: JSON.stringify({ category: section.category }),
        sort_options: section.sort ?? 'priority',
        order: section.order ?? 'asc',
        offset: 0,
        count: RAIL_COUNT,
      });
      return page.items as HallGame[];
    }
    const picked = (section.games ?? []).map((game) => game.sysname);
    if (picked.length === 0) return [];
    // In the catalogue's priority order, like every other list of games.
    const page = await api.list({
      sysnames: picked.join(','),
      sort_options: 'priority',
      order: 'asc',
      offset: 0,
      count: Math.min(picked.length, 300),
    });
    return page.items as HallGame[];
  } catch {
    return [];
  }
}

async function homeWinners(request: Request, context: unknown): Promise<GameWinnerView[]> {
  try {
    return (await loaderApi(request, context).call('games.getWinners', { count: WINS_COUNT })).items;
  } catch {
    return [];
  }
}

async function homeProviders(api: ReturnType<typeof gamesApi>): Promise<GameProviderView[]> {
  try {
    return await api.providers();
  } catch {
    return [];
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const locale = localeFromPath(new URL(request.url).pathname) ?? DEFAULT_LOCALE;
  const api = gamesApi(loaderApi(request, context));
  const [banners, home, providers, winners] = await Promise.all([
    homeBanners(request, context),
    cmsList<{ sections: HomeSectionContent[] }>(context, 'home', locale, { slug: 'main' }),
    homeProviders(api),
    homeWinners(request, context),
  ]);
  const content = home[0]?.attributes.sections ?? [];
  const sections: HomeSection[] = await Promise.all(
    content.map(async (section) => ({ id: section.id, titleKey: section.titleKey, games: await railGames(api, section) })),
  );
  return { banners, sections, providers, winners };
}

function WinsRail({ winners }: { winners: GameWinnerView[] }) {
  const { t, localePath } = useI18n();
  return (
    <section className="game-section" id="wins" data-rail="wins" data-rail-count={winners.length}>
      <h2 className="section-title">
        <span className="section-title__icon">
          <Icon name={SECTION_ICONS.wins!} size={18} />
        </span>
        {t('home.section.wins')}
      </h2>
      {winners.length === 0 ? (
        <p className="rail-empty card">{t('home.wins.empty')}</p>
      ) : (
        <ul className="win-list">
          {winners.map((win) => (
            <li key={win.id} className="win-list__item" data-win={win.sysname}>
              <Link to={localePath(`/game/${win.sysname}`)} className="win-list__link">
                <DeferredImage className="win-list__art" src={`/platform/art/${win.sysname}.svg`} width={72} height={48} />
                <span className="win-list__text">
                  <span className="win-list__game">{win.game_name}</span>
                  <span className="win-list__player">{win.player ?? t('home.wins.anonymous')}</span>
                </span>
                <span className="win-list__amount">
                  <strong>{formatMoney(win.payout)}</strong>
                  <span className="win-list__multiplier">×{win.multiplier}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t, localePath } = useI18n();
  const { sections, providers, winners } = loaderData;
  const providerNames = Object.fromEntries(providers.map((provider) => [provider.sysname, provider.name]));
  const links = [
    ...sections.map((section) => ({ id: section.id, titleKey: section.titleKey })),
    ...(providers.length ? [{ id: 'providers', titleKey: 'home.section.providers' }] : []),
    { id: 'wins', titleKey: 'home.section.wins' },
  ];
  return (
    <div className="page page--home">
      <h1 className="visually-hidden">{t('page.index.title')}</h1>
      <BannerSlot banners={loaderData.banners} />
      <nav className="section-links" aria-label={t('home.sections')}>
        {links.map((link) => (
          <Link key={link.id} to={`#${link.id}`} className="chip" preventScrollReset>
            <Icon name={SECTION_ICONS[link.id] ?? 'star'} size={18} />
            {t(link.titleKey)}
          </Link>
        ))}
      </nav>
      {sections.map((section, index) => (
        <GameGrid
          key={section.id}
          id={section.id}
          title={t(section.titleKey)}
          icon={SECTION_ICONS[section.id] ?? 'star'}
          games={section.games}
          providerNames={providerNames}
          aboveFold={index === 0 ? ABOVE_FOLD_TILES : 0}
          isTileLargestPaint={loaderData.banners.length === 0}
          empty={t('home.section.empty')}
        />
      ))}
      {providers.length > 0 && (
        <section className="game-section" id="providers" data-rail="providers" data-rail-count={providers.length}>
          <h2 className="section-title">
            <span className="section-title__icon">
              <Icon name={SECTION_ICONS.providers!} size={18} />
            </span>
            {t('home.section.providers')}
            <Link to={localePath('/providers')} className="section-title__more">
              {t('home.providers.all')}
            </Link>
          </h2>
          <ul className="provider-grid provider-grid--rail">
            {providers.map((provider) => (
              <ProviderCard key={provider.sysname} provider={provider} />
            ))}
          </ul>
        </section>
      )}
      <WinsRail winners={winners} />
    </div>
  );
}
