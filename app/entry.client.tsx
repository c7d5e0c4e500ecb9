/**
 * The browser entry: React Router's default, except that the page's translation table (issue 12:
 * no longer inside the page) is loaded before the page hydrates, so the first client render shows
 * the same texts as the server's. The root layout preloads it while the scripts load.
 */
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { DEFAULT_LOCALE, isLocale } from '#common/locale';
import { loadTranslations } from './translations';

function hydrate(): void {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

const preload = document.querySelector<HTMLLinkElement>('link[data-translations]');
const version = preload?.dataset.translations;
const lang = document.documentElement.lang;
if (version) {
  loadTranslations(isLocale(lang) ? lang : DEFAULT_LOCALE, version).then(hydrate, (error: unknown) => {
    // Hydrating without texts would replace every text of the page with its key: the server's page
    // stays as it is (its links still work) rather than turn unreadable.
    console.error('the translations could not be loaded; the page is not interactive', error);
  });
} else {
  // The bare error page renders without site data, and so without a table.
  hydrate();
}
