/**
 * European roulette in the game client (issue 5: the in-house games played from the game page),
 * in English and Italian, in demo: chips on a straight number and an outside bet, one spin, and
 * the shown pocket, colour, winning bets and payout are the server's round (games.verifyRound);
 * the fun balance moves by payout − stake. Inside bets on the lines, undo / clear / repeat, the
 * table maximum's clear error, and the upright board on a 360px wide screen.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { amountToMinor, formatMoney, minorToAmount, type Money } from '#common/money';
import { settleRoulette, type RouletteBet } from '#common/games/roulette';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeContext, useBrowser, waitForHydration } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { inLocale, tr, type Locale } from './site-facts';

const POLL = { timeout: 20_000 };
const LOCALES: Locale[] = ['en', 'it'];
const GAME = 'european-roulette';
/** The game's limits as the catalogue seeds them. */
const GAME_PARAMS = (
  JSON.parse(readFileSync(join(process.cwd(), 'content', 'shared', '_all', 'games', `${GAME}.json`), 'utf8')) as {
    game_params: { min_bet: string; max_bet: string };
  }
).game_params;

interface RoundAnswer {
  id: string;
  engine: string;
  mode: string;
  stake: Money;
  payout: Money;
  bet: { bets: { kind: RouletteBet['kind']; numbers?: number[]; index?: 1 | 2 | 3; stake: string }[] };
  outcome: {
    pocket: number;
    color: 'red' | 'black' | 'green';
    results: { isWin: boolean; payoutMinor: string }[];
    payoutMinor: string;
  };
}

/** The round as the server keeps it (games.verifyRound answers for a round whose seed is still secret too). */
async function serverRound(page: Page | Frame, id: string): Promise<RoundAnswer> {
  const answer = await apiCall<{ round: RoundAnswer }>(page, 'GET', 'games.verifyRound', { round_id: id });
  expect(answer.error).toBeUndefined();
  return answer.data!.round;
}

/** The first match's attribute, or null at once when nothing matches. */
const attributeOf = (frame: Frame | Page, selector: string, name: string) =>
  frame.locator(selector).evaluateAll((nodes, attribute) => nodes[0]?.getAttribute(attribute) ?? null, name);

const totalShown = (frame: Frame | Page) => attributeOf(frame, '[data-roulette] [data-total-stake]', 'data-total-stake');

/** Spins and returns the new round's id once the result is shown. */
async function spin(frame: Frame | Page, previousRound: string | null = null): Promise<string> {
  await frame.click('[data-roulette] [data-action="spin"]');
  await expect.poll(() => attributeOf(frame, '[data-roulette] [data-round]', 'data-round'), POLL).not.toBe(previousRound);
  return (await attributeOf(frame, '[data-roulette] [data-round]', 'data-round'))!;
}

