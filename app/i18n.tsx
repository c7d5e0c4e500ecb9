/**
 * Translations come from content (per site and locale), never from code. `t` looks a key up and
 * fills $$name$$ placeholders; a missing key shows itself so it is easy to spot and add.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { DEFAULT_LOCALE, localizePath, type Locale } from '#common/locale';

export type Translate = (key: string, params?: Record<string, string | number>) => string;

interface I18nValue {
  locale: Locale;
  t: Translate;
  /** A locale-less path in the current locale: /promotions → /it/promotions. */
  localePath: (path: string) => string;
}

export function fillPlaceholders(text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/\$\$(\w+)\$\$/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function createTranslate(table: Record<string, string>): Translate {
  return (key, params) => fillPlaceholders(table[key] ?? key, params);
}

const I18nContext = createContext<I18nValue>({
  locale: DEFAULT_LOCALE,
  t: (key) => key,
  localePath: (path) => path,
});

export function I18nProvider({
  locale,
  table,
  children,
}: {
  locale: Locale;
  table: Record<string, string>;
  children: ReactNode;
}) {
  // A stable value: effects that depend on t or localePath (the game page's #real popup) must not
  // re-run, and open another dialog, on every render of the app.
  const value = useMemo<I18nValue>(
    () => ({ locale, t: createTranslate(table), localePath: (path) => localizePath(path, locale) }),
    [locale, table],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  return useContext(I18nContext);
}
