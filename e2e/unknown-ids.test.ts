/**
 * Pages addressed by an id that does not exist answer 404 with the site's not-found page (issue 15:
 * they answered 200; spec §8 "Route guard failure: 404 'Page Not Found: {full path}'"), in English
 * and Italian: an unknown game, an unknown transaction on the payment result screens, an unknown
 * promotion or offer.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { closeContext, useBrowser } from './browser';
import { signedUpPlayer } from './page-api';
import { inLocale, tr, type Locale } from './site-facts';

const UNKNOWN_PATHS = [
  '/game/nonexistent-game',
  '/cashier/payfail/999999999',
  '/cashier/paysuccess/999999999',
  '/cashier/paypending/bogus-transaction',
  '/promotions/999999',
  '/promotions/not-a-number',
  '/offers/999999',
];

async function expectNotFound(page: Page, base: string, path: string, locale: Locale): Promise<void> {
  const response = await page.goto(`${base}${inLocale(path, locale)}`);
  expect(response?.status(), path).toBe(404);
  const section = page.locator('[data-system-page="notFound"]');
  expect(await section.count(), path).toBe(1);
  expect(await section.locator('.system-page__header').textContent()).toBe(tr(locale, 'system.notFound.header'));
}

describe('unknown ids are not found', () => {
  const browser = useBrowser();

  for (const locale of ['en', 'it'] as const) {
    it(`answers 404 with the not-found page for an unknown game, transaction, promotion or offer (${locale}; issue 15, spec §8 route guard)`, async () => {
      // A signed-in player: the cashier screens send an anonymous visitor home before anything else.
      const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: '10.92' });
      for (const path of UNKNOWN_PATHS) await expectNotFound(page, browser.baseUrl, path, locale);
      await closeContext(context);
    });
  }
});