describe('european roulette', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  const newPlayer = (locale: Locale): Promise<{ context: BrowserContext; page: Page }> =>
    signedUpPlayer(browser, locale, { addressPrefix: '10.84' });

  /** Opens /game/european-roulette (demo) and returns the game client's frame once it is hydrated. */
  async function openGame(page: Page, locale: Locale): Promise<Frame> {
    await page.goto(`${base}${inLocale(`/game/${GAME}`, locale)}`);
    await waitForHydration(page);
    const frameElement = page.locator('iframe[data-game-frame="demo"]');
    await expect.poll(() => frameElement.getAttribute('src'), POLL).toBe(inLocale(`/platform/game/${GAME}/demo`, locale));
    const frame = (await (await frameElement.elementHandle())!.contentFrame())!;
    await waitForClient(frame);
    return frame;
  }

  /** Hydrated, and the fairness panel has loaded the seed pair. */
  async function waitForClient(frame: Frame | Page): Promise<void> {
    await waitForHydration(frame);
    await frame.waitForFunction(
      () => /^[0-9a-f]{64}$/.test(document.querySelector('[data-server-seed-hash]')?.textContent ?? ''),
      undefined,
      { timeout: 15_000 },
    );
  }

  for (const locale of LOCALES) {
    it(`issue 5 (in-house games, european roulette): a straight number and an outside bet spin in demo; the shown pocket, winning bets and payout are the server's round and the fun balance moves by payout − stake (${locale})`, async () => {
      const { context, page } = await newPlayer(locale);
      const frame = await openGame(page, locale);
      expect(await frame.locator('[data-game-client]').getAttribute('data-engine')).toBe('roulette');
      expect(await frame.locator('[data-mode-label]').textContent()).toBe(tr(locale, 'gamePlay.mode.demo'));
      expect(await frame.locator('[data-roulette] [data-history]').textContent()).toBe(tr(locale, 'gamePlay.roulette.noHistory'));
      const before = Number(await attributeOf(frame, '[data-game-balance]', 'data-game-balance'));

      await frame.click('[data-chip="1.00"]');
      await frame.click('[data-bet="straight:17"]');
      await frame.click('[data-chip="5.00"]');
      await frame.click('[data-bet="red"]');
      expect(await frame.locator('[data-bet="straight:17"]').getAttribute('data-stake')).toBe('1.00');
      expect(await frame.locator('[data-bet="red"]').getAttribute('data-stake')).toBe('5.00');
      expect(await totalShown(frame)).toBe('6.00');

      const id = await spin(frame);
      const round = await serverRound(frame, id);
      expect(round.engine).toBe('roulette');
      expect(round.mode).toBe('demo');
      expect(round.stake.amount).toBe('6.00');
      expect(round.bet.bets).toEqual([
        { kind: 'straight', numbers: [17], stake: '1.00' },
        { kind: 'red', stake: '5.00' },
      ]);
      // The server's payout is the rules' (common/games/roulette.ts) for the pocket it drew.
      const rules = settleRoulette(
        round.bet.bets.map(({ stake, ...bet }) => ({ ...bet, stakeMinor: amountToMinor(stake) }) as RouletteBet),
        round.outcome.pocket,
      );
      expect(round.payout.amount).toBe(minorToAmount(rules.payoutMinor));

      // The pocket and its colour as shown.
      const { pocket, color } = round.outcome;
      expect(await frame.locator('[data-result-number]').getAttribute('data-result-number')).toBe(String(pocket));
      expect(await frame.locator('[data-result-number]').textContent()).toBe(String(pocket));
      expect(await frame.locator('[data-result-number]').getAttribute('data-result-color')).toBe(color);
      expect(await frame.locator('[data-result-text]').textContent()).toBe(
        tr(locale, 'gamePlay.roulette.landed', { number: pocket, color: tr(locale, `gamePlay.roulette.color.${color}`) }),
      );
      expect(await frame.locator(`[data-bet="straight:${pocket}"]`).getAttribute('class')).toContain('is-hit');
      // The winning bets are marked on the board and listed.
      expect(await frame.locator('[data-bet="straight:17"]').getAttribute('data-won')).toBe(
        String(round.outcome.results[0]!.isWin),
      );
      expect(await frame.locator('[data-bet="red"]').getAttribute('data-won')).toBe(String(round.outcome.results[1]!.isWin));
      expect(await frame.locator('[data-winning-bet]').count()).toBe(
        round.outcome.results.filter((result) => result.isWin).length,
      );
      // The payout as shown.
      const result = frame.locator('[data-roulette] [data-result]');
      expect(await result.getAttribute('data-payout')).toBe(round.payout.amount);
      const isWin = amountToMinor(round.payout.amount) > 0n;
      expect(await result.getAttribute('data-result')).toBe(isWin ? 'win' : 'loss');
      expect(await result.locator('strong').textContent()).toBe(
        isWin ? tr(locale, 'gamePlay.win', { amount: formatMoney(round.payout) }) : tr(locale, 'gamePlay.loss'),
      );
      expect(await frame.locator('[data-summary]').textContent()).toBe(
        tr(locale, 'gamePlay.roulette.summary', { stake: formatMoney(round.stake), payout: formatMoney(round.payout) }),
      );
      expect(await frame.locator('[data-total-stake]').textContent()).toBe(
        tr(locale, 'gamePlay.roulette.total', { amount: formatMoney(round.stake) }),
      );
      // The session's last results.
      expect(
        await frame
          .locator('[data-history-number]')
          .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-history-number'))),
      ).toEqual([String(pocket)]);
      // A new player's fun balance is topped up to 1 000.00 before the first demo stake.
      const expected = Math.max(before, 1000) - 6 + Number(round.payout.amount);
      await expect
        .poll(async () => Number(await attributeOf(frame, '[data-game-balance]', 'data-game-balance')), POLL)
        .toBeCloseTo(expected, 2);
      await closeContext(context);
    });
  }

  it('issue 5 (in-house games, european roulette): inside bets on the lines between numbers, undo, clear and repeat; a total above the table maximum gets the clear stake error (en)', async () => {
    const { context, page } = await newPlayer('en');
    const frame = await openGame(page, 'en');
    await frame.click('[data-chip="1.00"]');
    const spots = [
      'split:1-2',
      'split:0-1',
      'street:1-2-3',
      'street:0-2-3',
      'corner:1-2-4-5',
      'corner:0-1-2-3',
      'line:1-2-3-4-5-6',
      'dozen:2',
      'column:3',
      'odd',
    ];
    for (const spot of spots) await frame.click(`[data-bet="${spot}"]`);
    expect(await totalShown(frame)).toBe(`${spots.length}.00`);
    for (const spot of spots) expect(await frame.locator(`[data-bet="${spot}"]`).getAttribute('data-stake')).toBe('1.00');
    // Undo takes the last chip off; clear empties the board and undo puts it back.
    await frame.click('[data-action="undo"]');
    expect(await frame.locator('[data-bet="odd"]').getAttribute('data-stake')).toBeNull();
    expect(await totalShown(frame)).toBe(`${spots.length - 1}.00`);
    await frame.click('[data-action="clear-bets"]');
    expect(await totalShown(frame)).toBe('0.00');
    expect(await frame.locator('[data-action="spin"]').isDisabled()).toBe(true);
    await frame.click('[data-action="undo"]');
    expect(await totalShown(frame)).toBe(`${spots.length - 1}.00`);

    const id = await spin(frame);
    const round = await serverRound(frame, id);
    expect(round.stake.amount).toBe(`${spots.length - 1}.00`);
    expect(round.bet.bets.map((bet) => [bet.kind, bet.numbers ?? bet.index ?? null])).toEqual([
      ['split', [1, 2]],
      ['split', [0, 1]],
      ['street', [1, 2, 3]],
      ['street', [0, 2, 3]],
      ['corner', [1, 2, 4, 5]],
      ['corner', [0, 1, 2, 3]],
      ['line', [1, 2, 3, 4, 5, 6]],
      ['dozen', 2],
      ['column', 3],
    ]);
    expect(await frame.locator('[data-result-number]').getAttribute('data-result-number')).toBe(String(round.outcome.pocket));
    expect(await frame.locator('[data-roulette] [data-result]').getAttribute('data-payout')).toBe(round.payout.amount);

    // Repeat puts the last spin's bets back after a clear.
    await frame.click('[data-action="clear-bets"]');
    expect(await totalShown(frame)).toBe('0.00');
    await frame.click('[data-action="repeat"]');
    expect(await totalShown(frame)).toBe(`${spots.length - 1}.00`);
    expect(await frame.locator('[data-bet="corner:0-1-2-3"]').getAttribute('data-stake')).toBe('1.00');

    // The table limits are shown; a total above the maximum is refused with the clear text, no round.
    const { min_bet: minBet, max_bet: maxBet } = GAME_PARAMS;
    const currency = round.stake.currency;
    expect(await frame.locator('[data-limits]').textContent()).toBe(
      tr('en', 'gamePlay.roulette.limits', {
        min: formatMoney({ amount: minorToAmount(amountToMinor(minBet)), currency }),
        max: formatMoney({ amount: minorToAmount(amountToMinor(maxBet)), currency }),
      }),
    );
    await frame.click('[data-action="clear-bets"]');
    await frame.click('[data-chip="100.00"]');
    const clicks = Number(amountToMinor(maxBet) / 10_000n) + 1;
    for (let i = 0; i < clicks; i++) await frame.click('[data-bet="straight:5"]');
    expect(await totalShown(frame)).toBe(`${clicks * 100}.00`);
    expect(await frame.locator('[data-limit-hint]').count()).toBe(1);
    await frame.click('[data-action="spin"]');
    await expect.poll(() => frame.locator('[data-game-error]').textContent(), POLL).toBe(tr('en', 'gamePlay.error.stake'));
    expect(await attributeOf(frame, '[data-roulette] [data-round]', 'data-round')).toBe(id);
    await closeContext(context);
  });

  it('issue 5 (in-house games, european roulette): on a 360px wide screen the board stands upright, fits without sideways scrolling and plays (it)', async () => {
    const { context, page } = await browser.newPage({
      viewport: { width: 360, height: 740 },
      locale: 'it-IT',
      serviceWorkers: 'block',
      stepTimeoutMs: 20_000,
    });
    await page.goto(`${base}/it/platform/game/${GAME}/demo`);
    await waitForClient(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const board = (await page.locator('[data-roulette] [role="group"]').first().boundingBox())!;
    expect(board.x).toBeGreaterThanOrEqual(0);
    expect(board.x + board.width).toBeLessThanOrEqual(360);
    // Upright: 1, 2, 3 side by side in a row, 4 below 1.
    const one = (await page.locator('[data-bet="straight:1"]').boundingBox())!;
    const two = (await page.locator('[data-bet="straight:2"]').boundingBox())!;
    const four = (await page.locator('[data-bet="straight:4"]').boundingBox())!;
    expect(Math.abs(one.y - two.y)).toBeLessThan(2);
    expect(two.x).toBeGreaterThan(one.x);
    expect(four.y).toBeGreaterThan(one.y);
    await page.click('[data-chip="0.50"]');
    await page.click('[data-bet="split:17-20"]');
    await page.click('[data-bet="dozen:1"]');
    expect(await totalShown(page)).toBe('1.00');
    const id = await spin(page);
    const round = await serverRound(page, id);
    expect(await page.locator('[data-result-number]').getAttribute('data-result-number')).toBe(String(round.outcome.pocket));
    expect(await page.locator('[data-roulette] [data-result]').getAttribute('data-payout')).toBe(round.payout.amount);
    expect(await page.locator('[data-result-text]').textContent()).toBe(
      tr('it', 'gamePlay.roulette.landed', {
        number: round.outcome.pocket,
        color: tr('it', `gamePlay.roulette.color.${round.outcome.color}`),
      }),
    );
    // The result and the last results fit too (the fairness panel below is the game client's, not this component's).
    await page.locator('[data-fairness]').evaluate((node) => ((node as HTMLElement).style.display = 'none'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await closeContext(context);
  });
});
