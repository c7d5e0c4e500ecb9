/**
 * A bonus wagered through play, as a player meets it (issue 13: "Browser tests in en and /it:
 * deposit with the welcome offer → bonus active → play a slot → progress moves → completion
 * converts"; decision 0008 spending and wagering), in English and Italian:
 *
 * - a deposit of the welcome minimum with the welcome offer chosen in the cashier makes the
 *   welcome bonus active at 0 %; slot spins in real mode on the game page, with the bonus balance
 *   in the game bar, move its wagering by the stakes times the slot's contribution;
 * - on a phone, the sign-up bonus (small requirement) activated from /profile/bonuses and played
 *   to its requirement through the page's own API converts: it is in the history as converted
 *   with its amount, and the main balance rose by exactly that amount.
 *
 * Amounts come from the site's templates and the server's answers, never from a spin's outcome.
 */
import { describe, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import type { BonusPage, BonusView } from '#common/contract';
import { amountToMinor, formatMoney, minorToAmount } from '#common/money';
import { closeContext, screenshot, useBrowser, waitForHydration } from './browser';
import { apiCall, mainBalanceMinor, signedUpPlayer } from './page-api';
import { depositBySandboxCalls } from './sandbox-deposit';
import { inLocale, SITE, tr, type Locale } from './site-facts';

const POLL = { timeout: 20_000 };
const ADDRESS_PREFIX = '10.94';
const LOCALES: Locale[] = ['en', 'it'];
const WELCOME_OFFER = 1; // content/shared/_all/offers/welcome-match.json: the welcome template
const SLOT = 'aurora-fortune'; // type slot
const SPINS = 3;

interface Template {
  id: string;
  amount: { kind: string; percent?: number };
  min_deposit?: Record<string, string>;
  contributions: { types: Record<string, number> };
  max_stake: Record<string, string>;
  texts: Record<string, { title: string }>;
}
const BONUSES = (SITE.settings as { bonuses: { templates: Template[]; registration_template_id: string } }).bonuses;
const template = (id: string) => BONUSES.templates.find((item) => item.id === id)!;
const WELCOME = template('welcome');
const SIGN_UP = template(BONUSES.registration_template_id);
const CURRENCY = SITE.defaultCurrency;
const money = (minor: bigint) => formatMoney({ amount: minorToAmount(minor), currency: CURRENCY });

/** The player's casino bonuses as the server answers them (bonuses.get). */
async function casinoBonuses(page: Page): Promise<BonusView[]> {
  const answer = await apiCall<BonusPage>(page, 'GET', 'bonuses.get', { count: '50' });
  expect(answer.error).toBeUndefined();
  return answer.data!.items;
}

const bonusById = async (page: Page, id: number) => (await casinoBonuses(page)).find((bonus) => bonus.id === id)!;

async function openProfileBonuses(page: Page, base: string, locale: Locale): Promise<void> {
  await page.goto(`${base}${inLocale('/profile/bonuses', locale)}`);
  await waitForHydration(page);
}

/** The real-mode game client in its frame on the game page, hydrated. */
async function openRealSlot(page: Page, base: string, locale: Locale): Promise<Frame> {
  await page.goto(`${base}${inLocale(`/game/${SLOT}`, locale)}#real`);
  await waitForHydration(page);
  const frameElement = page.locator('iframe[data-game-frame="real"]');
  await expect.poll(() => frameElement.count(), POLL).toBe(1);
  const frame = (await (await frameElement.elementHandle())!.contentFrame())!;
  await waitForHydration(frame);
  await frame.locator('[data-action="spin"]').waitFor();
  return frame;
}

/** One spin from the slot's own button: waits for a round other than the last one shown. */
async function spin(frame: Frame): Promise<void> {
  const shown = frame.locator('[data-slot] [data-round]');
  const previous = (await shown.count()) > 0 ? await shown.getAttribute('data-round') : null;
  await frame.click('[data-action="spin"]');
  await expect.poll(async () => ((await shown.count()) > 0 ? shown.getAttribute('data-round') : null), POLL).not.toBe(previous);
}

/** What the player staked in real rounds of the slot, by the server's record of them. */
async function realStakesMinor(page: Page): Promise<bigint> {
  const rounds = await apiCall<{ mode: string; stake: { amount: string } }[]>(page, 'GET', 'games.getRounds', { sysname: SLOT });
  expect(rounds.error).toBeUndefined();
  return (rounds.data ?? [])
    .filter((round) => round.mode === 'real')
    .reduce((sum, round) => sum + amountToMinor(round.stake.amount), 0n);
}

describe('a bonus wagered through play', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  for (const locale of LOCALES) {
    it(`a deposit with the welcome offer makes the welcome bonus active at 0 %; slot spins move its wagering by stake × the slot's contribution (${locale})`, async () => {
      const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: ADDRESS_PREFIX });
      // The cashier takes whole units (spec §5 sum): the welcome minimum is one.
      const deposit = WELCOME.min_deposit![CURRENCY]!;
      await depositBySandboxCalls(page, base, String(amountToMinor(deposit) / 100n), WELCOME_OFFER);

      // Bonus active, wagering at 0 %, paying the template's share of the deposit.
      await openProfileBonuses(page, base, locale);
      const active = page.locator('.bonus-card[data-bonus-status="active"]');
      await expect.poll(() => active.locator('.bonus-card__title').textContent(), POLL).toBe(WELCOME.texts[locale]!.title);
      expect(await active.locator('.bonus-wagering').getAttribute('data-wagering-percent')).toBe('0');
      expect(await active.locator('[role="progressbar"]').getAttribute('aria-valuenow')).toBe('0');
      const granted = (amountToMinor(deposit) * BigInt(WELCOME.amount.percent!)) / 100n;
      expect(await active.locator('.bonus-card__amount').textContent()).toBe(money(granted));
      const bonusId = Number(await active.getAttribute('data-bonus-id'));

      // Spins at the bonus's maximum stake: the game bar shows the bonus balance the server holds.
      const frame = await openRealSlot(page, base, locale);
      await frame.selectOption('[data-slot] select[name="stake"]', WELCOME.max_stake[CURRENCY]!);
      for (let n = 0; n < SPINS; n++) await spin(frame);
      const played = await bonusById(page, bonusId);
      await expect
        .poll(() => frame.locator('[data-game-bonus-balance]').getAttribute('data-game-bonus-balance'), POLL)
        .toBe(played.balance.amount);
      expect(await frame.locator('[data-game-bonus-balance]').textContent()).toContain(
        money(amountToMinor(played.balance.amount)),
      );

      // Progress: the stakes the server recorded times the slot's contribution.
      const wagered = ((await realStakesMinor(page)) * BigInt(WELCOME.contributions.types.slot!)) / 100n;
      expect(wagered).toBeGreaterThan(0n);
      expect(amountToMinor(played.wagering.wagered.amount)).toBe(wagered);
      await openProfileBonuses(page, base, locale);
      const required = amountToMinor(played.wagering.required.amount);
      const percent = String((wagered * 100n) / required);
      await expect.poll(() => active.locator('.bonus-wagering').getAttribute('data-wagering-percent'), POLL).toBe(percent);
      expect(await active.locator('[role="progressbar"]').getAttribute('aria-valuenow')).toBe(percent);
      expect(await active.locator('.bonus-wagering__text').textContent()).toBe(
        tr(locale, 'bonus.wagering.progress', { wagered: money(wagered), required: money(required), percent }),
      );
      await page.setViewportSize({ width: 375, height: 812 });
      await screenshot(page, `bonus-wagering-progress-phone-${locale}`);
      await closeContext(context);
    });

    it(`on a phone the sign-up bonus, activated from the page and wagered to its requirement, converts into the main balance (${locale})`, async () => {
      const { context, page } = await signedUpPlayer(browser, locale, { addressPrefix: ADDRESS_PREFIX });
      await page.setViewportSize({ width: 375, height: 812 });
      // Real money without an offer pays the stakes, so the bonus is wagered without running dry.
      await depositBySandboxCalls(page, base, '60');

      await openProfileBonuses(page, base, locale);
      const waiting = page.locator('.bonus-card[data-bonus-status="available"]');
      await expect.poll(() => waiting.locator('.bonus-card__title').textContent(), POLL).toBe(SIGN_UP.texts[locale]!.title);
      await waiting.locator('[data-action="activate"]').click();
      const dialog = page.locator('.confirm');
      await expect
        .poll(() => dialog.locator('.dialog__title').textContent(), POLL)
        .toBe(tr(locale, 'bonus.confirm.activate.title'));
      await dialog.locator('.button--primary').click();
      const active = page.locator('.bonus-card[data-bonus-status="active"]');
      await expect.poll(() => active.count(), POLL).toBe(1);
      expect(await active.locator('.bonus-card__title').textContent()).toBe(SIGN_UP.texts[locale]!.title);
      await screenshot(page, `bonus-signup-active-phone-${locale}`);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);

      const bonusId = Number(await active.getAttribute('data-bonus-id'));
      const converted = await wagerToCompletion(page, bonusId, SIGN_UP);

      // In the history as converted, with the amount that became real money.
      await openProfileBonuses(page, base, locale);
      const row = page.locator(`.bonus-history__row[data-bonus-id="${bonusId}"]`);
      await expect.poll(() => row.getAttribute('data-bonus-status'), POLL).toBe('converted');
      expect(await row.locator('.bonus-history__status').textContent()).toBe(tr(locale, 'bonus.status.converted'));
      expect(await row.locator('.bonus-history__amount').textContent()).toBe(money(converted.amountMinor));
      expect(await page.locator('.bonus-card[data-bonus-status="active"]').count()).toBe(0);
      await screenshot(page, `bonus-signup-converted-phone-${locale}`);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);

      // The wallet shows the main balance the conversion left.
      await page.goto(`${base}${inLocale('/cashier/wallet', locale)}`);
      await waitForHydration(page);
      await expect
        .poll(() => page.locator('[data-wallet-balances] [data-balance-row="main"] dd').textContent(), POLL)
        .toBe(money(converted.mainAfterMinor));
      await closeContext(context);
    });
  }
});

