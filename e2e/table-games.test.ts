/**
 * The stateful in-house games in the browser (issue 5: mines and blackjack, "a round interrupted
 * by a crash or a lost connection is resumed or settled, never lost"), in English and Italian, in
 * demo from the game page's frame: a mines round played to a cash-out or a mine with the whole
 * field shown at the end; a blackjack hand played with the buttons the server allows until it
 * settles; a reload in the middle of a mines round resumes it. Every expected number is read from
 * the server's answers (the games.start / games.act responses, games.getRounds).
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { formatMoney, minorToAmount, type Money } from '#common/money';
import { handTotal } from '#common/games/blackjack';
import { closeContext, useBrowser, waitForHydration } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { inLocale, tr, type Locale } from './site-facts';

const POLL = { timeout: 20_000 };
const LOCALES: Locale[] = ['en', 'it'];
const MINES = 'mines-field';
const BLACKJACK = 'blackjack-classic';
/** A new player's fun balance is topped up to this before a demo stake it cannot cover. */
const DEMO_CREDIT = 1000;

interface RoundAnswer {
  round: { id: string; status: string; stake: Money; payout: Money };
  game: Record<string, unknown> & { actions?: unknown[] };
  balance: Money | null;
}

/** The first match's attribute, or null at once when nothing matches. */
const attributeOf = (frame: Frame | Page, selector: string, name: string) =>
  frame.locator(selector).evaluateAll((nodes, attribute) => nodes[0]?.getAttribute(attribute) ?? null, name);
const amountOf = (text: string | null) => Number(text);
/** A minor-unit amount of the server's game view ("103") as a wire amount ("1.03"). */
const amountText = (minor: unknown) => minorToAmount(BigInt(String(minor)));
const balanceOf = (frame: Frame) => attributeOf(frame, '[data-game-balance]', 'data-game-balance').then(amountOf);

