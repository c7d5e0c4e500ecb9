/**
 * Spec §2 "Locale and address rules": trailing slash, safe redirects, unmatched routes, the
 * configured redirect table, the locale at the root, canonical and hreflang links, and the
 * language switch with its cookie (spec §9: 365 days, path /, SameSite lax).
 */
import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from './browser';
import {
  GAME_SYSNAME,
  LOCALES,
  REDIRECT_RULES,
  htmlLinks,
  htmlTitle,
  inLocale,
  locationOf,
  rawGet,
  tr,
  type Locale,
  type RedirectRule,
} from './site-facts';

const baseUrl = inject('baseUrl');
const LOCALE_COOKIE = 'i18n_locale';
const DAY_S = 24 * 60 * 60;

function isRedirect(status: number) {
  return status >= 300 && status < 400;
}

describe('trailing slash and unsafe addresses', () => {
  it.each([
    ['/promotions/', '/promotions'],
    ['/it/promotions/?tab=1', '/it/promotions?tab=1'],
    ['/gamehall//', '/gamehall'],
  ])('a trailing slash is removed with a permanent redirect: %s → %s', async (path, expected) => {
    const response = await rawGet(baseUrl, path);
    expect(response.status).toBe(301);
    const target = locationOf(baseUrl, response.headers.location as string);
    expect(`${target?.pathname}${target?.search}`).toBe(expected);
  });

  it.each([
    '//evil.com',
    '//evil.com/',
    '///evil.com',
    '//evil.com/%2f..',
    '/%2F%2Fevil.com',
    '/\\evil.com',
    '/%5C%5Cevil.com',
    '/.//evil.com',
  ])('%s never redirects to another site', async (path) => {
    const response = await rawGet(baseUrl, path);
    expect(response.status).toBeLessThan(500);
    if (isRedirect(response.status)) {
      const location = String(response.headers.location);
      expect(location.startsWith('//')).toBe(false);
      expect(locationOf(baseUrl, location)?.origin).toBe(baseUrl);
    }
  });

  it.each(['/%2e%2e/', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2f', '/%2e%2e', '/it/%2e%2e/'])(
    'dot-segment tricks (%s) are answered without a server error',
    async (path) => {
      const response = await rawGet(baseUrl, path);
      expect(response.status).toBeLessThan(500);
      expect(response.body).not.toContain('root:x:0:0');
    },
  );
});

describe('unmatched routes', () => {
  it.each(LOCALES)(
    'an unknown multi-segment route (%s) shows the 404 page with the notFound header from translations',
    async (locale) => {
      const response = await fetch(`${baseUrl}${inLocale('/no/such/route', locale)}`, { redirect: 'manual' });
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(html).toContain('data-system-page="notFound"');
      expect(html).toContain(`<h1 class="system-page__header">${tr(locale, 'system.notFound.header')}</h1>`);
    },
  );

  it.each(LOCALES)('an unknown single segment (%s) is a content page that does not exist: 404', async (locale) => {
    const response = await fetch(`${baseUrl}${inLocale('/no-such-content-page', locale)}`, { redirect: 'manual' });
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain(tr(locale, 'system.notFound.header'));
    expect(htmlTitle(html)).toContain(tr(locale, 'system.notFound.header'));
  });

  it('on an unmatched route the locale prefix is rewritten to the current locale (cookie en: /it/foo/bar → /foo/bar)', async () => {
    const response = await fetch(`${baseUrl}/it/foo/bar?x=1`, { redirect: 'manual', headers: { cookie: `${LOCALE_COOKIE}=en` } });
    expect(isRedirect(response.status)).toBe(true);
    const target = locationOf(baseUrl, response.headers.get('location'));
    expect(`${target?.pathname}${target?.search}`).toBe('/foo/bar?x=1');
  });

  it('on an unmatched route with cookie it, an unprefixed address gets the /it prefix', async () => {
    const response = await fetch(`${baseUrl}/foo/bar`, { redirect: 'manual', headers: { cookie: `${LOCALE_COOKIE}=it` } });
    expect(isRedirect(response.status)).toBe(true);
    expect(locationOf(baseUrl, response.headers.get('location'))?.pathname).toBe('/it/foo/bar');
  });

  it('on a matched route the locale prefix of the address wins over the cookie', async () => {
    const response = await fetch(`${baseUrl}/it/promotions`, { redirect: 'manual', headers: { cookie: `${LOCALE_COOKIE}=en` } });
    expect(response.status).toBe(200);
  });
});

describe('the configured redirect table (settings-seo redirects)', () => {
  /** Where a rule sends `from` (the sample value x for a wildcard), by the spec's rule. */
  function expectedTarget(rule: RedirectRule, locale: Locale): { from: string; to: string; isExternal: boolean } {
    const from = rule.from_url.replace('*', 'x');
    const to = rule.to_url.replace('*', 'x');
    const isExternal = /^[a-z]+:\/\//i.test(to);
    return { from: inLocale(from, locale), to: isExternal ? to : inLocale(to, locale), isExternal };
  }

  it('has internal, wildcard and external rules to check', () => {
    expect(REDIRECT_RULES.some((rule) => rule.from_url.includes('*'))).toBe(true);
    expect(REDIRECT_RULES.some((rule) => /^https?:/.test(rule.to_url))).toBe(true);
    expect(REDIRECT_RULES.some((rule) => rule.to_url.startsWith('/') && !rule.from_url.includes('*'))).toBe(true);
  });

  const cases = REDIRECT_RULES.flatMap((rule) =>
    LOCALES.map((locale) => {
      const { from, to, isExternal } = expectedTarget(rule, locale);
      return [from, to, rule.status ?? 301, isExternal] as const;
    }),
  );

  it.each(cases)(
    '%s redirects to %s with status %i (internal targets keep the locale prefix)',
    async (from, to, status, isExternal) => {
      // Never follows the redirect: an external target is only read from the Location header.
      const response = await fetch(`${baseUrl}${from}`, { redirect: 'manual' });
      expect(response.status).toBe(status);
      const location = response.headers.get('location') ?? '';
      if (isExternal) {
        expect(location).toBe(to);
      } else {
        const target = locationOf(baseUrl, location);
        expect(target?.origin).toBe(baseUrl);
        expect(target?.pathname).toBe(to);
      }
    },
  );

  it('an internal redirect keeps the query string', async () => {
    const rule = REDIRECT_RULES.find((r) => r.to_url.startsWith('/') && !r.from_url.includes('*'));
    const response = await fetch(`${baseUrl}${rule?.from_url}?utm=e2e`, { redirect: 'manual' });
    expect(locationOf(baseUrl, response.headers.get('location'))?.search).toBe('?utm=e2e');
  });
});

describe('the locale at the root', () => {
  it('Accept-Language it sends a visitor without a cookie from / to /it', async () => {
    const response = await fetch(`${baseUrl}/`, {
      redirect: 'manual',
      headers: { 'accept-language': 'it-IT,it;q=0.9,en;q=0.5' },
    });
    expect(isRedirect(response.status)).toBe(true);
    expect(locationOf(baseUrl, response.headers.get('location'))?.pathname).toBe('/it');
  });

  it('Accept-Language en keeps the visitor on / (the default locale has no prefix)', async () => {
    const response = await fetch(`${baseUrl}/`, { redirect: 'manual', headers: { 'accept-language': 'en-GB,en;q=0.9' } });
    expect(response.status).toBe(200);
  });

  it('the stored locale cookie it sends / to /it, keeping the query', async () => {
    const response = await fetch(`${baseUrl}/?promo_code=X`, { redirect: 'manual', headers: { cookie: `${LOCALE_COOKIE}=it` } });
    expect(isRedirect(response.status)).toBe(true);
    const target = locationOf(baseUrl, response.headers.get('location'));
    expect(`${target?.pathname}${target?.search}`).toBe('/it?promo_code=X');
  });

  it('the stored cookie comes before the browser languages (cookie en, Accept-Language it stays on /)', async () => {
    const response = await fetch(`${baseUrl}/`, {
      redirect: 'manual',
      headers: { cookie: `${LOCALE_COOKIE}=en`, 'accept-language': 'it' },
    });
    expect(response.status).toBe(200);
  });
});

describe('canonical and alternate links', () => {
  async function links(path: string) {
    const response = await fetch(`${baseUrl}${path}`);
    expect(response.status).toBe(200);
    return htmlLinks(await response.text());
  }

  it.each(LOCALES)('the canonical link of a game page (%s) gets /platform after the locale prefix', async (locale) => {
    const canonical = (await links(inLocale(`/game/${GAME_SYSNAME}`, locale))).filter((link) => link.rel === 'canonical');
    expect(canonical).toHaveLength(1);
    const prefix = locale === 'en' ? '' : `/${locale}`;
    expect(canonical[0]?.href).toBe(`${baseUrl}${prefix}/platform/game/${GAME_SYSNAME}`);
  });

  it.each(LOCALES)('the canonical link of a page that is not a game page (%s) is the page itself', async (locale) => {
    const canonical = (await links(inLocale('/promotions', locale))).find((link) => link.rel === 'canonical');
    expect(canonical?.href).toBe(`${baseUrl}${inLocale('/promotions', locale)}`);
  });

  it.each(LOCALES)('a page (%s) lists an hreflang alternate for every locale, pointing at the same page', async (locale) => {
    const alternates = (await links(inLocale('/tournaments', locale))).filter(
      (link) => link.rel === 'alternate' && link.hreflang,
    );
    expect(Object.fromEntries(alternates.map((link) => [link.hreflang, link.href]))).toEqual(
      Object.fromEntries(LOCALES.map((other) => [other, `${baseUrl}${inLocale('/tournaments', other)}`])),
    );
  });
});

describe('the language switch in the header', () => {
  const browser = useBrowser();

  it.each(LOCALES.flatMap((from) => LOCALES.filter((to) => to !== from).map((to) => [from, to] as const)))(
    'from %s it goes to the same page in %s and stores the locale cookie for 365 days, path /, SameSite Lax',
    async (from, to) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${baseUrl}${inLocale('/promotions', from)}?tab=2`);
      await page.locator(`.site-header .language-switch a[hreflang="${to}"]`).click();
      await page.waitForURL(`${baseUrl}${inLocale('/promotions', to)}?tab=2`);
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(to);
      await expect.poll(() => page.locator('.page__title').textContent()).toBe(tr(to, 'page.promotions.title'));
      const cookie = (await context.cookies(baseUrl)).find((c) => c.name === LOCALE_COOKIE);
      expect(cookie?.value).toBe(to);
      expect(cookie?.path).toBe('/');
      expect(cookie?.sameSite).toBe('Lax');
      const lifetimeDays = ((cookie?.expires ?? 0) - Date.now() / 1000) / DAY_S;
      expect(lifetimeDays).toBeGreaterThan(364);
      expect(lifetimeDays).toBeLessThanOrEqual(365.01);
      // The cookie decides the root from now on.
      await page.goto(`${baseUrl}/`);
      expect(new URL(page.url()).pathname).toBe(inLocale('/', to));
      await context.close();
    },
  );

  it.each(LOCALES.flatMap((from) => LOCALES.filter((to) => to !== from).map((to) => [from, to] as const)))(
    'from %s to %s pressed before the page has hydrated (its scripts held back), the choice is still stored',
    async (from, to) => {
      const context = await browser.newContext();
      // The page's modules never arrive: the switch is a plain link, as on a slow phone before hydration.
      await context.route(/\/assets\/.*\.js(\?.*)?$/, (route) => route.abort());
      const page = await context.newPage();
      await page.goto(`${baseUrl}${inLocale('/promotions', from)}`);
      await page.locator(`.site-header .language-switch a[hreflang="${to}"]`).click();
      await page.waitForURL(`${baseUrl}${inLocale('/promotions', to)}`);
      const cookie = (await context.cookies(baseUrl)).find((c) => c.name === LOCALE_COOKIE);
      expect(cookie?.value).toBe(to);
      expect(cookie?.path).toBe('/');
      await context.close();
    },
  );
});
