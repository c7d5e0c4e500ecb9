/** /providers (spec §2 game providers): a card per provider with its game count, opening the hall filtered by it. */
import type { Route } from './+types/providers';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { gamesApi } from '~/games/games-api';
import { ProviderCard } from '~/components/provider-card';
import { Icon } from '~/components/icon';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.providers.title');

export async function loader({ request, context }: Route.LoaderArgs) {
  return { providers: await loadOrFail(gamesApi(loaderApi(request, context)).providers()) };
}

export default function Providers({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
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
          <ProviderCard key={provider.sysname} provider={provider} />
        ))}
      </ul>
    </div>
  );
}
