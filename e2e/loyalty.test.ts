/**
 * Loyalty info as a player meets it (issue 3: the sign-up form's character select; "success
 * loads profile and loyalty info"; spec §4 "loyalty characters are set on the server, then info
 * is refetched"; §2 dialogs "loyalty character change and its confirm"), in English and Italian.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { closeContext, useBrowser, waitForHydration } from './browser';
import { closeCampaignPopupAfterSignIn, signedUpPlayer } from './page-api';
import { inLocale, SITE, tr, type Locale } from './site-facts';

const POLL = { timeout: 10_000 };
const PASSWORD = 'secret12';
const ADDRESS_PREFIX = '10.85';

interface Programme {
  levels: { sysname: string; min_points: number }[];
  characters: { id: number; sysname: string }[];
}
const PROGRAMME = (SITE.settings as { loyalty: Programme }).loyalty;
const FIRST_LEVEL = [...PROGRAMME.levels].sort((a, b) => a.min_points - b.min_points)[0]!;

const badge = (page: Page) => page.locator('.site-header .loyalty-badge');

describe('loyalty in the browser', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;
  let signUps = 0;

  for (const locale of ['en', 'it'] as Locale[]) {
    it(`signs up with a character picked in the registration popup; the header then shows it with the first level and 0 points (${locale}, auth config showCharacterSelect)`, async () => {
      const { context, page } = await browser.newPage({
        serviceWorkers: 'block',
        extraHTTPHeaders: { 'x-forwarded-for': `${ADDRESS_PREFIX}.9.${++signUps}` },
        stepTimeoutMs: 20_000,
      });
      await page.goto(`${base}${inLocale('/', locale)}?show_popup_reg=1`);
      await waitForHydration(page);
      const popup = page.locator('[data-dialog="auth"]');
      const picked = PROGRAMME.characters.at(-1)!;
      const option = popup.locator(`.character-picker__option[data-character="${picked.sysname}"]`);
      await expect.poll(() => option.textContent(), POLL).toBe(tr(locale, `loyalty.character.${picked.sysname}`));
      await option.click();
      await popup.locator('input[name="login"]').fill(`loyal${Date.now()}${signUps}@example.com`);
      await popup.locator('input[name="password"]').fill(PASSWORD);
      await popup.locator('[data-field="terms"] input').check();
      await popup.locator('button[type="submit"]').click();
      await page.waitForURL(/register=success/);
      await expect.poll(() => badge(page).getAttribute('data-loyalty-level'), POLL).toBe(FIRST_LEVEL.sysname);
      expect(await badge(page).locator('img').getAttribute('data-character')).toBe(picked.sysname);
      expect(await badge(page).locator('.loyalty-badge__level').textContent()).toBe(
        tr(locale, `loyalty.level.${FIRST_LEVEL.sysname}`),
      );
      expect(await badge(page).locator('.loyalty-badge__points').textContent()).toBe(`0 ${tr(locale, 'loyalty.alias.points')}`);
      await closeContext(context);
    });

    it(`sign-in loads the loyalty info; the character is changed in the dialog and its confirm, and the refetched info shows it (${locale}, spec §4)`, async () => {
      const { context, page, login } = await signedUpPlayer(browser, locale, { addressPrefix: ADDRESS_PREFIX });
      await context.clearCookies();
      await page.goto(`${base}${inLocale('/forms/sign_in', locale)}`);
      await waitForHydration(page);
      await expect.poll(() => badge(page).count()).toBe(0);
      await page.fill('input[name="login"]', login);
      await page.fill('input[name="password"]', PASSWORD);
      await page.click('button[type="submit"]');
      await expect.poll(() => badge(page).getAttribute('data-loyalty-points'), { timeout: 15_000 }).toBe('0');
      // Signed up through the API without a character: the badge shows the empty avatar.
      expect(await badge(page).locator('img').count()).toBe(0);
      await waitForHydration(page);
      await closeCampaignPopupAfterSignIn(page, locale);

      await page.goto(`${base}${inLocale('/profile/loyalty', locale)}`);
      await waitForHydration(page);
      const card = page.locator('.loyalty-card');
      expect(await card.locator('.loyalty-card__character').textContent()).toBe(tr(locale, 'loyalty.character.none'));
      await card.locator('[data-action="change-character"]').click();
      const change = page.locator('[data-loyalty-character-change]');
      const picked = PROGRAMME.characters[1]!;
      await change.locator(`.character-picker__option[data-character="${picked.sysname}"]`).click();
      await change.locator('[data-action="choose-character"]').click();
      const confirm = page.locator('[data-loyalty-character-confirm]');
      const name = tr(locale, `loyalty.character.${picked.sysname}`);
      await expect
        .poll(() => confirm.locator('.dialog__title').textContent(), POLL)
        .toBe(tr(locale, 'loyalty.character.confirmTitle', { name }));
      await confirm.locator('[data-action="confirm-character"]').click();
      await expect.poll(() => card.locator('.loyalty-card__character').textContent(), POLL).toBe(name);
      await expect.poll(() => badge(page).locator('img').getAttribute('data-character'), POLL).toBe(picked.sysname);
      expect(await page.locator('.loyalty-levels__item--current').getAttribute('data-level')).toBe(FIRST_LEVEL.sysname);
      await closeContext(context);
    });
  }
});
