import { Link } from 'react-router';
import { useI18n } from '~/i18n';
import { configValue, useRootData } from '~/site-data';
import type { NavItem } from './nav-active';
import { logoSize } from '#common/brand-logo';

/** Site footer: content links and the responsible-gaming notice (from configuration and content). */
export function Footer() {
  const { t, localePath } = useI18n();
  const root = useRootData();
  const links = configValue<NavItem[]>(root?.config, 'prazer-config.footerLinks', []);
  const footerLogo = configValue(root?.config, 'prazer-config.footerLogo', '/brand/logo.svg');
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <div className="site-footer__brand">
          <img
            className="site-footer__logo"
            src={footerLogo}
            alt={root?.site.name ?? ''}
            {...logoSize(footerLogo, root?.site.name ?? '', 32)}
            // Below the fold on most pages: a drawn logo is a document of its own to parse, lay out
            // and paint (its wordmark is SVG text), work a phone need not do while the page starts.
            loading="lazy"
            decoding="async"
          />
          <p className="site-footer__notice">
            <span className="age-badge">18+</span> {t('footer.responsible')}
          </p>
        </div>
        <nav className="site-footer__links" aria-label={t('footer.links')}>
          {links.map((item) => (
            <Link key={item.path} to={localePath(item.path)}>
              {t(item.key)}
            </Link>
          ))}
        </nav>
      </div>
      <div className="site-footer__bottom">
        <p className="site-footer__copy">
          {t('footer.copyright', { site: root?.site.name ?? '', year: new Date().getFullYear() })}
        </p>
      </div>
    </footer>
  );
}
