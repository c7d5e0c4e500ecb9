/**
 * Spec §2 "System pages": each shows its header, description and button from translations; the
 * button goes where the spec says or is absent; maintenance and forbidden use the empty layout;
 * payment results live under /cashier, so an anonymous visitor is sent home with redirectUrl and a
 * signed-in player (registered through the API for this file) sees the result screen.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ROUTE_TABLE } from '#common/route-table';
import {
  SYSTEM_PAGE_BUTTON_TARGET,
  SYSTEM_PAGE_STATUS,
  paymentPageType,
  systemPageLayout,
  type SystemPageType,
} from '#common/system-pages';
import { useBrowser, waitForHydration } from './browser';
import {
  LOCALES,
  MAINTENANCE_HOST,
  MAINTENANCE_SITE,
  inLocale,
  locationOf,
  rawGet,
  samplePath,
  SAMPLE_TRANSACTION,
  tr,
  type Locale,
} from './site-facts';

const baseUrl = inject('baseUrl');
const port = inject('port');

/** What a rendered system page must show, from translations and the spec's tables. */
async function expectSystemPage(page: Page, type: SystemPageType, locale: Locale) {
  const section = page.locator(`[data-system-page="${type}"]`);
  await expect.poll(() => section.count()).toBe(1);
  expect(await section.locator('.system-page__header').textContent()).toBe(tr(locale, `system.${type}.header`));
  expect(await section.locator('.system-page__description').textContent()).toBe(tr(locale, `system.${type}.description`));
  const target = SYSTEM_PAGE_BUTTON_TARGET[type];
  const button = section.locator('a.button');
  expect(await button.count()).toBe(target ? 1 : 0);
  if (target) {
    expect(await button.getAttribute('href')).toBe(inLocale(target, locale));
    expect(await button.textContent()).toBe(tr(locale, `system.${type}.button`));
  }
  const layout = await page.locator('[data-layout]').first().getAttribute('data-layout');
  expect(layout).toBe(systemPageLayout(type));
  expect(await page.locator('.site-header').count()).toBe(systemPageLayout(type) === 'empty' ? 0 : 1);
  // The pending payment page shows a loader instead of the icon; the others the icon.
  expect(await section.locator('[role="progressbar"]').count()).toBe(type === 'paymentPending' ? 1 : 0);
  expect(await section.locator('.system-page__icon').count()).toBe(type === 'paymentPending' ? 0 : 1);
}

