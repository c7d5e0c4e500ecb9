/**
 * What the browser tests of the demo game aggregator's titles share (issue 15: "Browser tests in
 * en and /it play one game of each aggregator title type for real money and see it in history"):
 * opening a title's real-money client in the game page's frame, reading the rounds the client was
 * answered (what the round reported: its stake and win), a live table's state, and the checks that
 * the header, the wallet and the history agree with those rounds.
 */
import { expect } from 'vitest';
import type { Frame, Page, Response } from 'playwright-core';
import { formatMoney, minorToAmount } from '#common/money';
import type { GameHistoryItem } from '#common/contract';
import type { LiveState } from '../server/game-aggregator/tables/live-rooms';
import { waitForHydration, type BrowserFixture } from './browser';
import { apiCall, mainBalanceMinor, signedUpPlayer } from './page-api';
import { depositBySandboxCalls } from './sandbox-deposit';
import { inLocale, type Locale } from './site-facts';

export const AGGREGATOR_POLL = { timeout: 30_000 };

/**
 * One player for a file's tests, signed up and funded by a sandbox card deposit in the first test
 * that asks (expect.poll, which the deposit uses, runs only inside a test); the browser fixture
 * closes its context after the file.
 */
export function sharedFundedPlayer(
  browser: BrowserFixture,
  options: { addressPrefix: string; deposit: string },
): () => Promise<Page> {
  let player: Promise<Page> | undefined;
  return () =>
    (player ??= (async () => {
      const { page } = await signedUpPlayer(browser, 'en', { addressPrefix: options.addressPrefix });
      await depositBySandboxCalls(page, browser.baseUrl, options.deposit);
      return page;
    })());
}

/** Opens /game/{sysname}#real and returns the aggregator's game client frame once it has drawn its shell. */
export async function openRealGame(page: Page, base: string, locale: Locale, sysname: string): Promise<Frame> {
  await page.goto(`${base}${inLocale(`/game/${sysname}`, locale)}#real`);
  await waitForHydration(page);
  return realGameFrame(page);
}

/** The real-money game frame of the page, once the aggregator's client has drawn its shell. */
export async function realGameFrame(page: Page): Promise<Frame> {
  const frameElement = page.locator('iframe[data-game-frame="real"]');
  await frameElement.waitFor();
  const frame = (await (await frameElement.elementHandle())!.contentFrame())!;
  await frame.locator('#game .game__play').waitFor({ timeout: 30_000 });
  return frame;
}

/** One round as the aggregator answered the client: what it staked and paid over all its steps. */
export interface ReportedRound {
  id: string;
  done: boolean;
  stake: bigint;
  win: bigint;
}

interface RoundAnswerBody {
  round?: { id: string; done: boolean; stake: string; win: string };
}

/**
 * Records the aggregator's answers to the client's round calls (`POST /play/{session}/rounds` and
 * `…/rounds/{id}/actions`), summed per round: the round's own report of its stake and win.
 */
export function recordRounds(page: Page): { rounds(): Promise<ReportedRound[]> } {
  const answers: Promise<RoundAnswerBody | undefined>[] = [];
  const onResponse = (response: Response) => {
    const request = response.request();
    if (request.method() !== 'POST' || !/\/play\/[^/]+\/rounds(\/[^/]+\/actions)?$/.test(new URL(response.url()).pathname))
      return;
    answers.push(
      response.ok() ? (response.json() as Promise<RoundAnswerBody>).catch(() => undefined) : Promise.resolve(undefined),
    );
  };
  page.on('response', onResponse);
  return {
    async rounds() {
      const byId = new Map<string, ReportedRound>();
      for (const answer of await Promise.all(answers)) {
        if (!answer?.round) continue;
        const known = byId.get(answer.round.id) ?? { id: answer.round.id, done: false, stake: 0n, win: 0n };
        byId.set(answer.round.id, {
          id: known.id,
          done: answer.round.done,
          stake: known.stake + BigInt(answer.round.stake),
          win: known.win + BigInt(answer.round.win),
        });
      }
      return [...byId.values()];
    },
  };
}

/** Presses the shell's main button and waits until the client has shown the round (win meter and balance set). */
export async function playOneRound(frame: Frame): Promise<void> {
  await frame.click('.game__play');
  await frame.locator('#game:not(.is-playing)').waitFor({ timeout: 30_000 });
  // A refused round says why in the client: the test says it too.
  const error = frame.locator('.game__error');
  expect(await error.isHidden(), (await error.textContent()) ?? '').toBe(true);
}

/** The table's round as the client sees it (the aggregator's GET /play/{session}/live, from inside the frame). */
export const liveState = (frame: Frame) =>
  frame.evaluate(async () => (await (await fetch(`${location.pathname}/live`)).json()) as LiveState);

