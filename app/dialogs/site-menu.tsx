import { Link, NavLink, useLocation } from 'react-router';
import type { DialogComponentProps } from './dialog-context';
import { useI18n } from '~/i18n';
import { configValue, useRootData } from '~/site-data';
import { Icon } from '~/components/icon';
import { iconForPath } from '~/components/route-icon';
import { LanguageSwitch } from '~/components/language-switch';
import type { NavItem } from '~/components/nav-active';
import { signOut } from '~/account-actions';
import { isAuthenticated } from '#common/api-contract';
import { stripLocalePrefix } from '#common/locale';
import { activeNavPath } from '~/components/nav-active';

/**
 * The navigation as a curtain, for widths where the header has no room for it: the main
 * navigation and the footer links from configuration, the language switch and, for a signed-in
 * player, the profile and sign-out. Choosing a link closes the curtain.
 */
export function SiteMenu({ close }: DialogComponentProps) {
  const { t, localePath, locale } = useI18n();
  const root = useRootData();
  const navigation = configValue<NavItem[]>(root?.config, 'prazer-config.navigation', []);
  const footerLinks = configValue<NavItem[]>(root?.config, 'prazer-config.footerLinks', []);
  const logo = configValue(root?.config, 'prazer-config.logo', '/brand/logo.svg');
  const { pathname, search } = useLocation();
  const activePath = activeNavPath(navigation, stripLocalePrefix(pathname), search);
  // Links inside close the curtain once the click has started the navigation.
  const closeOnLink = (event: React.MouseEvent) => {
    if ((event.target as HTMLElement).closest('a')) close();
  };
  return (
    <div className="site-menu" onClick={closeOnLink}>
      <img className="site-menu__logo" src={logo} alt={root?.site.name ?? ''} height={32} />
      <nav className="site-menu__nav" aria-label={t('header.navigation')}>
        {navigation.map((item) => (
          <Link
            key={item.path}
            to={localePath(item.path)}
            className={`site-menu__link${item.path === activePath ? ' active' : ''}`}
            aria-current={item.path === activePath ? 'page' : undefined}
          >
            <span className="site-menu__icon">
              <Icon name={iconForPath(item.path)} size={20} />
            </span>
            {t(item.key)}
          </Link>
        ))}
      </nav>
      {isAuthenticated(root?.account) && (
        <div className="site-menu__account">
          <NavLink to={localePath('/profile/settings')} className="button button--ghost">
            <Icon name="user" size={18} />
            {t('header.profile')}
          </NavLink>
          <button type="button" className="button button--ghost" onClick={() => void signOut(locale, localePath('/'))}>
            {t('header.logout')}
          </button>
        </div>
      )}
      <div className="site-menu__language">
        <Icon name="globe" size={18} />
        <span>{t('header.language')}</span>
        <LanguageSwitch />
      </div>
      <nav className="site-menu__more" aria-label={t('footer.links')}>
        {footerLinks.map((item) => (
          <NavLink key={item.path} to={localePath(item.path)}>
            {t(item.key)}
          </NavLink>
        ))}
      </nav>
    </div>
  );
}
