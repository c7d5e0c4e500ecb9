/**
 * Live prices in the browser (issue 14 "prices reach open pages in real time (server-sent events)
 * with the changed price highlighted"), in English on a desktop and Italian on a phone. The shared
 * e2e server plays matches in real time, where a live price moves every few minutes; this file
 * starts its own site whose feed simulator plays 120 times faster ("a speed factor lets tests play
 * a match in seconds"), so prices move every few seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { SportEventPage, SportSummary } from '#common/contract/sportsbook';
import { closeContext, screenshot, useBrowser, waitForHydration, browserLocale } from './browser';
import { apiCall } from './page-api';
import { startOwnSite, type OwnSite } from './own-site';
import { inLocale, type Locale } from './site-facts';

const SCREENS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

interface PriceChange {
  key: string;
  old: string;
  odds: string;
  highlight?: string;
}

/**
 * Opens the live match with the most left to play (one about to end may change no price before it
 * does) and records every price change the page makes from then on, with the highlight its button
 * wears in the same render (the observer runs after React's commit, before the next one). A class
 * change alone records nothing: a button whose price moves on every message keeps its highlight.
 */
async function watchLiveEvent(page: Page, site: OwnSite, locale: Locale): Promise<() => Promise<PriceChange[]>> {
  await page.goto(`${site.baseUrl}${inLocale('/betting', locale)}`);
  let eventId: string | undefined;
  await expect
    .poll(
      async () => {
        const sports = (await apiCall<SportSummary[]>(page, 'GET', 'sportsbook.getSports')).data ?? [];
        for (const { sport } of sports.filter((item) => item.live > 0)) {
          const live = await apiCall<SportEventPage>(page, 'GET', 'sportsbook.getEvents', { sport, status: 'live' });
          eventId = live.data?.items
            .filter((item) => item.main_market?.status === 'active')
            .sort((a, b) => (a.clock_minute ?? 0) - (b.clock_minute ?? 0))[0]?.id;
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
  await page.evaluate(() => {
    const log: { key: string; old: string; odds: string; highlight?: string }[] = [];
    (window as unknown as { priceLog: typeof log }).priceLog = log;
    new MutationObserver((records) => {
      for (const record of records) {
        const node = record.target as HTMLElement;
        const key = node.getAttribute('data-selection');
        if (!key || record.attributeName !== 'data-odds') continue;
        const highlight = /is-moved-(up|down)/.exec(node.className)?.[1];
        log.push({ key, old: record.oldValue ?? '', odds: node.getAttribute('data-odds') ?? '', highlight });
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ['data-odds'] });
  });
  return () => page.evaluate(() => (window as unknown as { priceLog: PriceChange[] }).priceLog);
}

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
      // At 120 × a match lasts under a minute of real time, and one can end or have its markets
      // suspended without another price change: watch the live match with most left to play, and
      // take the next one when a watch sees no change.
      let changes: () => Promise<PriceChange[]> = async () => [];
      for (let attempt = 0; attempt < 4 && (await changes()).length === 0; attempt++) {
        changes = await watchLiveEvent(page, site, locale);
        const deadline = Date.now() + 25_000;
        while (Date.now() < deadline && (await changes()).length === 0) await page.waitForTimeout(250);
      }
      expect((await changes()).length).toBeGreaterThan(0);
      await screenshot(page, `betting-live-flash-${locale}-${screen}`);
      for (const { key, old, odds, highlight } of await changes()) {
        // A new price is shown highlighted, and the colour says which way it moved.
        expect(Number(odds), `${key} changed from ${old} to the same price`).not.toBe(Number(old));
        expect(highlight, `${key} moved ${old} → ${odds}`).toBe(Number(odds) > Number(old) ? 'up' : 'down');
      }
      await closeContext(context);
    }, 240_000);
  }
});
