import { Link, useLocation } from 'react-router';
import { useI18n } from '~/i18n';
import { configValue, useRootData } from '~/site-data';
import { useDialogs } from '~/dialogs/dialog-context';
import { LanguageSwitch } from './language-switch';
import { isAuthenticated } from '#common/api-contract';
import { formatMoney, totalBalance } from '#common/money';
import { useBalances } from '~/balance';
import { signOut } from '~/account-actions';
import { Icon } from './icon';
import { activeNavPath, type NavItem } from './nav-active';
import { stripLocalePrefix } from '#common/locale';
import { LoyaltyBadge } from './loyalty-badge';
import { SiteNav } from './site-nav';
import { logoSize } from '#common/brand-logo';

/**
 * Site header: menu button (opens the navigation as a curtain where the header has no room for
 * it), logo, main navigation (from configuration), language switch, sign-in and sign-up.
 */
export function Header({ isCompact = false }: { isCompact?: boolean }) {
  const { t, localePath, locale } = useI18n();
  const root = useRootData();
  const { open } = useDialogs();
  const { balances } = useBalances();
  const config = root?.config;
  const navigation = configValue<NavItem[]>(config, 'prazer-config.navigation', []);
  const logo = configValue(config, 'prazer-config.logo', '/brand/logo.svg');
  const logoMobile = configValue(config, 'prazer-config.logoMobile', '/brand/logo-mobile.svg');
  const siteName = root?.site.name ?? '';
  const account = root?.account;
  const { pathname, search } = useLocation();
  const activePath = activeNavPath(navigation, stripLocalePrefix(pathname), search);
  return (
    <header className={`site-header${isCompact ? ' site-header--compact' : ''}`}>
      <div className="site-header__inner">
        <button
          type="button"
          className="icon-button site-header__menu"
          aria-label={t('header.menu')}
          aria-haspopup="dialog"
          onClick={() => open('menu', { type: 'curtain', title: t('header.menu') })}
        >
          <Icon name="menu" />
        </button>
        <Link to={localePath('/')} className="site-header__logo" aria-label={root?.site.name}>
          <picture>
            <source media="(max-width: 767px)" srcSet={logoMobile} {...logoSize(logoMobile, siteName, 32)} />
            <img src={logo} alt={siteName} {...logoSize(logo, siteName, 40)} />
          </picture>
        </Link>
        <SiteNav items={navigation} activePath={activePath} />
        <div className="site-header__actions">
          <LanguageSwitch />
          {isAuthenticated(account) && account ? (
            <>
              <LoyaltyBadge loyalty={root?.loyalty ?? null} />
              {/* Labelled, so the total is not mistaken for the game's real money (issue 15). */}
              <Link to={localePath('/cashier/deposit')} className="balance" data-balance-link>
                <span className="balance__label">{t('header.balance.total')}</span>
                <span className="balance__amount" data-balance>
                  {formatMoney(totalBalance(balances ?? account.balances))}
                </span>
              </Link>
              <Link
                to={localePath('/profile/settings')}
                className="button button--ghost site-header__extra"
                data-account-login={account.login}
              >
                {t('header.profile')}
              </Link>
              <button
                type="button"
                className="button button--ghost site-header__extra"
                onClick={() => void signOut(locale, localePath('/'))}
              >
                {t('header.logout')}
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                className="button button--ghost"
                onClick={() => open('auth', { componentProps: { mode: 'sign_in' } })}
              >
                {t('header.signIn')}
              </button>
              <button
                type="button"
                className="button button--primary"
                onClick={() => open('auth', { componentProps: { mode: 'sign_up' } })}
              >
                {t('header.signUp')}
              </button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
