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
  /** A text about a count, in the plural form the count takes in the locale. */
  tc: TranslateCount;
  /** A locale-less path in the current locale: /promotions → /it/promotions. */
  localePath: (path: string) => string;
}

export function fillPlaceholders(text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/\$\$(\w+)\$\$/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function createTranslate(table: Record<string, string>): Translate {
  return (key, params) => fillPlaceholders(table[key] ?? key, params);
}

/**
 * Texts about a count (issue 15: "Every 1 minutes"): each key has one form per plural category
 * of the locale, `{key}.one`, `{key}.other` (and `.many` … where a language has them), picked
 * by Intl.PluralRules and filled with $$count$$.
 */
export const COUNTED_KEYS = [
  'rg.realityCheck.every',
  'idle.text',
  'gamehall.providers.count',
  'gameHistory.export.download',
  'gamePlay.recall.freeSpins',
  'gamePlay.slot.freeSpins',
  'gamePlay.slot.cascades',
  'gamePlay.autoplay.stopped.done',
  'gamePlay.autoplay.stopped.stopped',
  'gamePlay.autoplay.stopped.lossLimit',
  'gamePlay.autoplay.stopped.winLimit',
  'gamePlay.autoplay.stopped.error',
  'rg.limit.rule',
  'sportsbook.slip.lineCount',
] as const;

export type TranslateCount = (key: string, count: number, params?: Record<string, string | number>) => string;

/** The form of a counted text for `count`; the `other` form when a language's table lacks the category. */
/** One PluralRules per locale: making one is costly, and every server render needs one (issue 12). */
const pluralRules = new Map<string, Intl.PluralRules>();
function pluralRulesOf(locale: string): Intl.PluralRules {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules;
}

export function createTranslateCount(table: Record<string, string>, locale: string): TranslateCount {
  const rules = pluralRulesOf(locale);
  return (key, count, params) => {
    const form = `${key}.${rules.select(count)}`;
    const text = table[form] ?? table[`${key}.other`] ?? form;
    return fillPlaceholders(text, { ...params, count });
  };
}

const I18nContext = createContext<I18nValue>({
  locale: DEFAULT_LOCALE,
  t: (key) => key,
  tc: (key) => key,
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
    () => ({
      locale,
      t: createTranslate(table),
      tc: createTranslateCount(table, locale),
      localePath: (path) => localizePath(path, locale),
    }),
    [locale, table],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  return useContext(I18nContext);
}
