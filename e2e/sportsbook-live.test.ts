/**
 * Live prices in the browser (issue 14 "prices reach open pages in real time (server-sent events)
 * with the changed price highlighted"), in English on a desktop and Italian on a phone. The shared
 * e2e server plays matches in real time, where a live price moves every few minutes; this file
 * starts its own site whose feed simulator plays 120 times faster ("a speed factor lets tests play
 * a match in seconds"), so prices move every few seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SportEventPage, SportSummary } from '#common/contract/sportsbook';
import { closeContext, screenshot, useBrowser, waitForHydration, browserLocale } from './browser';
import { apiCall } from './page-api';
import { startOwnSite, type OwnSite } from './own-site';
import { inLocale, type Locale } from './site-facts';

const SCREENS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

describe('live prices on a fast feed', () => {
  const browser = useBrowser();
  let site: OwnSite;

  beforeAll(async () => {
    // No outages: a silent producer suspends every market, and a suspended price does not move.
    site = await startOwnSite({ FEED_SPEED: '120', FEED_OUTAGE_RATE: '0' });
  }, 150_000);
  afterAll(async () => {
    await site?.stop();
  });

  for (const [locale, screen] of [
    ['en', 'desktop'],
    ['it', 'phone'],
  ] as [Locale, keyof typeof SCREENS][]) {
    it(`issue 14 live: a price that moves on an open event page is shown new and highlighted up or down (${locale}, ${screen})`, async () => {
      const { context, page } = await browser.newPage({
        locale: browserLocale(locale),
        viewport: SCREENS[screen],
        serviceWorkers: 'block',
      });
      await page.goto(`${site.baseUrl}${inLocale('/betting', locale)}`);
      // A match in play with an open main market, as the API lists it.
      let eventId: string | undefined;
      await expect
        .poll(
          async () => {
            const sports = (await apiCall<SportSummary[]>(page, 'GET', 'sportsbook.getSports')).data ?? [];
            for (const { sport } of sports.filter((item) => item.live > 0)) {
              const live = await apiCall<SportEventPage>(page, 'GET', 'sportsbook.getEvents', { sport, status: 'live' });
              eventId = live.data?.items.find((item) => item.main_market?.status === 'active')?.id;
              if (eventId) return true;
            }
            return false;
          },
          { timeout: 90_000, interval: 1_000 },
        )
        .toBe(true);
      await page.goto(`${site.baseUrl}${inLocale('/betting', locale)}?event=${encodeURIComponent(eventId!)}`);
      await waitForHydration(page);
      expect(await page.locator('[data-selection]').count()).toBeGreaterThan(0);
      // Every price change and every highlight the page makes from now on, as the DOM records them.
      await page.evaluate(() => {
        const log: { key: string; old?: string; odds: string; highlight?: string }[] = [];
        (window as unknown as { priceLog: typeof log }).priceLog = log;
        new MutationObserver((records) => {
          for (const record of records) {
            const node = record.target as HTMLElement;
            const key = node.getAttribute('data-selection');
            if (!key) continue;
            const odds = node.getAttribute('data-odds') ?? '';
            if (record.attributeName === 'data-odds') log.push({ key, old: record.oldValue ?? '', odds });
            const highlight = /is-moved-(up|down)/.exec(node.className)?.[1];
            if (record.attributeName === 'class' && highlight) log.push({ key, odds, highlight });
          }
        }).observe(document.body, {
          subtree: true,
          attributes: true,
          attributeOldValue: true,
          attributeFilter: ['data-odds', 'class'],
        });
      });

      // Waits for a highlight the observer saw happen (a button already moved when the observer
      // started, or rendered anew with the class, records nothing).
      const highlighted = () =>
        page.evaluate(
          () => (window as unknown as { priceLog: { highlight?: string }[] }).priceLog.filter((entry) => entry.highlight).length,
        );
      await expect.poll(highlighted, { timeout: 60_000, interval: 250 }).toBeGreaterThan(0);
      await screenshot(page, `betting-live-flash-${locale}-${screen}`);
      const log = await page.evaluate(
        () => (window as unknown as { priceLog: { key: string; old?: string; odds: string; highlight?: string }[] }).priceLog,
      );
      const highlights = log.filter((entry) => entry.highlight);
      expect(highlights.length).toBeGreaterThan(0);
      for (const { key, odds, highlight } of highlights) {
        // The highlighted price is a new one: the page changed it from another, and the colour says which way.
        const change = log.findLast((entry) => entry.key === key && entry.old !== undefined && entry.odds === odds);
        expect(change, `${key} highlighted at ${odds} without a change of price`).toBeDefined();
        expect(Number(change!.odds)).not.toBe(Number(change!.old));
        expect(highlight).toBe(Number(change!.odds) > Number(change!.old) ? 'up' : 'down');
      }
      await closeContext(context);
    }, 180_000);
  }
});
