/** /providers (spec §2 game providers): a card per provider with its game count, opening the hall filtered by it. */
import { Link } from 'react-router';
import type { Route } from './+types/providers';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { gamesApi } from '~/games/games-api';
import { hallSearch } from '~/games/hall';
import { Icon } from '~/components/icon';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.providers.title');

export async function loader({ request, context }: Route.LoaderArgs) {
  return { providers: await loadOrFail(gamesApi(loaderApi(request, context)).providers()) };
}

export default function Providers({ loaderData }: Route.ComponentProps) {
  const { t, tc, localePath } = useI18n();
  return (
    <div className="page page--providers">
      <header className="page__header page-band page-band--compact">
        <span className="page-band__icon">
          <Icon name="casino" size={26} />
        </span>
        <div className="page-band__text">
          <h1 className="page__title">{t('page.providers.title')}</h1>
          <p className="page__intro">{t('page.providers.description')}</p>
        </div>
      </header>
      <ul className="provider-grid">
        {loaderData.providers.map((provider) => (
          <li key={provider.sysname}>
            <Link
              to={`${localePath('/gamehall')}${hallSearch({ category: 'all', providers: [provider.sysname], isFavoritesOnly: false })}`}
              className="provider-card"
              data-provider={provider.sysname}
            >
              <img className="provider-card__art" src={provider.image_url} alt="" width={288} height={192} loading="lazy" />
              <span className="provider-card__name">{provider.name}</span>
              <span className="provider-card__count">{tc('gamehall.providers.count', provider.games_count)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