describe('mines and blackjack in the game client', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  const newPlayer = (locale: Locale): Promise<{ context: BrowserContext; page: Page }> =>
    signedUpPlayer(browser, locale, { addressPrefix: '10.81' });

  /** The demo game client's frame on the loaded game page, once its component has looked for an open round. */
  async function gameFrame(page: Page, locale: Locale, sysname: string, game: 'mines' | 'blackjack'): Promise<Frame> {
    await waitForHydration(page);
    const frameElement = page.locator('iframe[data-game-frame="demo"]');
    await expect.poll(() => frameElement.getAttribute('src'), POLL).toBe(inLocale(`/platform/game/${sysname}/demo`, locale));
    const frame = (await (await frameElement.elementHandle())!.contentFrame())!;
    await waitForHydration(frame);
    await frame.locator(`[data-${game}][data-ready="true"]`).waitFor();
    return frame;
  }

  async function openGame(page: Page, locale: Locale, sysname: string, game: 'mines' | 'blackjack'): Promise<Frame> {
    await page.goto(`${base}${inLocale(`/game/${sysname}`, locale)}`);
    return gameFrame(page, locale, sysname, game);
  }

  /** Clicks a control that sends `method`; returns the server's answer once the component has shown it. */
  async function send(
    page: Page,
    frame: Frame,
    game: 'mines' | 'blackjack',
    selector: string,
    method: 'games.start' | 'games.act',
  ): Promise<RoundAnswer> {
    const response = page.waitForResponse(
      (candidate) => candidate.url().includes(`/api/${method}?`) && candidate.request().method() === 'POST',
    );
    await frame.click(selector);
    const body = (await (await response).json()) as { data?: RoundAnswer; error?: unknown };
    expect(body.error).toBeUndefined();
    await frame.locator(`[data-${game}][data-busy="false"]`).waitFor();
    await expect.poll(() => attributeOf(frame, `[data-${game}]`, 'data-round-status'), POLL).toBe(body.data!.round.status);
    return body.data!;
  }

  const cellStates = (frame: Frame) =>
    frame.locator('[data-cell]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-cell-state') ?? ''));

  /** Opens closed cells from the first until the round can be cashed out or is lost; the last answer. */
  async function revealUntilGemOrMine(page: Page, frame: Frame): Promise<RoundAnswer> {
    for (let cell = 0; cell < 25; cell++) {
      if ((await attributeOf(frame, `[data-cell="${cell}"]`, 'data-cell-state')) !== 'closed') continue;
      const answer = await send(page, frame, 'mines', `[data-cell="${cell}"]`, 'games.act');
      expect(await attributeOf(frame, `[data-cell="${cell}"]`, 'data-cell-state')).toBe(
        answer.game.status === 'lost' ? 'boom' : 'gem',
      );
      return answer;
    }
    throw new Error('no closed cell left');
  }

  for (const locale of LOCALES) {
    it(`issue 5 (stateful mines): a demo round from the game page, cells revealed until cash-out is possible, then cashed out or lost; the whole field shows and the fun balance follows the server (${locale})`, async () => {
      const { context, page } = await newPlayer(locale);
      const frame = await openGame(page, locale, MINES, 'mines');
      expect(await frame.locator('[data-table-status]').textContent()).toBe(tr(locale, 'gamePlay.mines.idle'));
      expect(await frame.locator('[data-cell]').count()).toBe(25);
      const before = await balanceOf(frame);

      // A stake above the game's limit is refused with the clear text, and no round opens.
      await frame.fill('[data-mines] input[name="stake"]', '500.00');
      await frame.click('[data-action="start"]');
      await expect.poll(() => frame.locator('[data-game-error]').textContent(), POLL).toBe(tr(locale, 'gamePlay.error.stake'));
      expect(await attributeOf(frame, '[data-mines]', 'data-round-id')).toBe('');

      await frame.fill('[data-mines] input[name="stake"]', '1.00');
      await frame.selectOption('[data-mines] select[name="mines"]', '3');
      const started = await send(page, frame, 'mines', '[data-action="start"]', 'games.start');
      expect(started.round.status).toBe('open');
      expect(await frame.locator('[data-game-error]').count()).toBe(0);
      expect(await attributeOf(frame, '[data-mines]', 'data-round-id')).toBe(started.round.id);
      expect(await attributeOf(frame, '[data-mines]', 'data-mine-count')).toBe('3');
      expect(Number(started.balance?.amount)).toBeCloseTo(Math.max(before, DEMO_CREDIT) - Number(started.round.stake.amount), 2);
      await expect.poll(() => balanceOf(frame), POLL).toBeCloseTo(Number(started.balance?.amount), 2);
      // No cash-out before a gem; the next gem's payout is the server's.
      expect(await frame.locator('[data-action="cashout"]').isDisabled()).toBe(true);
      expect(await frame.locator('[data-action="cashout"]').textContent()).toBe(tr(locale, 'gamePlay.mines.cashOutFirst'));
      expect(await attributeOf(frame, '[data-next-payout]', 'data-next-payout')).toBe(amountText(started.game.nextPayoutMinor));

      const played = await revealUntilGemOrMine(page, frame);
      let settled = played;
      if (played.round.status === 'open') {
        // One gem: cash out is possible now, for what the server said the next gem would pay.
        const cashOut = frame.locator('[data-action="cashout"]');
        expect(await cashOut.isDisabled()).toBe(false);
        expect(await cashOut.textContent()).toBe(
          tr(locale, 'gamePlay.mines.cashOut', {
            amount: formatMoney({ amount: amountText(started.game.nextPayoutMinor), currency: started.round.stake.currency }),
          }),
        );
        expect(Number(await attributeOf(frame, '[data-multiplier]', 'data-multiplier'))).toBeGreaterThan(0);
        settled = await send(page, frame, 'mines', '[data-action="cashout"]', 'games.act');
        expect(settled.round.payout.amount).toBe(amountText(started.game.nextPayoutMinor));
        expect(await attributeOf(frame, '[data-mines]', 'data-mines-status')).toBe('cashed-out');
        expect(await frame.locator('[data-mines] [data-result]').getAttribute('data-result')).toBe('win');
      } else {
        expect(await attributeOf(frame, '[data-mines]', 'data-mines-status')).toBe('lost');
        expect(await frame.locator('[data-table-status]').textContent()).toBe(tr(locale, 'gamePlay.mines.lost'));
        expect(await frame.locator('[data-mines] [data-result]').getAttribute('data-result')).toBe('loss');
      }

      // The round is over: every cell shows what it was, the mines exactly where the server laid them.
      expect(settled.round.status).toBe('settled');
      const states = await cellStates(frame);
      expect(states).not.toContain('closed');
      const mines = settled.game.mines as number[];
      expect(mines).toHaveLength(3);
      expect(states.flatMap((state, cell) => (state === 'mine' || state === 'boom' ? [cell] : [])).sort((a, b) => a - b)).toEqual(
        [...mines].sort((a, b) => a - b),
      );
      expect(await frame.locator('[data-mines] [data-result]').getAttribute('data-payout')).toBe(settled.round.payout.amount);
      expect(Number(settled.balance?.amount)).toBeCloseTo(
        Number(started.balance?.amount) + Number(settled.round.payout.amount),
        2,
      );
      await expect.poll(() => balanceOf(frame), POLL).toBeCloseTo(Number(settled.balance?.amount), 2);
      // The recall list has the round, as the server settled it; a new round can start.
      const rounds = await apiCall<Array<{ id: string; payout: Money }>>(page, 'GET', 'games.getRounds', { sysname: MINES });
      expect(rounds.data?.[0]).toMatchObject({ id: settled.round.id, payout: settled.round.payout });
      await expect.poll(() => frame.locator(`[data-round-row]`).count(), POLL).toBeGreaterThan(0);
      expect(await frame.locator('[data-action="start"]').isDisabled()).toBe(false);
      expect(await frame.locator('[data-action="cashout"]').count()).toBe(0);
      await closeContext(context);
    });
  }

  for (const locale of LOCALES) {
    it(`issue 5 (stateful blackjack): a demo hand dealt from the game page and played with the buttons the server allows until it settles; totals, results and the payout shown (${locale})`, async () => {
      const { context, page } = await newPlayer(locale);
      const frame = await openGame(page, locale, BLACKJACK, 'blackjack');
      expect(await frame.locator('[data-table-status]').textContent()).toBe(tr(locale, 'gamePlay.blackjack.idle'));
      const before = await balanceOf(frame);
      await frame.fill('[data-blackjack] input[name="stake"]', '2.00');
      let answer = await send(page, frame, 'blackjack', '[data-action="deal"]', 'games.start');
      const started = answer;
      expect(Number(started.balance?.amount)).toBeCloseTo(
        Math.max(before, DEMO_CREDIT) - 2 + (started.round.status === 'settled' ? Number(started.round.payout.amount) : 0),
        2,
      );

      for (let step = 0; answer.round.status === 'open' && step < 20; step++) {
        // Exactly the actions the server allows are offered.
        const allowed = (answer.game.actions ?? []) as string[];
        const shown = await frame
          .locator('.blackjack__actions [data-action]')
          .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-action') ?? ''));
        expect([...shown].sort()).toEqual([...allowed].sort());
        // The hole card stays face down; the totals read the cards shown ("7/17" while soft).
        expect(await frame.locator('[data-dealer-hand] [data-card="hidden"]').count()).toBe(1);
        for (const hand of await frame.locator('[data-hand]').all()) {
          const cards = await hand
            .locator('[data-card]')
            .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-card') ?? ''));
          const { total, isSoft } = handTotal(cards);
          const isDone =
            (answer.game.hands as Array<{ isDone: boolean }>)[Number(await hand.getAttribute('data-hand'))]?.isDone ?? false;
          expect(await hand.locator('[data-total-text]').textContent()).toBe(
            isSoft && total < 21 && !isDone ? `${total - 10}/${total}` : String(total),
          );
        }
        const activeIndex = Number(answer.game.activeHand ?? 0);
        const active = (answer.game.hands as Array<{ cards: string[] }>)[activeIndex]!;
        const action = allowed.includes('no-insurance')
          ? 'no-insurance'
          : allowed.includes('hit') && handTotal(active.cards).total < 12
            ? 'hit'
            : 'stand';
        expect(await frame.locator(`[data-action="${action}"]`).textContent()).toBe(
          tr(locale, `gamePlay.blackjack.action.${action}`),
        );
        answer = await send(page, frame, 'blackjack', `[data-action="${action}"]`, 'games.act');
      }

      // Settled: the dealer's cards are all shown, each hand has its result, the payout is the server's.
      expect(answer.round.status).toBe('settled');
      expect(await frame.locator('[data-dealer-hand] [data-card="hidden"]').count()).toBe(0);
      expect(await frame.locator('.blackjack__actions').count()).toBe(0);
      const result = answer.game.result as { hands: Array<{ outcome: string; payoutMinor: string }>; dealerTotal: number };
      expect(Number(await attributeOf(frame, '[data-dealer-hand]', 'data-total'))).toBe(result.dealerTotal);
      for (const [index, hand] of result.hands.entries()) {
        const seat = frame.locator(`[data-hand="${index}"]`);
        expect(await seat.getAttribute('data-outcome')).toBe(hand.outcome);
        expect(await seat.getAttribute('data-hand-payout')).toBe(amountText(hand.payoutMinor));
        expect(await seat.locator('[data-hand-outcome]').textContent()).toContain(
          tr(locale, `gamePlay.blackjack.outcome.${hand.outcome}`),
        );
      }
      const shownResult = frame.locator('[data-blackjack] [data-result]');
      expect(await shownResult.getAttribute('data-payout')).toBe(answer.round.payout.amount);
      const payout = Number(answer.round.payout.amount);
      expect(await shownResult.locator('strong').textContent()).toBe(
        payout > 0
          ? tr(locale, 'gamePlay.blackjack.paid', { amount: formatMoney(answer.round.payout) })
          : tr(locale, 'gamePlay.loss'),
      );
      // Only hit, stand and no insurance were played: the stake is the opening one.
      expect(answer.round.stake.amount).toBe('2.00');
      expect(Number(answer.balance?.amount)).toBeCloseTo(Math.max(before, DEMO_CREDIT) - 2 + payout, 2);
      await expect.poll(() => balanceOf(frame), POLL).toBeCloseTo(Number(answer.balance?.amount), 2);
      const rounds = await apiCall<Array<{ id: string; payout: Money }>>(page, 'GET', 'games.getRounds', { sysname: BLACKJACK });
      expect(rounds.data?.[0]).toMatchObject({ id: answer.round.id, payout: answer.round.payout });
      expect(await frame.locator('[data-action="deal"]').isDisabled()).toBe(false);
      await closeContext(context);
    });
  }

  it('issue 5 (provably fair): a settled mines round is verified in the browser from its deal and recorded actions after the seeds are rotated; the open round shows no verify button (en)', async () => {
    const { context, page } = await newPlayer('en');
    const frame = await openGame(page, 'en', MINES, 'mines');
    await frame.fill('[data-mines] input[name="stake"]', '1.00');
    await frame.selectOption('[data-mines] select[name="mines"]', '3');
    const started = await send(page, frame, 'mines', '[data-action="start"]', 'games.start');
    const row = frame.locator(`[data-round-row="${started.round.id}"]`);
    await expect.poll(() => row.locator('[data-round-open]').count(), POLL).toBe(1);
    expect(await row.locator('[data-action="verify"]').count()).toBe(0);
    let answer = await revealUntilGemOrMine(page, frame);
    if (answer.round.status === 'open') answer = await send(page, frame, 'mines', '[data-action="cashout"]', 'games.act');
    expect(answer.round.status).toBe('settled');
    await frame.click('[data-action="rotate"]');
    await expect.poll(() => frame.locator('[data-previous-seed]').count(), POLL).toBe(1);
    await row.locator('[data-action="verify"]').click();
    await expect.poll(() => row.locator('[data-verified]').getAttribute('data-verified'), POLL).toBe('match');
    // Game recall: the field as it was played, the mines where the server laid them.
    await row.locator('[data-action="recall"]').click();
    const recalled = frame.locator(`[data-recall="${started.round.id}"] [data-recall-cell]`);
    await expect.poll(() => recalled.count(), POLL).toBe(25);
    const shown = await recalled.evaluateAll((nodes) =>
      nodes.flatMap((node, cell) => (['mine', 'boom'].includes(node.getAttribute('data-recall-cell') ?? '') ? [cell] : [])),
    );
    expect(shown).toEqual([...(answer.game.mines as number[])].sort((a, b) => a - b));
    await closeContext(context);
  });

  for (const locale of LOCALES) {
    it(`issue 5 (open rounds are resumed, never lost): reloading the page in the middle of a mines round shows the same round with its gems, and it plays on to the end (${locale})`, async () => {
      const { context, page } = await newPlayer(locale);
      let frame = await openGame(page, locale, MINES, 'mines');
      await frame.fill('[data-mines] input[name="stake"]', '1.00');
      await frame.selectOption('[data-mines] select[name="mines"]', '1');
      // One mine in 25: a round that hits it at once starts again until a gem is found.
      let open: RoundAnswer | undefined;
      for (let attempt = 0; attempt < 10 && !open; attempt++) {
        await send(page, frame, 'mines', '[data-action="start"]', 'games.start');
        const played = await revealUntilGemOrMine(page, frame);
        if (played.round.status === 'open') open = played;
      }
      expect(open).toBeDefined();
      const gems = open!.game.opened as number[];

      await page.reload();
      frame = await gameFrame(page, locale, MINES, 'mines');
      expect(await attributeOf(frame, '[data-mines]', 'data-round-id')).toBe(open!.round.id);
      expect(await attributeOf(frame, '[data-mines]', 'data-round-status')).toBe('open');
      expect(await frame.locator('[data-table-status]').textContent()).toBe(tr(locale, 'gamePlay.mines.resumed'));
      const states = await cellStates(frame);
      expect(states.flatMap((state, cell) => (state === 'gem' ? [cell] : []))).toEqual(gems);
      expect(states.filter((state) => state !== 'gem').every((state) => state === 'closed')).toBe(true);
      expect(await attributeOf(frame, '[data-mines]', 'data-mine-count')).toBe('1');
      expect(await frame.locator('[data-mines] input[name="stake"]').inputValue()).toBe(open!.round.stake.amount);

      // It plays on: the cash-out pays what the server answers, and the round settles.
      expect(await frame.locator('[data-action="cashout"]').isDisabled()).toBe(false);
      const cashed = await send(page, frame, 'mines', '[data-action="cashout"]', 'games.act');
      expect(cashed.round).toMatchObject({ id: open!.round.id, status: 'settled' });
      expect(await frame.locator('[data-mines] [data-result]').getAttribute('data-payout')).toBe(cashed.round.payout.amount);
      expect((await apiCall<{ round: null }>(page, 'GET', 'games.getOpenRound', { sysname: MINES })).data?.round).toBeNull();
      await closeContext(context);
    });
  }
});
