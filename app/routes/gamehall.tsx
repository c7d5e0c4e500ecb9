/**
 * /gamehall and /gamehall/{id} (spec §2): the game list on the real catalogue. The filter is in
 * the address (category: one category; providers: a comma-joined list, checkbox filter;
 * favorites=1: the signed-in player's likes); the first page and each "load more" follow
 * games-config counts (spec §9: 15, 12, at most 300) and append without duplicates. /gamehall/{id}
 * runs the redirect-gamehall-category check first: {id} must be a category, else 404.
 */
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Route } from './+types/gamehall';
import type { ConfigSections } from '~/site-data';
import type { PageLoadContext } from '#common/load-context';
import { isAuthenticated } from '#common/api-contract';
import { DEFAULT_LOCALE, localeFromPath } from '#common/locale';
import type { GameCategory, GameCategoryView, GameProviderView } from '#common/games-contract';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { browserApi } from '~/api/client';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail, pageNotFound } from '~/api/errors';
import { configValue, useRootData } from '~/site-data';
import { useDialogs } from '~/dialogs/dialog-context';
import { useToasts } from '~/toasts/toast-provider';
import { gamesApi } from '~/games/games-api';
import {
  appendGames,
  hallCounts,
  hallQuery,
  hallSearch,
  isGameCategory,
  nextCount,
  parseHallFilter,
  toggleProvider,
  type HallCounts,
  type HallFilter,
} from '~/games/hall';
import { useGameLikes } from '~/games/use-game-likes';
import { HallTile, type HallGame } from '~/components/hall-tile';
import { Icon } from '~/components/icon';

/** The first row on a phone (two columns), whose pictures are not lazy-loaded. */
const ABOVE_FOLD_TILES = 2;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, args.params.id ? 'page.gamehall-id.title' : 'page.gamehall.title');

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const locale = localeFromPath(url.pathname) ?? DEFAULT_LOCALE;
  const ctx = context as unknown as PageLoadContext;
  const api = gamesApi(loaderApi(request, context));
  const [categories, providers, config] = await Promise.all([
    loadOrFail(api.categories()),
    loadOrFail(api.providers()),
    // The root loader reads the same configuration: the load context hands both one read per request.
    ctx.siteConfig(locale) as Promise<ConfigSections>,
  ]);
  const filter = parseHallFilter(url.searchParams);
  if (params.id !== undefined) {
    // redirect-gamehall-category: only a known category has a hall of its own.
    if (!isGameCategory(params.id) || !categories.some((category) => category.sysname === params.id)) {
      pageNotFound(request);
    }
    filter.category = params.id;
  }
  const counts = hallCounts(configValue(config, 'games-config.counts', undefined));
  const [page, likes] = await Promise.all([
    loadOrFail(api.list(hallQuery(filter, categories, 0, counts.first))),
    // Likes are a signed-in player's (games.getLikes answers a visitor 401): a visitor has none to ask for.
    isAuthenticated(ctx.account) ? api.likes().catch(() => [] as string[]) : ([] as string[]),
  ]);
  return { filter, categories, providers, counts, page, likes, isCategoryPage: params.id !== undefined };
}

function CategoryTabs({
  categories,
  filter,
  isCategoryPage,
}: {
  categories: GameCategoryView[];
  filter: HallFilter;
  isCategoryPage: boolean;
}) {
  const { t, localePath } = useI18n();
  const href = (category: GameCategory) =>
    isCategoryPage ? localePath(`/gamehall/${category}`) : `${localePath('/gamehall')}${hallSearch({ ...filter, category })}`;
  return (
    <nav className="section-links hall-categories" aria-label={t('gamehall.categories')}>
      {categories.map((category) => (
        <Link
          key={category.sysname}
          to={href(category.sysname)}
          className={`chip${category.sysname === filter.category ? ' active' : ''}`}
          aria-current={category.sysname === filter.category ? 'page' : undefined}
          data-category={category.sysname}
          preventScrollReset
        >
          {t(`gamehall.category.${category.sysname}`)}
          <span className="chip__count">{category.count}</span>
        </Link>
      ))}
    </nav>
  );
}

function ProviderFilter({
  providers,
  filter,
  onChange,
}: {
  providers: GameProviderView[];
  filter: HallFilter;
  onChange: (next: HallFilter) => void;
}) {
  const { t } = useI18n();
  return (
    <fieldset className="hall-filter" data-filter="providers" data-filter-type="checkbox">
      <legend className="hall-filter__legend">{t('gamehall.filter.providers')}</legend>
      {providers.map((provider) => (
        <label key={provider.sysname} className="hall-filter__option">
          <input
            type="checkbox"
            name="providers"
            value={provider.sysname}
            checked={filter.providers.includes(provider.sysname)}
            onChange={() => onChange(toggleProvider(filter, provider.sysname))}
          />
          {provider.name}
        </label>
      ))}
    </fieldset>
  );
}