describe('system pages', () => {
  const browser = useBrowser();
  let context: BrowserContext;
  beforeAll(async () => {
    context = await browser.newContext();
  });

  it('a site is seeded in maintenance on a *.localhost host', () => {
    expect(MAINTENANCE_SITE).toBeDefined();
    expect(MAINTENANCE_HOST).toBeDefined();
  });

  it.each(LOCALES)(
    'maintenance (%s): a site in maintenance answers 503 with the maintenance header, in the empty layout',
    async (locale) => {
      const response = await rawGet(baseUrl, inLocale('/promotions', locale), { host: `${MAINTENANCE_HOST}:${port}` });
      expect(response.status).toBe(SYSTEM_PAGE_STATUS.maintenance);
      expect(response.body).toContain('data-system-page="maintenance"');
      expect(response.body).toContain(tr(locale, 'system.maintenance.header'));
      expect(response.body).not.toContain('class="site-header');
    },
  );

  it.each(LOCALES)('maintenance (%s) in the browser: header, description, no button, no site header', async (locale) => {
    const page = await context.newPage();
    // Chromium resolves *.localhost to the loopback address, where the e2e server listens.
    const response = await page.goto(`http://${MAINTENANCE_HOST}:${port}${inLocale('/', locale)}`);
    expect(response?.status()).toBe(503);
    await expectSystemPage(page, 'maintenance', locale);
    await page.close();
  });

  it.each(LOCALES)('not found (%s): 404 with the notFound page in the default layout', async (locale) => {
    const page = await context.newPage();
    const response = await page.goto(`${baseUrl}${inLocale('/missing/page/here', locale)}`);
    expect(response?.status()).toBe(SYSTEM_PAGE_STATUS.notFound);
    await expectSystemPage(page, 'notFound', locale);
    expect(await page.title()).toContain(tr(locale, 'system.notFound.header'));
    await page.close();
  });

  it.each(LOCALES)(
    'a bare /unsubscribe (%s) does not claim an unsubscribe: it says nothing changed and where e-mail is managed (issue 15)',
    async (locale) => {
      const page = await context.newPage();
      const response = await page.goto(`${baseUrl}${inLocale('/unsubscribe', locale)}`);
      expect(response?.status()).toBe(200);
      expect(await page.locator('[data-system-page="unsubscribe"]').count()).toBe(0);
      const section = page.locator('[data-unsubscribe-no-link]');
      expect(await section.locator('h1').textContent()).toBe(tr(locale, 'unsubscribe.noLink.title'));
      expect(await section.locator('p').first().textContent()).toBe(tr(locale, 'unsubscribe.noLink.text'));
      const manage = section.locator('a.button');
      expect(await manage.getAttribute('href')).toBe(inLocale('/profile/notification', locale));
      expect(await manage.textContent()).toBe(tr(locale, 'unsubscribe.noLink.button'));
      expect(await page.locator('body').innerText()).not.toContain(tr(locale, 'system.unsubscribe.header'));
      await page.close();
    },
  );

  it.each(LOCALES)('an unsubscribe link (%s) asks to confirm before anything changes', async (locale) => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}${inLocale('/unsubscribe', locale)}?u=1&c=someone%40example.com&s=signature`);
    const confirm = page.locator('[data-unsubscribe-confirm]');
    expect(await confirm.locator('h1').textContent()).toBe(tr(locale, 'unsubscribe.confirm.title'));
    expect(await page.locator('[data-system-page="unsubscribe"]').count()).toBe(0);
    await page.close();
  });

  const paymentRoutes = ROUTE_TABLE.filter((entry) => entry.file === 'routes/payment-result.tsx');

  it('the route table has the six payment result screens of the spec', () => {
    expect(new Set(paymentRoutes.map((entry) => paymentPageType(entry.name)))).toEqual(
      new Set(['paymentCancel', 'paymentFail', 'paymentMobile', 'paymentNewWindow', 'paymentPending', 'paymentSuccess']),
    );
  });

  // Without a sign-in the payment screens cannot be rendered (they are under /cashier): what an
  // anonymous visitor gets is the redirect home with the full path in redirectUrl.
  it.each(LOCALES.flatMap((locale) => paymentRoutes.map((entry) => [inLocale(samplePath(entry), locale), locale] as const)))(
    'payment result %s sends an anonymous visitor to the locale home with redirectUrl',
    async (path, locale) => {
      const response = await fetch(`${baseUrl}${path}`, { redirect: 'manual' });
      expect(response.status).toBe(302);
      const target = locationOf(baseUrl, response.headers.get('location'));
      expect(target?.pathname).toBe(inLocale('/', locale));
      expect(target?.searchParams.get('redirectUrl')).toBe(path);
    },
  );

  describe('as a signed-in player', () => {
    let playerContext: BrowserContext;
    let depositId = '';
    beforeAll(async () => {
      playerContext = await browser.newContext();
      const page = await playerContext.newPage();
      await page.goto(`${baseUrl}/`);
      await waitForHydration(page);
      const answer = await page.evaluate(async (login) => {
        const response = await fetch('/api/auth.register?v=2.34&locale=en', {
          method: 'POST',
          body: new URLSearchParams({ login, password: 'secret12', terms: '1' }),
        });
        return (await response.json()) as { data?: { uid?: number }; error?: { type: string; message: string } };
      }, `e2e-system-${Date.now()}@example.com`);
      if (!answer.data?.uid) throw new Error(`registration failed: ${JSON.stringify(answer.error)}`);
      // The screens of a transaction show the player's own deposit (a card deposit left pending):
      // an unknown transaction is not found (issue 15).
      depositId = await page.evaluate(async () => {
        const response = await fetch('/api/cashier.makedeposit?v=2.34&locale=en', {
          method: 'POST',
          body: new URLSearchParams({ method: 'card', amount: '10' }),
        });
        return ((await response.json()) as { data: { id: string } }).data.id;
      });
      await page.close();
    });
    afterAll(() => playerContext?.close());

    it.each(
      LOCALES.flatMap((locale) =>
        paymentRoutes.map((entry) => [inLocale(samplePath(entry), locale), locale, paymentPageType(entry.name)] as const),
      ),
    )(
      'payment result %s shows the %s page: header, description, and the button target of the spec (or none)',
      async (samplePathOf, locale, type) => {
        const path = samplePathOf.replace(SAMPLE_TRANSACTION, depositId);
        const page = await playerContext.newPage();
        const response = await page.goto(`${baseUrl}${path}`);
        expect(response?.status()).toBe(200);
        expect(new URL(page.url()).pathname).toBe(path);
        await expectSystemPage(page, type, locale);
        if (path.endsWith(`/${depositId}`)) expect(await page.locator('.system-page__detail').textContent()).toBe(depositId);
        await page.close();
      },
    );

    it('the success button leads to the game hall, and the failure button back to the deposit page', async () => {
      const page = await playerContext.newPage();
      await page.goto(`${baseUrl}/cashier/paysuccess`);
      await waitForHydration(page);
      await page.locator('[data-system-page="paymentSuccess"] a.button').click();
      await page.waitForURL(`${baseUrl}${SYSTEM_PAGE_BUTTON_TARGET.paymentSuccess}`);
      await page.goto(`${baseUrl}/it/cashier/payfail`);
      await waitForHydration(page);
      await page.locator('[data-system-page="paymentFail"] a.button').click();
      await page.waitForURL(`${baseUrl}${inLocale(SYSTEM_PAGE_BUTTON_TARGET.paymentFail!, 'it')}`);
      await page.close();
    });
  });
});
