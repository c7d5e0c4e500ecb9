import { Link } from 'react-router';
import type { Route } from './+types/home';
import type { BannerView } from '#common/contract';
import { DEFAULT_LOCALE, localeFromPath } from '#common/locale';
import { gameDisplayName } from '#common/games-contract';
import { cmsList } from '~/content.server';
import { loaderApi } from '~/api/loader-api';
import { gamesApi } from '~/games/games-api';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { BannerSlot } from '~/components/banner-slot';
import { GameGrid, type GameTile } from '~/components/game-grid';
import { Icon } from '~/components/icon';

/** The symbol of a home section by its id; content may add sections this does not know. */
const SECTION_ICONS: Record<string, string> = { popular: 'flame', live: 'live', new: 'sparkle' };

interface HomeSection {
  id: string;
  titleKey: string;
  games: GameTile[];
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
 * The sections' games from the catalogue (games.get by sysnames, sort priority): names in the
 * page's locale by the game-like record rule, provider names from games.getProviders. Content
 * still chooses which games a section holds; without an answer its own tiles stay.
 */
async function catalogueSections(request: Request, context: unknown, sections: HomeSection[]): Promise<HomeSection[]> {
  const sysnames = [...new Set(sections.flatMap((section) => section.games.map((game) => game.sysname)))];
  if (sysnames.length === 0) return sections;
  const api = gamesApi(loaderApi(request, context));
  try {
    const [page, providers] = await Promise.all([
      api.list({
        sysnames: sysnames.join(','),
        offset: 0,
        count: Math.min(sysnames.length, 300),
        sort_options: 'priority',
        order: 'asc',
      }),
      api.providers(),
    ]);
    const providerNames = new Map(providers.map((provider) => [provider.sysname, provider.name]));
    return sections.map((section) => {
      const wanted = new Set(section.games.map((game) => game.sysname));
      const games = page.items
        .filter((game) => game.sysname !== undefined && wanted.has(game.sysname))
        .map((game) => ({
          sysname: game.sysname!,
          name: gameDisplayName({ name: game.name ?? game.sysname!, description: game.description ?? {} }),
          provider: game.provider ? (providerNames.get(game.provider) ?? game.provider) : undefined,
        }));
      return games.length ? { ...section, games } : section;
    });
  } catch {
    return sections;
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const locale = localeFromPath(new URL(request.url).pathname) ?? DEFAULT_LOCALE;
  const [banners, home] = await Promise.all([
    homeBanners(request, context),
    cmsList<{ sections: HomeSection[] }>(context, 'home', locale, { slug: 'main' }),
  ]);
  return {
    banners,
    sections: await catalogueSections(request, context, home[0]?.attributes.sections ?? []),
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <div className="page page--home">
      <h1 className="visually-hidden">{t('page.index.title')}</h1>
      <BannerSlot banners={loaderData.banners} />
      {loaderData.sections.length > 1 && (
        <nav className="section-links" aria-label={t('home.sections')}>
          {loaderData.sections.map((section) => (
            <Link key={section.id} to={`#${section.id}`} className="chip" preventScrollReset>
              <Icon name={SECTION_ICONS[section.id] ?? 'star'} size={18} />
              {t(section.titleKey)}
            </Link>
          ))}
        </nav>
      )}
      {loaderData.sections.map((section) => (
        <GameGrid
          key={section.id}
          id={section.id}
          title={t(section.titleKey)}
          icon={SECTION_ICONS[section.id] ?? 'star'}
          games={section.games}
        />
      ))}
    </div>
  );
}