function GameList({
  filter,
  categories,
  counts,
  initial,
  providerNames,
  like,
}: {
  filter: HallFilter;
  categories: GameCategoryView[];
  counts: HallCounts;
  initial: { items: HallGame[]; total: number };
  providerNames: Record<string, string>;
  like?: ReturnType<typeof useGameLikes>;
}) {
  const { t, locale } = useI18n();
  const { show } = useToasts();
  const [items, setItems] = useState(initial.items);
  const [total, setTotal] = useState(initial.total);
  const [isBusy, setBusy] = useState(false);
  const count = nextCount(items.length, total, counts);
  async function loadMore() {
    setBusy(true);
    try {
      const page = await gamesApi(browserApi(locale)).list(hallQuery(filter, categories, items.length, count));
      setItems((current) => appendGames(current, page.items as HallGame[]).slice(0, counts.max));
      setTotal(page.total);
    } catch {
      show(t('gamehall.loadError'), { tone: 'error' });
    } finally {
      setBusy(false);
    }
  }
  if (items.length === 0)
    return <p className="hall-empty card">{t(filter.isFavoritesOnly ? 'gamehall.empty.favorites' : 'gamehall.empty')}</p>;
  return (
    <section className="game-section" data-hall-total={total} data-hall-count={items.length}>
      <ul className="game-grid">
        {items.map((game, index) => (
          <HallTile
            key={game.sysname}
            game={game}
            isAboveFold={index < ABOVE_FOLD_TILES}
            providerName={game.provider ? providerNames[game.provider] : undefined}
            like={
              like && {
                isLiked: like.likes.has(game.sysname),
                isBusy: like.busy === game.sysname,
                toggle: () => void like.toggle(game.sysname),
              }
            }
          />
        ))}
      </ul>
      {count > 0 && (
        <button
          type="button"
          className="button button--ghost button--wide hall-more"
          disabled={isBusy}
          onClick={() => void loadMore()}
          data-action="load-more"
        >
          {t('gamehall.more')}
        </button>
      )}
    </section>
  );
}

export default function GameHall({ loaderData }: Route.ComponentProps) {
  const { t, localePath } = useI18n();
  const root = useRootData();
  const navigate = useNavigate();
  const { open } = useDialogs();
  const { filter, categories, providers, counts, page, likes, isCategoryPage } = loaderData;
  const isSignedIn = isAuthenticated(root?.account);
  const canLike = isSignedIn && configValue(root?.config, 'games-config.gamesItem.canVisibleFavoriteIcon', true);
  const like = useGameLikes(isSignedIn, likes);
  const providerNames = Object.fromEntries(providers.map((provider) => [provider.sysname, provider.name]));
  const base = localePath(isCategoryPage ? `/gamehall/${filter.category}` : '/gamehall');
  const go = (next: HallFilter) =>
    void navigate(`${base}${hallSearch(isCategoryPage ? { ...next, category: 'all' } : next)}`, { preventScrollReset: true });
  const titleKey = isCategoryPage ? 'page.gamehall-id.title' : 'page.gamehall.title';
  return (
    <div className="page page--gamehall" data-hall-category={filter.category}>
      <header className="page__header page-band page-band--compact">
        <span className="page-band__icon">
          <Icon name="casino" size={26} />
        </span>
        <div className="page-band__text">
          <h1 className="page__title">{t(titleKey)}</h1>
          {isCategoryPage && <p className="page__detail">{t(`gamehall.category.${filter.category}`)}</p>}
          <p className="page__intro">{t(isCategoryPage ? 'page.gamehall-id.description' : 'page.gamehall.description')}</p>
        </div>
        <button
          type="button"
          className="button button--ghost hall-search-open"
          onClick={() => open('gamesSearch', { title: t('gamehall.search.title') })}
          data-action="search"
        >
          <Icon name="search" size={18} />
          {t('gamehall.search.open')}
        </button>
      </header>
      <CategoryTabs categories={categories} filter={filter} isCategoryPage={isCategoryPage} />
      <div className="hall-layout">
        <aside className="hall-filters">
          <ProviderFilter providers={providers} filter={filter} onChange={go} />
          {canLike && (
            <label className="hall-filter__option hall-filter__favorites">
              <input
                type="checkbox"
                name="favorites"
                checked={filter.isFavoritesOnly}
                onChange={() => go({ ...filter, isFavoritesOnly: !filter.isFavoritesOnly })}
              />
              <Icon name="heart" size={16} />
              {t('gamehall.filter.favorites')}
            </label>
          )}
        </aside>
        <GameList
          key={`${filter.category}${hallSearch(filter)}`}
          filter={filter}
          categories={categories}
          counts={counts}
          initial={{ items: page.items as HallGame[], total: page.total }}
          providerNames={providerNames}
          like={canLike ? like : undefined}
        />
      </div>
    </div>
  );
}