/** Waits for the table's betting window with more than `msLeft` to go (the clicks that follow need their seconds). */
export async function waitForBettingWindow(frame: Frame, msLeft = 5_000): Promise<void> {
  await expect
    .poll(
      async () => {
        const state = await liveState(frame);
        return state.round.phase === 'betting' && state.round.ms_left > msLeft;
      },
      { timeout: 60_000, interval: 400 },
    )
    .toBe(true);
}

/**
 * Bets the client's chip on `spot` in a betting window, through the client's own controls, and
 * answers the round the bet is in. A bet that reaches the table after its window closed (a busy
 * machine between the window check and the click) is refused, as the table's rule says; the player
 * bets again in the next window. Any other refusal fails with what the client said.
 */
export async function placeLiveBet(frame: Frame, spot: string, chip: bigint): Promise<string> {
  const said = frame.locator('.game__say');
  for (let attempt = 1; ; attempt++) {
    await waitForBettingWindow(frame);
    const windowRound = (await liveState(frame)).round.id;
    // The player bets when their screen shows the window: the client may still be dealing the last
    // round (its felt takes no spot then) until its next poll brings the new one.
    await frame.locator('#game[data-live-phase="betting"]').waitFor({ timeout: 30_000 });
    await said.evaluate((box) => (box.textContent = ''));
    await frame.click(`[data-spot="${spot}"]`);
    await frame.locator(`[data-spot="${spot}"].is-selected`).waitFor({ timeout: 10_000 });
    await frame.click('.game__play');
    // The client answers every bet aloud: placed, or refused and why.
    await expect.poll(async () => (await said.textContent()) !== '', AGGREGATOR_POLL).toBe(true);
    const state = await liveState(frame);
    if (state.bets.length > 0) {
      expect(state.bets).toEqual([{ spot, stake: chip.toString() }]);
      return state.round.id;
    }
    const windowPassed = state.round.id !== windowRound || state.round.phase !== 'betting';
    if (!windowPassed || attempt === 2)
      throw new Error(`the bet on ${spot} did not land; the client said: ${await said.textContent()}`);
  }
}

/**
 * Waits until the table has settled round `roundId` and the client shows its result (the frame's
 * phase mark alone may still be the previous round's until the client's next poll); answers the
 * settled state.
 */
export async function waitForResult(frame: Frame, roundId: string): Promise<LiveState> {
  await expect
    .poll(
      async () => {
        const state = await liveState(frame);
        return state.round.id === roundId ? state.round.phase : `past ${state.round.phase}`;
      },
      { timeout: 45_000, interval: 400 },
    )
    .toBe('result');
  await frame.locator('#game[data-live-phase="result"]').waitFor({ timeout: 10_000 });
  return liveState(frame);
}

/**
 * The money rule of a round (docs/game-aggregator.md "Money"): the player's main balance moved by
 * exactly stake − win as the round reported, in the wallet (account.getBalance), in the site's
 * header (the total, with no bonus money) and in the game's labelled balance.
 */
export async function expectBalanceMovedBy(page: Page, frame: Frame, before: bigint, stake: bigint, win: bigint): Promise<void> {
  const after = before - stake + win;
  await expect.poll(() => mainBalanceMinor(page), AGGREGATOR_POLL).toBe(after);
  const shown = formatMoney({ amount: minorToAmount(after), currency: 'EUR' });
  await expect.poll(() => page.locator('[data-balance-link] [data-balance]').first().textContent(), AGGREGATOR_POLL).toBe(shown);
  await expect.poll(() => frame.locator('.game__balance').getAttribute('data-balance'), AGGREGATOR_POLL).toBe(String(after));
}

/**
 * The history rule (issue 15: aggregator rounds in /profile/bets like in-house rounds): the
 * title's newest round in games.getHistory is settled with the stake and payout the round
 * reported, none of the player's rounds of the title is left open or rolled back, and
 * /profile/bets shows the row.
 */
export async function expectRoundInHistory(
  page: Page,
  base: string,
  locale: Locale,
  sysname: string,
  reported: { stake: bigint; win: bigint },
): Promise<void> {
  const history = await apiCall<{ items: GameHistoryItem[] }>(page, 'GET', 'games.getHistory', {
    sysname,
    offset: '0',
    count: '10',
  });
  expect(history.error).toBeUndefined();
  const items = history.data!.items.filter((item) => item.sysname === sysname);
  expect(items.map((item) => item.status)).toEqual(items.map(() => 'settled'));
  expect(items[0]).toMatchObject({
    kind: 'provider',
    status: 'settled',
    stake: { amount: minorToAmount(reported.stake) },
    payout: { amount: minorToAmount(reported.win) },
  });
  await page.goto(`${base}${inLocale('/profile/bets', locale)}`);
  await waitForHydration(page);
  const row = page.locator(`[data-game-history] [data-history-row="${items[0]!.id}"]`);
  await expect.poll(() => row.getAttribute('data-sysname'), AGGREGATOR_POLL).toBe(sysname);
}
