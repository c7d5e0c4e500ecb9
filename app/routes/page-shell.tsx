/**
 * The page shell of screens whose content later capabilities fill: header, footer and the page
 * title and introduction from content (keys page.{routeName}.title / .description), under a
 * header band with the section's icon, and links to the other sections of the site.
 */
import { Link, useLocation } from 'react-router';
import type { Route } from './+types/page-shell';
import { parseRouteName, stripLocalePrefix } from '#common/locale';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { useCurrentRoute } from '~/route-info';
import { configValue, useRootData } from '~/site-data';
import { Icon } from '~/components/icon';
import { iconForPath, iconForRoute } from '~/components/route-icon';
import type { NavItem } from '~/components/nav-active';

export const meta: Route.MetaFunction = (args) => {
  const leaf = args.matches[args.matches.length - 1];
  return pageMeta(args, `page.${parseRouteName(leaf?.id ?? '').name}.title`);
};

export default function PageShell() {
  const { t, localePath } = useI18n();
  const { name, params } = useCurrentRoute();
  const { pathname } = useLocation();
  const root = useRootData();
  const detail = Object.values(params).filter(Boolean).join(' / ');
  const here = stripLocalePrefix(pathname);
  const explore = configValue<NavItem[]>(root?.config, 'prazer-config.navigation', []).filter(
    (item) => item.path.split('?')[0] !== here,
  );
  return (
    <div className="page page--shell" data-route={name}>
      <header className="page__header page-band">
        <span className="page-band__icon">
          <Icon name={iconForRoute(name)} size={30} />
        </span>
        <div className="page-band__text">
          <h1 className="page__title">{t(`page.${name}.title`)}</h1>
          {detail && <p className="page__detail">{detail}</p>}
          <p className="page__intro">{t(`page.${name}.description`)}</p>
        </div>
        <span className="page-band__art" aria-hidden="true">
          <Icon name={iconForRoute(name)} size={150} />
        </span>
      </header>
      {explore.length > 0 && (
        <section className="explore">
          <h2 className="section-title">{t('page.explore')}</h2>
          <ul className="explore__grid">
            {explore.map((item) => (
              <li key={item.path}>
                <Link to={localePath(item.path)} className="explore__card">
                  <span className="explore__icon">
                    <Icon name={iconForPath(item.path)} size={22} />
                  </span>
                  <span className="explore__label">{t(item.key)}</span>
                  <Icon name="arrow-right" size={18} />
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
