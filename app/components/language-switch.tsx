import { Link, useLocation } from 'react-router';
import { LOCALE_INFO, localeCookie, localizePath } from '#common/locale';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';

/** Links to this page in each offered locale; choosing one stores it in the locale cookie (spec §4). */
export function LanguageSwitch() {
  const { locale, t } = useI18n();
  const root = useRootData();
  const location = useLocation();
  const locales = root?.site.locales ?? [locale];
  return (
    <nav className="language-switch" aria-label={t('header.language')}>
      {locales.map((code) => (
        <Link
          key={code}
          to={`${localizePath(location.pathname, code)}${location.search}`}
          hrefLang={code}
          lang={code}
          aria-current={code === locale ? 'true' : undefined}
          className="language-switch__item"
          onClick={() => {
            document.cookie = localeCookie(code, window.location.protocol === 'https:');
          }}
        >
          {code.toUpperCase()}
          <span className="visually-hidden"> {LOCALE_INFO[code].name}</span>
        </Link>
      ))}
    </nav>
  );
}
