/** /_icons: the internal icon sprite page, listing every icon of the site's sprite. */
import type { Route } from './+types/icons';
import { pageMeta } from '~/seo';
import { ICONS, Icon } from '~/components/icon';
import { useI18n } from '~/i18n';

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, 'page._icons.title'),
  { name: 'robots', content: 'noindex, follow' },
];

export default function IconsPage() {
  const { t } = useI18n();
  return (
    <div className="page">
      <h1 className="page__title">{t('page._icons.title')}</h1>
      <ul className="icon-list">
        {Object.keys(ICONS).map((name) => (
          <li key={name}>
            <Icon name={name} />
            <code>{name}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}