/**
 * Plays 1.00 slot rounds through the page's API until the wagering requirement is met, then
 * checks the last round converted the bonus: its balance (real money paid every stake, so it is
 * what was granted) became real money up to the cap, and the main balance rose by exactly that
 * beside the round's own stake and payout.
 */
async function wagerToCompletion(
  page: Page,
  bonusId: number,
  terms: Template,
): Promise<{ amountMinor: bigint; mainAfterMinor: bigint }> {
  const stake = terms.max_stake[CURRENCY]!;
  const countedMinor = (amountToMinor(stake) * BigInt(terms.contributions.types.slot!)) / 100n;
  const before = await bonusById(page, bonusId);
  const remaining = amountToMinor(before.wagering.required.amount) - amountToMinor(before.wagering.wagered.amount);
  const rounds = Number((remaining + countedMinor - 1n) / countedMinor);
  expect(rounds).toBeGreaterThan(1);
  const play = (n: number) =>
    apiCall<{ round: { payout: { amount: string } } }>(page, 'POST', 'games.play', {
      sysname: SLOT,
      mode: 'real',
      bet: JSON.stringify({ stake }),
      request_id: `bonus-wagering-${bonusId}-${n}`,
    });
  for (let n = 0; n < rounds - 1; n++) expect((await play(n)).error).toBeUndefined();
  // One round short of the requirement: still active.
  const last = await bonusById(page, bonusId);
  expect(last.status).toBe('active');
  const mainBefore = await mainBalanceMinor(page);
  const final = await play(rounds - 1);
  expect(final.error).toBeUndefined();
  const mainAfter = await mainBalanceMinor(page);

  const ended = await bonusById(page, bonusId);
  expect(ended.status).toBe('converted');
  const amountMinor = amountToMinor(ended.converted!.amount);
  const cap = amountToMinor(ended.max_conversion!.amount);
  const balance = amountToMinor(last.balance.amount);
  expect(amountMinor).toBe(balance < cap ? balance : cap);
  expect(amountMinor).toBeGreaterThan(0n);
  const payout = amountToMinor(final.data!.round.payout.amount);
  expect(mainAfter - mainBefore).toBe(amountMinor - amountToMinor(stake) + payout);
  return { amountMinor, mainAfterMinor: mainAfter };
}
