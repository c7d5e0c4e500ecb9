import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_LOCALE,
  LOCALES,
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE_S,
  detectLocale,
  localeCookie,
  localeFromAcceptLanguage,
  localeFromPath,
  localizePath,
  localizedRouteName,
  parseRouteName,
  stripLocalePrefix,
} from './locale';

const segment = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
const barePath = fc.array(segment, { minLength: 0, maxLength: 4 }).map((parts) => `/${parts.join('/')}`);

describe('locale prefix (spec §1: English without prefix, Italian under /it)', () => {
  it('reads the locale from the first segment, only for prefixed locales', () => {
    expect(localeFromPath('/it/promotions')).toBe('it');
    expect(localeFromPath('/it')).toBe('it');
    expect(localeFromPath('/en/promotions')).toBeUndefined();
    expect(localeFromPath('/italy')).toBeUndefined();
  });

  it('localizing then stripping gives the bare path back, for every path and locale', () => {
    fc.assert(
      fc.property(barePath, fc.constantFrom(...LOCALES), (path, locale) => {
        const localized = localizePath(path, locale);
        expect(stripLocalePrefix(localized)).toBe(path === '/' ? '/' : path);
        expect(localeFromPath(localized) ?? DEFAULT_LOCALE).toBe(locale);
      }),
    );
  });

  it('the default locale has no prefix and the Italian root is /it', () => {
    expect(localizePath('/it/promotions', 'en')).toBe('/promotions');
    expect(localizePath('/', 'it')).toBe('/it');
    expect(localizePath('/promotions', 'it')).toBe('/it/promotions');
  });
});

describe('locale detection order (spec §2: prefix, cookie, account, browser, default)', () => {
  it('the path prefix wins over everything', () => {
    expect(detectLocale({ pathname: '/it/x', cookieLocale: 'en', accountLocale: 'en', acceptLanguage: 'en' })).toBe('it');
  });
  it('then the stored cookie', () => {
    expect(detectLocale({ pathname: '/', cookieLocale: 'it', accountLocale: 'en', acceptLanguage: 'en' })).toBe('it');
  });
  it('then the account locale', () => {
    expect(detectLocale({ pathname: '/', accountLocale: 'it', acceptLanguage: 'en' })).toBe('it');
  });
  it('then the browser languages by quality', () => {
    expect(detectLocale({ pathname: '/', acceptLanguage: 'de-DE,it;q=0.8,en;q=0.5' })).toBe('it');
    expect(detectLocale({ pathname: '/', acceptLanguage: 'it;q=0.3,en;q=0.9' })).toBe('en');
  });
  it('then the default, and never a locale the site does not offer', () => {
    expect(detectLocale({ pathname: '/', acceptLanguage: 'fr-FR' })).toBe(DEFAULT_LOCALE);
    expect(detectLocale({ pathname: '/', cookieLocale: 'it', available: ['en'] })).toBe('en');
    expect(detectLocale({ pathname: '/', cookieLocale: 'xx' })).toBe(DEFAULT_LOCALE);
  });
  it('ignores malformed Accept-Language entries', () => {
    expect(localeFromAcceptLanguage('it;q=abc, ;q=1, en')).toBe('en');
    expect(localeFromAcceptLanguage('')).toBeUndefined();
  });
});

describe('locale cookie (spec §9: 365 days, path /, SameSite lax)', () => {
  it('carries the locale, a 365-day lifetime, path / and SameSite=Lax', () => {
    const cookie = localeCookie('it');
    expect(cookie).toContain(`${LOCALE_COOKIE}=it`);
    expect(cookie).toContain(`Max-Age=${365 * 24 * 60 * 60}`);
    expect(LOCALE_COOKIE_MAX_AGE_S).toBe(31_536_000);
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('SameSite=Lax');
    expect(localeCookie('en', true)).toContain('Secure');
  });
});

describe('route names (spec §2: three underscores plus the locale code)', () => {
  it('round-trips a name and its locale', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z_-]{1,20}$/), fc.constantFrom(...LOCALES), (name, locale) => {
        expect(parseRouteName(localizedRouteName(name, locale))).toEqual({ name, locale });
      }),
    );
    expect(localizedRouteName('cashier-index-deposit', 'it')).toBe('cashier-index-deposit___it');
  });
});
