import { Link, useLocation } from 'react-router';
import { LOCALE_INFO, localeCookie, localizePath, type Locale } from '#common/locale';
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

/** Stands for the chosen locale in the cookie the script below writes. */
const CHOSEN = 'CHOSEN_LOCALE' as Locale;

/**
 * Before the page has hydrated, a press on the language switch is a plain link and its onClick
 * never runs, so the choice was lost on a slow phone (spec §4: choosing a language stores it in
 * the locale cookie). This script runs as the page is parsed and stores the choice on any press of
 * a switch link; after hydration the link's onClick stores the same cookie.
 */
export function LanguageChoiceScript({ nonce }: { nonce: string | undefined }) {
  const script = `document.addEventListener('click',function(e){var a=e.target instanceof Element&&e.target.closest('.language-switch a[hreflang]');if(a)document.cookie=(location.protocol==='https:'?${JSON.stringify(localeCookie(CHOSEN, true))}:${JSON.stringify(localeCookie(CHOSEN))}).replace(${JSON.stringify(CHOSEN)},a.getAttribute('hreflang'))},true)`;
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} />;
}
