import { Link } from 'react-router';
import type { GameProviderView } from '#common/games-contract';
import { useI18n } from '~/i18n';
import { hallSearch } from '~/games/hall';
import { DeferredImage } from './deferred-image';

/** A provider's logo, name and game count, opening the hall filtered by it (/providers and the home rail). */
export function ProviderCard({ provider }: { provider: GameProviderView }) {
  const { tc, localePath } = useI18n();
  return (
    <li className="provider-grid__item">
      <Link
        to={`${localePath('/gamehall')}${hallSearch({ category: 'all', providers: [provider.sysname], isFavoritesOnly: false })}`}
        className="provider-card"
        data-provider={provider.sysname}
      >
        <DeferredImage className="provider-card__art" src={provider.image_url} width={288} height={192} />
        <span className="provider-card__name">{provider.name}</span>
        <span className="provider-card__count">{tc('gamehall.providers.count', provider.games_count)}</span>
      </Link>
    </li>
  );
}
