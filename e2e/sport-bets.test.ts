/**
 * Sports bets on /profile/bets in the browser (issue 14 "My bets: open and settled sports bets with
 * their legs and live status, under /profile/bets beside game history"; "Cash-out: open single and
 * multiple bets offer a cash-out price … full"), in English and Italian, on a desktop and a phone.
 * The bet is placed on what the site's own odds feed (the simulator the server starts) offers.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { SportEventPage, TicketView } from '#common/contract';
import { formatMoney } from '#common/money';
import { closeContext, screenshot, useBrowser, waitForHydration } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { depositBySandboxCalls } from './sandbox-deposit';
import { inLocale, tr, type Locale } from './site-facts';

const POLL = { timeout: 30_000 };

/** An upcoming event's main-market price the feed offers now: what a player would click. */
async function offeredSelection(page: Page) {
  let events: SportEventPage | undefined;
  await expect
    .poll(async () => {
      events = (await apiCall<SportEventPage>(page, 'GET', 'sportsbook.getEvents', { sport: 'football', status: 'upcoming' }))
        .data;
      return events?.items.some((item) => item.main_market?.status === 'active') ?? false;
    }, POLL)
    .toBe(true);
  const event = events!.items.find((item) => item.main_market?.status === 'active')!;
  const outcome = event.main_market!.outcomes.find((item) => item.active)!;
  return { event_id: event.id, market_key: event.main_market!.key, outcome_id: outcome.id, odds: outcome.odds };
}

describe('sports bets on /profile/bets', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  for (const [locale, viewport] of [
    ['en', 'desktop'],
    ['it', 'phone'],
  ] as [Locale, 'desktop' | 'phone'][]) {
    it(`issue 14: a placed single shows with its legs and cash-out price, and cashing out pays it (${locale}, ${viewport})`, async () => {
      const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: '10.88' });
      await depositBySandboxCalls(page, base, '20');
      const selection = await offeredSelection(page);
      const placed = await apiCall<TicketView>(page, 'POST', 'sportsbook.placeBet', {
        selections: JSON.stringify([selection]),
        bet_type: 'single',
        stake: '5.00',
        request_id: `e2e-${locale}-${Date.now()}`,
      });
      expect(placed.error).toBeUndefined();

      if (viewport === 'phone') await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${base}${inLocale('/profile/bets', locale)}`);
      await waitForHydration(page);
      const ticket = page.locator(`[data-ticket="${placed.data!.id}"]`);
      await expect.poll(() => ticket.getAttribute('data-ticket-status'), POLL).toBe('open');
      expect(await ticket.locator('.ticket__status').textContent()).toBe(tr(locale, 'sportsbook.ticket.open'));
      expect(await ticket.locator('.ticket__pick strong').textContent()).toBe(
        (await apiCall<{ items: TicketView[] }>(page, 'GET', 'sportsbook.getBets', {})).data?.items[0]?.legs[0]?.outcome_name,
      );
      await screenshot(page, `sport-bets-${locale}-${viewport}`);

      // The offered price is the server's now; cashing out pays exactly it.
      const offer = ticket.locator('[data-action="cash-out"]');
      const price = await offer.getAttribute('data-cash-out');
      expect(price).toMatch(/^\d+\.\d{2}$/);
      const before = (await apiCall<{ balance_main: { amount: string; currency: string } }>(page, 'GET', 'account.getBalance'))
        .data!.balance_main;
      await offer.click();
      const confirm = ticket.locator('[data-action="confirm-cash-out"]');
      expect(await confirm.textContent()).toBe(
        tr(locale, 'sportsbook.cashout.confirm', { amount: formatMoney({ amount: price!, currency: before.currency }) }),
      );
      await confirm.click();
      await expect.poll(() => ticket.getAttribute('data-ticket-status'), POLL).toBe('cashed_out');
      const after = (await apiCall<{ balance_main: { amount: string } }>(page, 'GET', 'account.getBalance')).data!.balance_main;
      expect(Number(after.amount) - Number(before.amount)).toBeCloseTo(Number(price), 2);
      await closeContext(context);
    });
  }

  it('issue 14: a player without sports bets sees the empty state (en)', async () => {
    const { context, page } = await signedUpPlayer(browser, 'en', { addressPrefix: '10.88' });
    await page.goto(`${base}/profile/bets`);
    await waitForHydration(page);
    expect(await page.locator('[data-sport-tickets-empty]').textContent()).toBe(tr('en', 'sportsbook.tickets.empty'));
    await closeContext(context);
  });
});
