/**
 * Spec §2 "Screens and routes": every route of the route table exists in English without a
 * prefix and in Italian under /it; spec §2/§6 anonymous access rule for the protected ones.
 * Status and Location come from plain HTTP (fast); a representative subset is opened in Chromium.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { isProtectedPath } from '#common/address';
import { useBrowser } from './browser';
import {
  CONTENT_SLUG,
  gameName,
  GAME_SYSNAME,
  LOCALES,
  NAVIGATION,
  ROUTE_TABLE,
  SITE,
  contentPage,
  expectedTitle,
  htmlLang,
  htmlTitle,
  inLocale,
  locationOf,
  samplePath,
  SAMPLE_TRANSACTION,
  tr,
} from './site-facts';

const baseUrl = inject('baseUrl');

const cases = LOCALES.flatMap((locale) =>
  ROUTE_TABLE.map((entry) => ({ locale, entry, path: inLocale(samplePath(entry), locale) })),
);

describe('every route of the route table in English (no prefix) and Italian (/it)', () => {
  it('covers every route twice, once per locale', () => {
    expect(cases).toHaveLength(ROUTE_TABLE.length * LOCALES.length);
    expect(new Set(cases.map((c) => c.path)).size).toBe(cases.length);
  });

  const protectedCases = cases.filter((c) => isProtectedPath(c.path));
  const openCases = cases.filter((c) => !isProtectedPath(c.path));

  it('has protected routes (bets, cashier, profile, responsible-game) and open ones in both locales', () => {
    for (const locale of LOCALES) {
      expect(protectedCases.filter((c) => c.locale === locale).length).toBeGreaterThan(10);
      expect(openCases.filter((c) => c.locale === locale).length).toBeGreaterThan(10);
    }
  });

  it.each(protectedCases.map((c) => [c.path, c] as const))(
    'anonymous access rule: %s sends the visitor to the locale home with redirectUrl holding the full path',
    async (path, { locale }) => {
      const response = await fetch(`${baseUrl}${path}?from=e2e`, { redirect: 'manual' });
      expect([301, 302, 303, 307, 308]).toContain(response.status);
      const target = locationOf(baseUrl, response.headers.get('location'));
      expect(target?.origin).toBe(baseUrl);
      expect(target?.pathname).toBe(inLocale('/', locale));
      expect(target?.searchParams.get('redirectUrl')).toBe(`${path}?from=e2e`);
    },
  );

  it.each(openCases.map((c) => [c.path, c] as const))(
    '%s answers 200 with <html lang> of its locale and its translated title',
    async (path, { locale, entry }) => {
      const response = await fetch(`${baseUrl}${path}`, { redirect: 'manual' });
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(htmlLang(html)).toBe(locale);
      const title = htmlTitle(html) ?? '';
      const expected = expectedTitle(entry, locale);
      if (expected.exact) expect(title).toBe(expected.exact);
      for (const part of expected.contains) expect(title).toContain(part);
    },
  );
});

/** Spec §2 fixed redirects and placeholder routes, as a signed-in player meets them. */
const SIGNED_IN_REDIRECTS: Record<string, string> = {
  cashier: '/cashier/deposit',
  'cashier-index-billing': '/cashier/deposit',
  profile: '/profile/settings',
  'responsible-game': '/profile/responsible-game',
};

describe('protected routes for a signed-in player', () => {
  let cookie = '';
  let depositId = '';
  beforeAll(async () => {
    const response = await fetch(`${baseUrl}/api/auth.register?v=2.34&locale=en`, {
      method: 'POST',
      headers: { origin: baseUrl },
      body: new URLSearchParams({ login: `e2e-routes-${Date.now()}@example.com`, password: 'secret12', terms: '1' }),
    });
    const sid = response.headers.getSetCookie().find((value) => value.startsWith('sid='));
    if (!response.ok || !sid) throw new Error(`registration failed: ${response.status} ${await response.text()}`);
    cookie = sid.split(';')[0]!;
    // The payment result screens of a transaction show the player's own deposit (a card deposit left pending).
    const deposit = await fetch(`${baseUrl}/api/cashier.makedeposit?v=2.34&locale=en`, {
      method: 'POST',
      headers: { origin: baseUrl, cookie },
      body: new URLSearchParams({ method: 'card', amount: '10' }),
    });
    depositId = ((await deposit.json()) as { data: { id: string } }).data.id;
  });

  const protectedCases = cases.filter((c) => isProtectedPath(c.path));

  it.each(protectedCases.map((c) => [c.path, c] as const))(
    '%s opens for a signed-in player (page, or the redirect of the spec)',
    async (path, { locale, entry }) => {
      const address = path.replace(SAMPLE_TRANSACTION, depositId);
      const response = await fetch(`${baseUrl}${address}`, { redirect: 'manual', headers: { cookie } });
      const redirectTo = SIGNED_IN_REDIRECTS[entry.name];
      if (redirectTo) {
        expect([301, 302]).toContain(response.status);
        expect(locationOf(baseUrl, response.headers.get('location'))?.pathname).toBe(inLocale(redirectTo, locale));
        return;
      }
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(htmlLang(html)).toBe(locale);
      if (entry.file === 'routes/page-shell.tsx') expect(htmlTitle(html)).toContain(tr(locale, `page.${entry.name}.title`));
    },
  );
});

