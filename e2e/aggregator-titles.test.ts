/**
 * Every aggregator title each player plays alone, for real money in the game page's frame (issue
 * 15: "Every listed game plays…"; "Browser tests in en and /it play one game of each aggregator
 * title type for real money and see it in history"): the cluster slot, Plinko, Keno, Three Card
 * Poker and the slots besides Fox Fortune (e2e/aggregator-games.test.ts), each played through the
 * client's own controls. Each test checks the money rule (the balance moves by exactly stake − win
 * as the round reported, in the header, the wallet and the game) and the history rule (the round is
 * in games.getHistory and on /profile/bets). One funded player plays them all, one title per test.
 */
import { describe, expect, it } from 'vitest';
import type { Frame } from 'playwright-core';
import { screenshot, useBrowser } from './browser';
import { mainBalanceMinor } from './page-api';
import type { Locale } from './site-facts';
import {
  expectBalanceMovedBy,
  expectRoundInHistory,
  openRealGame,
  playOneRound,
  realGameFrame,
  recordRounds,
  sharedFundedPlayer,
  type ReportedRound,
} from './aggregator-play';

describe('aggregator player titles for real money, through their own controls', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;
  const player = sharedFundedPlayer(browser, { addressPrefix: '10.97', deposit: '100' });

  /**
   * Opens the title, lets `play` drive one round with the client's controls, and checks the
   * money and history rules against the round the aggregator reported.
   */
  async function playsForRealMoney(
    locale: Locale,
    sysname: string,
    play: (frame: Frame) => Promise<void>,
  ): Promise<ReportedRound> {
    const page = await player();
    const before = await mainBalanceMinor(page);
    const recorder = recordRounds(page);
    const frame = await openRealGame(page, base, locale, sysname);
    expect(await frame.locator('.game__mode').getAttribute('data-mode')).toBe('real');
    await play(frame);
    const rounds = await recorder.rounds();
    expect(rounds).toHaveLength(1);
    const round = rounds[0]!;
    expect(round.done).toBe(true);
    expect(round.stake).toBeGreaterThan(0n);
    expect(await frame.locator('.game__meter-value').getAttribute('data-win')).toBe(round.win.toString());
    await expectBalanceMovedBy(page, frame, before, round.stake, round.win);
    await screenshot(page, `aggregator-${sysname}-${locale}`);
    await expectRoundInHistory(page, base, locale, sysname, round);
    return round;
  }

  it('sugar-blast (cluster slot): a spin at the second stake moves the balance by stake − win and shows in history (en)', async () => {
    const round = await playsForRealMoney('en', 'sugar-blast', async (frame) => {
      await frame.click('.game__step[data-step="1"]');
      expect(await frame.locator('[data-stake]').getAttribute('data-stake')).toBe('50');
      await playOneRound(frame);
      expect(await frame.locator('.cluster__cell').count()).toBe(30);
    });
    expect(round.stake).toBe(50n);
  });

  it('plinko-drop: a high-risk drop moves the balance by stake − win and shows in history (it)', async () => {
    await playsForRealMoney('it', 'plinko-drop', async (frame) => {
      await frame.check('input[name="risk"][value="high"]');
      await playOneRound(frame);
      expect(await frame.locator('.plinko__slot.is-hit').count()).toBe(1);
    });
  });

  it('snowball-keno: a draw on the player’s own picks moves the balance by stake − win and shows in history (en)', async () => {
    await playsForRealMoney('en', 'snowball-keno', async (frame) => {
      await frame.click('[data-tool="clear"]');
      for (const number of [1, 9, 17, 33]) await frame.click(`.keno__ball[data-number="${number}"]`);
      expect(await frame.locator('.keno__ball.is-picked').count()).toBe(4);
      await playOneRound(frame);
      expect(await frame.locator('.keno__ball.is-drawn').count()).toBe(10);
    });
  });

  it('three-card-poker: ante and pair plus, then Play, moves the balance by all stakes − all returns and shows in history (it)', async () => {
    const round = await playsForRealMoney('it', 'three-card-poker', async (frame) => {
      await frame.check('input[name="pair-plus"]');
      await frame.click('.game__play');
      await frame.locator('.tcp__decision').waitFor({ state: 'visible' });
      await frame.click('.tcp__play');
      await frame.locator('#game:not(.is-playing)').waitFor();
      expect(await frame.locator('[data-row="dealer"] .tcard').count()).toBe(3);
    });
    // Ante, pair plus and the play bet: the table's minimum three times.
    expect(round.stake).toBe(300n);
  });

  it('three-card-poker, reloaded mid-hand: the hand resumes at the decision and settles at once; reloaded after it, the finished hand shows (issue 15 defect "waits for the timeout")', async () => {
    const page = await player();
    const before = await mainBalanceMinor(page);
    const recorder = recordRounds(page);
    let frame = await openRealGame(page, base, 'en', 'three-card-poker');
    await frame.click('.game__play');
    await frame.locator('.tcp__decision').waitFor({ state: 'visible' });
    const cards = await frame.locator('[data-row="player"] .tcard svg').evaluateAll((svgs) => svgs.map((svg) => svg.outerHTML));

    await page.reload();
    frame = await realGameFrame(page);
    // The same hand, waiting for the decision: not an empty table with the ante gone.
    await frame.locator('.tcp__decision').waitFor({ state: 'visible', timeout: 10_000 });
    expect(await frame.locator('[data-row="player"] .tcard svg').evaluateAll((svgs) => svgs.map((svg) => svg.outerHTML))).toEqual(
      cards,
    );
    await frame.click('.tcp__fold');
    await frame.locator('#game:not(.is-playing)').waitFor();
    const rounds = await recorder.rounds();
    expect(rounds).toHaveLength(1);
    expect(rounds[0]).toMatchObject({ done: true, stake: 100n });
    await expectBalanceMovedBy(page, frame, before, rounds[0]!.stake, rounds[0]!.win);

    // After the hand: the finished hand is on the table again, and nothing moves.
    const result = await frame.locator('.table-result').textContent();
    await page.reload();
    frame = await realGameFrame(page);
    await expect.poll(() => frame.locator('.table-result').textContent(), { timeout: 10_000 }).toBe(result);
    expect(await frame.locator('[data-row="dealer"] .tcard').count()).toBe(3);
    expect(await frame.locator('.tcp__decision').isHidden()).toBe(true);
    await expectBalanceMovedBy(page, frame, before, rounds[0]!.stake, rounds[0]!.win);
    await expectRoundInHistory(page, base, 'en', 'three-card-poker', rounds[0]!);
  });

  // The five slots besides Fox Fortune share the slot client: one spin each at the lowest stake.
  const SLOTS = [
    ['red-hot-sevens', 'en'],
    ['frozen-fjord', 'it'],
    ['midnight-aurora', 'en'],
    ['viking-gold', 'it'],
    ['polar-pearls', 'en'],
  ] as const;
  it.each(SLOTS)('%s (slot): a spin moves the balance by stake − win and shows in history (%s)', async (sysname, locale) => {
    await playsForRealMoney(locale, sysname, async (frame) => {
      expect(await frame.locator('.reel__cell svg').count()).toBe(15);
      await playOneRound(frame);
    });
  });
});
