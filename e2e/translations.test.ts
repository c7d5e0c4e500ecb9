/**
 * Issue 12: pages no longer carry the whole translation table in their hydration data ("40 KB of
 * it the whole translations table on every page"): a page names its table's version, the browser
 * loads that version once beside the page, and a client navigation to the other locale loads the
 * other table before it renders. The texts a player reads stay those of content/ in both languages.
 */
import { describe, expect, it } from 'vitest';
import { LOCALES } from '#common/locale';
import { translationsUrl } from '#common/translations';
import { useBrowser, waitForHydration } from './browser';
import { inLocale, tr, translations } from './site-facts';

describe('translation tables beside the pages (issue 12: hydration data without the table)', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  it.each(LOCALES)(
    'a %s page names its table version instead of carrying the table, and the version serves it',
    async (locale) => {
      const html = await (await fetch(`${base}${inLocale('/gamehall', locale)}`)).text();
      // The preload waits in the module script until the first paint (app/paint-first.ts): its quotes are escaped there.
      const version = /data-translations=\\?"([^"\\]+)\\?"/.exec(html)?.[1];
      if (!version) throw new Error('the page names no translation table');
      // With the table inside, every one of its keys was a string of the hydration data; now only
      // the few the site's configuration names (the footer's links) are.
      const table = translations(locale);
      const keysInPage = Object.keys(table).filter((key) => html.includes(`\\"${key}\\"`));
      expect(keysInPage.length).toBeLessThan(Object.keys(table).length / 20);
      const answer = await fetch(`${base}${translationsUrl(locale, version)}`);
      expect(await answer.json()).toEqual(table);
    },
  );

  it('hydrates with the server texts, and a client navigation to Italian renders Italian texts without a reload', async () => {
    const { context, page } = await browser.newPage();
    const tableLoads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/platform/translations/')) tableLoads.push(new URL(request.url()).pathname);
    });
    const hydrationErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /hydrat|translations/i.test(message.text())) hydrationErrors.push(message.text());
    });
    await page.goto(`${base}/gamehall`);
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await expect.poll(() => page.locator('.site-nav__link').first().textContent()).toBe(tr('en', 'nav.casino'));

    await page.locator('.language-switch__item[hreflang="it"]').first().click();
    await page.waitForURL(`${base}/it/gamehall`);
    await expect.poll(() => page.locator('.site-nav__link').first().textContent()).toBe(tr('it', 'nav.casino'));
    await expect.poll(() => page.title()).toContain(tr('it', 'page.gamehall.title'));
    // The same document: the root's client loader brought the Italian table, no page load did.
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(tableLoads, tableLoads.join()).toEqual(['/platform/translations/en.json', '/platform/translations/it.json']);
    expect(hydrationErrors).toEqual([]);
    await context.close();
  });
});