describe('representative pages in a real browser, in both languages', () => {
  const browser = useBrowser();
  let context: BrowserContext;
  beforeAll(async () => {
    context = await browser.newContext();
  });

  async function open(path: string) {
    const page = await context.newPage();
    const response = await page.goto(`${baseUrl}${path}`);
    return { page, response };
  }

  it.each(LOCALES)('home (%s) shows the site header, the translated home sections and the footer', async (locale) => {
    const { page, response } = await open(inLocale('/', locale));
    expect(response?.status()).toBe(200);
    expect(await page.locator('html').getAttribute('lang')).toBe(locale);
    await expect.poll(() => page.locator('.site-header').count()).toBe(1);
    expect(await page.locator('.site-footer').count()).toBe(1);
    expect(await page.title()).toContain(SITE.name);
    expect(await page.locator('h1').first().textContent()).toBe(tr(locale, 'page.index.title'));
    expect(await page.locator('.section-title').first().textContent()).toBe(tr(locale, 'home.section.popular'));
    await page.close();
  });

  it.each(LOCALES.flatMap((locale) => ['promotions', 'gamehall'].map((name) => [locale, name] as const)))(
    'page shell (%s) /%s shows the translated page title and description from content',
    async (locale, name) => {
      const { page, response } = await open(inLocale(`/${name}`, locale));
      expect(response?.status()).toBe(200);
      expect(await page.locator('.page__title').textContent()).toBe(tr(locale, `page.${name}.title`));
      expect(await page.locator('.page__intro').textContent()).toBe(tr(locale, `page.${name}.description`));
      expect(await page.locator('.site-header').count()).toBe(1);
      await page.close();
    },
  );

  it.each(LOCALES)('content page /{slug} (%s) shows the content title of that slug', async (locale) => {
    const { page, response } = await open(inLocale(`/${CONTENT_SLUG}`, locale));
    expect(response?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe(contentPage(locale).title);
    expect(await page.title()).toContain(contentPage(locale).title);
    await page.close();
  });

  it.each(LOCALES)(
    'payment result page (%s) /cashier/paysuccess sends an anonymous visitor home with redirectUrl',
    async (locale) => {
      const path = inLocale('/cashier/paysuccess/tx-1', locale);
      const { page } = await open(path);
      const url = new URL(page.url());
      expect(url.pathname).toBe(inLocale('/', locale));
      expect(url.searchParams.get('redirectUrl')).toBe(path);
      await page.close();
    },
  );

  it.each(LOCALES)('/forms/sign_in (%s) uses the empty layout: the form without the site header or footer', async (locale) => {
    const { page, response } = await open(inLocale('/forms/sign_in', locale));
    expect(response?.status()).toBe(200);
    expect(await page.locator('[data-layout]').getAttribute('data-layout')).toBe('empty');
    expect(await page.locator('.site-header').count()).toBe(0);
    expect(await page.locator('.site-footer').count()).toBe(0);
    expect(await page.locator('.auth-form__title').textContent()).toBe(tr(locale, 'auth.sign_in.title'));
    await page.close();
  });

  it.each(LOCALES)('/game/{sysname} (%s) uses the game layout and names the game', async (locale) => {
    const { page, response } = await open(inLocale(`/game/${GAME_SYSNAME}`, locale));
    expect(response?.status()).toBe(200);
    expect(await page.locator('[data-layout]').getAttribute('data-layout')).toBe('game');
    expect(await page.locator('[data-game]').getAttribute('data-game')).toBe(GAME_SYSNAME);
    expect(await page.locator('.site-footer').count()).toBe(0);
    expect(await page.locator('.game-page__title').textContent()).toBe(
      tr(locale, 'page.game-sysname.title', { game: gameName(locale) }),
    );
    await page.close();
  });

  it.each(LOCALES.flatMap((locale) => NAVIGATION.map((item) => [locale, item.path, item.key] as const)))(
    'the header (%s) marks only the item of the page as current at %s',
    async (locale, path, key) => {
      const { page } = await open(inLocale(path, locale));
      const current = page.locator('.site-nav a[aria-current="page"]');
      expect(await current.allTextContents()).toEqual([tr(locale, key)]);
      await page.close();
    },
  );
});
