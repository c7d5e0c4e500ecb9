/**
 * Spec §2 "Popups opened from the address" and "Dialogs": show_popup_auth / show_popup_reg,
 * prevent_close, address cleanup after close, campaign popups and their preview, promo_code
 * (spec §4), stacking where only the topmost is visible, scroll lock, the header buttons and the
 * game page's #real for anonymous visitors.
 */
import { describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { useBrowser, waitForHydration } from './browser';
import { GAME_SYSNAME, LOCALES, NAVIGATION, POPUP_SYSNAME, campaignPopup, inLocale, tr, type Locale } from './site-facts';

const baseUrl = inject('baseUrl');

const visibleLayer = '.dialog-layer:not([hidden])';

/** The open dialogs, bottom to top: their component name and whether they are shown. */
function dialogs(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.dialog-layer')].map((layer) => ({
      component: layer.dataset.dialog,
      isVisible: !layer.hidden,
    })),
  );
}

function selectedTab(page: Page) {
  return page.locator(`${visibleLayer} [role="tab"][aria-selected="true"]`).textContent({ timeout: 10_000 });
}

function addressOf(page: Page) {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

describe('dialogs opened from the address and from the page', () => {
  const browser = useBrowser();

  /** A fresh visitor (own cookies and local storage) on `path`. */
  async function visit(
    path: string,
    options: { viewport?: 'mobile' | 'desktop' } = {},
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`);
    // Dialogs from the address open once the page is interactive; on a loaded machine hydration
    // alone can take longer than a poll's default second.
    await waitForHydration(page);
    return { context, page };
  }

  it.each(LOCALES)(
    'show_popup_auth=1 (%s) opens the authorization popup on the sign-in tab and locks page scroll',
    async (locale) => {
      const { context, page } = await visit(inLocale('/promotions?show_popup_auth=1', locale));
      expect(await selectedTab(page)).toBe(tr(locale, 'auth.sign_in.title'));
      expect(await dialogs(page)).toEqual([{ component: 'auth', isVisible: true }]);
      expect(await page.locator('html').getAttribute('class')).toContain('is-scroll-locked');
      expect(await page.locator(`${visibleLayer} .dialog__close`).getAttribute('aria-label')).toBe(tr(locale, 'dialog.close'));
      await context.close();
    },
  );

  it.each(LOCALES)(
    'show_popup_reg=1 (%s) opens it on the sign-up tab and saves show_popup_reg in local storage',
    async (locale) => {
      const { context, page } = await visit(inLocale('/?show_popup_reg=1', locale));
      expect(await selectedTab(page)).toBe(tr(locale, 'auth.sign_up.title'));
      expect(await page.evaluate(() => localStorage.getItem('show_popup_reg'))).toBe('1');
      await context.close();
    },
  );

  it('prevent_close=1 makes the popup non-closable: no close button, Escape and the overlay do not close it', async () => {
    const { context, page } = await visit('/?show_popup_reg=1&prevent_close=1');
    await page.locator(visibleLayer).waitFor();
    await expect.poll(() => dialogs(page)).toEqual([{ component: 'auth', isVisible: true }]);
    expect(await page.locator(`${visibleLayer} .dialog__close`).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.locator(`${visibleLayer} .dialog-overlay`).click({ position: { x: 5, y: 5 } });
    await page.waitForTimeout(300);
    expect(await dialogs(page)).toEqual([{ component: 'auth', isVisible: true }]);
    expect(addressOf(page)).toBe('/?show_popup_reg=1&prevent_close=1');
    await context.close();
  });

  it('closing the popup removes show_popup_* and prevent_close from the address and keeps the other parameters', async () => {
    const { context, page } = await visit('/promotions?utm_source=mail&show_popup_auth=1&prevent_close=0&show_popup_reg=1&tab=2');
    await page.locator(`${visibleLayer} .dialog__close`).click();
    await expect.poll(() => addressOf(page)).toBe('/promotions?utm_source=mail&tab=2');
    expect(await dialogs(page)).toEqual([]);
    expect(await page.locator('html').getAttribute('class')).not.toContain('is-scroll-locked');
    await context.close();
  });

  it('Escape closes a closable popup and the address is cleaned the same way', async () => {
    const { context, page } = await visit('/?show_popup_auth=1&a=1');
    await page.locator(visibleLayer).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => addressOf(page)).toBe('/?a=1');
    expect(await dialogs(page)).toEqual([]);
    await context.close();
  });

  it.each(LOCALES)('popup={sysname} (%s) opens the campaign popup with its content title and button', async (locale) => {
    const content = campaignPopup(locale);
    const { context, page } = await visit(inLocale(`/gamehall?popup=${POPUP_SYSNAME}`, locale));
    await expect.poll(() => page.locator(`${visibleLayer} .dialog__title`).textContent()).toBe(content.title);
    if (content.button) expect(await page.locator(`${visibleLayer} a.button`).textContent()).toBe(content.button);
    expect(await page.locator(`${visibleLayer} .badge`).count()).toBe(0);
    await context.close();
  });

  it.each(LOCALES)('#popup-preview with a popup query (%s) opens the popup marked as a preview', async (locale) => {
    const { context, page } = await visit(inLocale(`/?popup=${POPUP_SYSNAME}#popup-preview`, locale));
    await expect.poll(() => page.locator(`${visibleLayer} .badge`).textContent()).toBe(tr(locale, 'popup.preview'));
    expect(await page.locator(`${visibleLayer} .dialog__title`).textContent()).toBe(campaignPopup(locale).title);
    await context.close();
  });

  it('an unknown popup sysname shows the not-available text instead of content', async () => {
    const { context, page } = await visit('/?popup=no-such-popup');
    await expect.poll(() => page.locator(`${visibleLayer} .campaign__missing`).textContent()).toBe(tr('en', 'popup.notFound'));
    await context.close();
  });

  it('show_popup_auth with popup stacks two popups; only the topmost is visible and closing it reveals the other', async () => {
    const { context, page } = await visit(`/?show_popup_auth=1&popup=${POPUP_SYSNAME}&keep=1`);
    await expect
      .poll(() => dialogs(page))
      .toEqual([
        { component: 'auth', isVisible: false },
        { component: 'campaign', isVisible: true },
      ]);
    await page.locator(`${visibleLayer} .dialog__close`).click();
    await expect.poll(() => dialogs(page)).toEqual([{ component: 'auth', isVisible: true }]);
    expect(await selectedTab(page)).toBe(tr('en', 'auth.sign_in.title'));
    expect(await page.locator('html').getAttribute('class')).toContain('is-scroll-locked');
    await page.locator(`${visibleLayer} .dialog__close`).click();
    await expect.poll(() => addressOf(page)).toBe(`/?popup=${POPUP_SYSNAME}&keep=1`);
    // Removing the auth parameters is a change of address, but the campaign popup stays closed.
    await page.waitForTimeout(500);
    expect(await dialogs(page)).toEqual([]);
    await context.close();
  });

  it('promo_code in the address is stored under promo_code and overwrites an older stored code', async () => {
    const { context, page } = await visit('/');
    await page.evaluate(() => localStorage.setItem('promo_code', 'OLDER'));
    await page.goto(`${baseUrl}/promotions?promo_code=ABC`);
    // The code is stored once the page is interactive: as in visit(), hydration alone can outlast a
    // poll's default second on a loaded machine (CI failed so once, the stored code still 'OLDER').
    await waitForHydration(page);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('promo_code'))).toBe('ABC');
    // Without a code in the address the stored one is kept.
    await page.goto(`${baseUrl}/gamehall`);
    await waitForHydration(page);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => localStorage.getItem('promo_code'))).toBe('ABC');
    await context.close();
  });

  it.each(LOCALES.flatMap((locale) => (['sign_in', 'sign_up'] as const).map((mode) => [locale, mode] as const)))(
    'the header button (%s) %s opens the popup on its tab',
    async (locale, mode) => {
      // visit waits for hydration: a click before it reaches no handler.
      const { context, page } = await visit(inLocale('/', locale));
      const label = tr(locale, mode === 'sign_in' ? 'header.signIn' : 'header.signUp');
      await page.locator('.site-header__actions').getByRole('button', { name: label, exact: true }).click();
      expect(await selectedTab(page)).toBe(tr(locale, `auth.${mode}.title`));
      expect(await dialogs(page)).toEqual([{ component: 'auth', isVisible: true }]);
      await context.close();
    },
  );

  it.each(LOCALES)(
    'the game page with #real (%s) opens registration for an anonymous visitor; closing it goes home',
    async (locale: Locale) => {
      const { context, page } = await visit(inLocale(`/game/${GAME_SYSNAME}#real`, locale));
      expect(await selectedTab(page)).toBe(tr(locale, 'auth.sign_up.title'));
      await page.waitForTimeout(300);
      expect(await dialogs(page)).toEqual([{ component: 'auth', isVisible: true }]);
      await page.locator(`${visibleLayer} .dialog__close`).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(inLocale('/', locale));
      expect(await dialogs(page)).toEqual([]);
      await context.close();
    },
  );

  it('the game page without #real opens no popup', async () => {
    const { context, page } = await visit(`/game/${GAME_SYSNAME}`);
    await page.waitForTimeout(500);
    expect(await dialogs(page)).toEqual([]);
    await context.close();
  });

  it.each(LOCALES)(
    'on a phone (%s) the menu button opens the navigation as a curtain; choosing a link goes there and closes it',
    async (locale) => {
      const { context, page } = await visit(inLocale('/', locale), { viewport: 'mobile' });
      expect(await page.locator('.site-nav').isVisible()).toBe(false);
      await page.getByRole('button', { name: tr(locale, 'header.menu') }).click();
      const curtain = page.locator('.dialog-layer--curtain:not([hidden])');
      await curtain.waitFor();
      expect(await curtain.getAttribute('data-dialog')).toBe('menu');
      expect(await page.locator('html').getAttribute('class')).toContain('is-scroll-locked');
      const labels = await curtain.locator('.site-menu__nav a').allTextContents();
      expect(labels.map((label) => label.trim())).toEqual(NAVIGATION.map((item) => tr(locale, item.key)));
      const target = NAVIGATION.find((item) => !item.path.includes('?'))!;
      await curtain.getByRole('link', { name: tr(locale, target.key), exact: true }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(inLocale(target.path, locale));
      await expect.poll(() => dialogs(page)).toEqual([]);
      await context.close();
    },
  );

  it('on a desktop the navigation is in the header and the menu button is hidden', async () => {
    const { context, page } = await visit('/');
    expect(await page.locator('.site-nav').isVisible()).toBe(true);
    expect(await page.locator('.site-header__menu').isVisible()).toBe(false);
    expect(await page.locator('.site-nav a').allTextContents()).toEqual(NAVIGATION.map((item) => tr('en', item.key)));
    await context.close();
  });
});
