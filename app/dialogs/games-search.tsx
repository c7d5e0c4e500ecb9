/**
 * The games search dialog (spec §2 dialog components): results follow the typing, debounced
 * (search-config debounceMs, minQueryLength), in the configured sections: games from games.get
 * with query, and providers whose name matches.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { GameProviderView } from '#common/games-contract';
import type { DialogComponentProps } from './dialog-context';
import { browserApi } from '~/api/client';
import { useI18n } from '~/i18n';
import { configValue, useRootData } from '~/site-data';
import { gamesApi } from '~/games/games-api';
import { debounce, hallSearch, searchConfig } from '~/games/hall';
import { HallTile, type HallGame } from '~/components/hall-tile';

interface Results {
  query: string;
  games: HallGame[];
  providers: GameProviderView[];
}

export function GamesSearch({ close }: DialogComponentProps) {
  const { t, locale, localePath } = useI18n();
  const root = useRootData();
  const config = searchConfig(configValue<unknown>(root?.config, 'search-config', undefined));
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Results | undefined>();
  const [isFailed, setFailed] = useState(false);
  const latest = useRef('');
  const providers = useRef<Promise<GameProviderView[]> | undefined>(undefined);
  const gamesCount = config.sections.find((section) => section.type === 'games')?.count ?? 0;
  const providersCount = config.sections.find((section) => section.type === 'providers')?.count ?? 0;

  const search = useMemo(
    () =>
      debounce(async (text: string) => {
        const api = gamesApi(browserApi(locale));
        try {
          providers.current ??= api.providers();
          const needle = text.toLocaleLowerCase(locale);
          const [page, all] = await Promise.all([
            gamesCount
              ? api.list({ query: text, offset: 0, count: gamesCount, sort_options: 'priority', order: 'asc' })
              : Promise.resolve({ items: [], total: 0 }),
            providersCount ? providers.current : Promise.resolve([]),
          ]);
          // An answer to an older query must not replace a newer one.
          if (latest.current !== text) return;
          setFailed(false);
          setResults({
            query: text,
            games: page.items as HallGame[],
            providers: all
              .filter((provider) => provider.name.toLocaleLowerCase(locale).includes(needle))
              .slice(0, providersCount),
          });
        } catch {
          providers.current = undefined;
          if (latest.current === text) setFailed(true);
        }
      }, config.debounceMs),
    [locale, gamesCount, providersCount, config.debounceMs],
  );
  useEffect(() => () => search.cancel(), [search]);

  function onInput(text: string) {
    setQuery(text);
    const trimmed = text.trim();
    latest.current = trimmed;
    if (trimmed.length < config.minQueryLength) {
      search.cancel();
      setResults(undefined);
      return;
    }
    search(trimmed);
  }

  const shown = results && results.query === query.trim() ? results : undefined;
  const closeOnLink = (event: React.MouseEvent) => {
    if ((event.target as HTMLElement).closest('a')) close();
  };
  return (
    <div className="games-search" onClick={closeOnLink}>
      <h2 className="dialog__title">{t('gamehall.search.title')}</h2>
      <input
        type="search"
        className="field__input games-search__input"
        name="query"
        value={query}
        placeholder={t('gamehall.search.placeholder')}
        aria-label={t('gamehall.search.placeholder')}
        autoFocus
        onChange={(event) => onInput(event.target.value)}
      />
      {query.trim().length > 0 && query.trim().length < config.minQueryLength && (
        <p className="games-search__hint">{t('gamehall.search.tooShort', { min: config.minQueryLength })}</p>
      )}
      {isFailed && (
        <p className="games-search__hint" role="alert">
          {t('gamehall.loadError')}
        </p>
      )}
      {shown && shown.games.length === 0 && shown.providers.length === 0 && (
        <p className="games-search__hint" data-search-empty>
          {t('gamehall.search.empty')}
        </p>
      )}
      {shown &&
        config.sections.map((section) =>
          section.type === 'games'
            ? shown.games.length > 0 && (
                <section key="games" className="games-search__section" data-search-section="games">
                  <h3 className="games-search__heading">{t('gamehall.search.games')}</h3>
                  <ul className="game-grid game-grid--compact">
                    {shown.games.map((game) => (
                      <HallTile key={game.sysname} game={game} />
                    ))}
                  </ul>
                </section>
              )
            : shown.providers.length > 0 && (
                <section key="providers" className="games-search__section" data-search-section="providers">
                  <h3 className="games-search__heading">{t('gamehall.search.providers')}</h3>
                  <ul className="games-search__providers">
                    {shown.providers.map((provider) => (
                      <li key={provider.sysname}>
                        <Link
                          className="chip"
                          to={`${localePath('/gamehall')}${hallSearch({ category: 'all', providers: [provider.sysname], isFavoritesOnly: false })}`}
                          data-provider={provider.sysname}
                        >
                          {provider.name}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </section>
              ),
        )}
    </div>
  );
}
