/**
 * Locale rules of spec §2 and §9: English is the default with no path prefix, Italian lives
 * under /it. Pure functions, shared by the server middleware and the app.
 */
export const LOCALES = ['en', 'it'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const LOCALE_COOKIE = 'i18n_locale';
/** 365 days, path /, SameSite lax (spec §9). */
export const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

export interface LocaleInfo {
  code: Locale;
  name: string;
  language: string;
  dir: 'ltr' | 'rtl';
}

export const LOCALE_INFO: Record<Locale, LocaleInfo> = {
  en: { code: 'en', name: 'English', language: 'en-GB', dir: 'ltr' },
  it: { code: 'it', name: 'Italiano', language: 'it-IT', dir: 'ltr' },
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The locale named by the first path segment, if it is a prefixed (non-default) locale. */
export function localeFromPath(pathname: string): Locale | undefined {
  const first = pathname.split('/')[1];
  return isLocale(first) && first !== DEFAULT_LOCALE ? first : undefined;
}

/** The path without its locale prefix: /it/promotions → /promotions, /it → /. */
export function stripLocalePrefix(pathname: string): string {
  const locale = localeFromPath(pathname);
  if (!locale) return pathname || '/';
  const rest = pathname.slice(locale.length + 1);
  return rest === '' ? '/' : rest;
}

/** The path in the given locale: ('/promotions', 'it') → /it/promotions; default has no prefix. */
export function localizePath(pathname: string, locale: Locale): string {
  const bare = stripLocalePrefix(pathname);
  if (locale === DEFAULT_LOCALE) return bare;
  return bare === '/' ? `/${locale}` : `/${locale}${bare}`;
}

/** Best match of an Accept-Language header among our locales, by quality. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    const base = tag.split('-')[0];
    if (isLocale(base)) return base;
  }
  return undefined;
}

export interface LocaleSources {
  pathname: string;
  cookieLocale?: string | null;
  /** The signed-in account's locale; used only with the platform strategy (spec §2). */
  accountLocale?: string | null;
  acceptLanguage?: string | null;
  available?: readonly Locale[];
}

/**
 * The preferred locale in the order of spec §2: path prefix, stored cookie, account locale,
 * browser languages, then the default. Locales the site does not offer are skipped.
 */
export function detectLocale(sources: LocaleSources): Locale {
  const available = sources.available ?? LOCALES;
  const offered = (value: unknown): value is Locale => isLocale(value) && available.includes(value);
  const fromPath = localeFromPath(sources.pathname);
  if (fromPath && offered(fromPath)) return fromPath;
  if (offered(sources.cookieLocale)) return sources.cookieLocale;
  if (offered(sources.accountLocale)) return sources.accountLocale;
  const fromBrowser = localeFromAcceptLanguage(sources.acceptLanguage);
  if (offered(fromBrowser)) return fromBrowser;
  return available.includes(DEFAULT_LOCALE) ? DEFAULT_LOCALE : (available[0] ?? DEFAULT_LOCALE);
}

/** The Set-Cookie value that remembers a locale for 365 days (spec §9). */
export function localeCookie(locale: Locale, secure = false): string {
  const parts = [`${LOCALE_COOKIE}=${locale}`, 'Path=/', `Max-Age=${LOCALE_COOKIE_MAX_AGE_S}`, 'SameSite=Lax'];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/** Route names carry the locale: three underscores plus the code (spec §2). */
export function localizedRouteName(name: string, locale: Locale): string {
  return `${name}___${locale}`;
}

/** The route name without its locale suffix, and the locale it names. */
export function parseRouteName(id: string): { name: string; locale: Locale | undefined } {
  const match = /^(.*)___([a-z]{2})$/.exec(id);
  if (!match) return { name: id, locale: undefined };
  const [, name = id, code] = match;
  return { name, locale: isLocale(code) ? code : undefined };
}
