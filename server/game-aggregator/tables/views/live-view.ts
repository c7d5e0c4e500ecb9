/**
 * The LiveWave tables' view (kind `live-table`): one shared round for the whole table. It polls the
 * table's round (`GET /play/{session}/live`), shows the betting countdown, "no more bets" and the
 * result, and places bets (`POST …/live/bets`): tap a spot, choose the chip, press Bet. The round's
 * result is animated once per round (at once with reduced motion) and the seat's return is shown
 * in the shell's win meter, the labelled balance updated with it.
 */
import type { ClientView, ViewContext } from '../../client/view';
import { html } from '../../client/wait';
import { AUTO_ROULETTE_LIMITS } from '../auto-roulette';
import { LIGHTNING_WHEEL_LIMITS } from '../lightning-wheel';
import { LIVE_BACCARAT_LIMITS } from '../live-baccarat';
import { LIVE_BLACKJACK_LIMITS } from '../live-blackjack-vip';
import type { LiveState } from '../live-rooms';
import type { StakeLimits } from '../stakes';
import { liveBaccaratFelt } from './live-baccarat-felt';
import { blackjackFelt } from './live-blackjack-felt';
import { rouletteFelt } from './live-roulette-felt';
import { wheelFelt } from './live-wheel-felt';
import { stakeSteps } from './table-kit';

/** A live table's drawing: its bet spots and how it shows a round's outcome. */
export interface LiveFelt {
  element: HTMLElement;
  /** Marks the spot chosen for the next bet. */
  select(spot: string | undefined): void;
  /** Shows the seat's stakes per spot. */
  setBets(bets: ReadonlyMap<string, bigint>): void;
  /** Back to the betting look (a new round). */
  reset(): void;
  /** Animates the outcome; resolves when it is shown. */
  present(outcome: unknown): Promise<void>;
  /** One line that says the outcome. */
  describe(outcome: unknown): string;
  /** The spot's name for messages. */
  spotName(spot: string): string;
}

export type FeltFactory = (context: ViewContext, onSpot: (spot: string) => void) => LiveFelt;

const FELTS: Record<string, { felt: FeltFactory; limits: StakeLimits }> = {
  'live-baccarat': { felt: liveBaccaratFelt, limits: LIVE_BACCARAT_LIMITS },
  'auto-roulette': { felt: rouletteFelt, limits: AUTO_ROULETTE_LIMITS },
  'lightning-wheel': { felt: wheelFelt, limits: LIGHTNING_WHEEL_LIMITS },
  'live-blackjack-vip': { felt: blackjackFelt, limits: LIVE_BLACKJACK_LIMITS },
};

const POLL_MS = 1000;

class LiveError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

export function liveView(context: ViewContext, game: string): ClientView {
  const root = document.getElementById('game')!;
  const sessionId = root.dataset.session!;
  const setup = FELTS[game]!;
  let selected: string | undefined;
  let shownRound = '';
  let presentedRound = '';
  let state: LiveState | undefined;
  let deadline = 0;
  /** The betting window's length as first seen this round (the bar's full width). */
  let bettingWindow = 0;
  let busy = false;

  const header = html(`<div class="live__head">
    <span class="live__dot" aria-hidden="true"></span>
    <span class="live__round"></span>
    <span class="live__players"></span>
    <div class="live__clock" role="timer" aria-live="off"><span class="live__phase"></span><span class="live__bar"><span class="live__fill"></span></span></div>
  </div>`);
  const felt = setup.felt(context, (spot) => {
    selected = spot;
    felt.select(spot);
  });
  const mine = html(`<p class="live__mine" aria-live="polite"></p>`);
  context.stage.append(header, felt.element, mine);

  async function call(path: string, body?: unknown): Promise<LiveState> {
    let response: Response;
    try {
      response = await fetch(`/play/${sessionId}/live${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new LiveError('network');
    }
    const json = (await response.json().catch(() => ({}))) as LiveState & { error?: { code?: string } };
    if (!response.ok) throw new LiveError(json.error?.code ?? 'unknown');
    return json;
  }

  /** The shell's labelled balance (the bar's figure), kept in step with the table's answers. */
  function showBalance(minor: string) {
    const box = root.querySelector<HTMLElement>('.game__balance');
    if (!box) return;
    if (box.dataset.balance === minor) return;
    box.dataset.balance = minor;
    box.querySelector('.game__balance-value')!.textContent = context.money(minor);
    // The site's page refreshes its own balance display, as after the shell's rounds.
    if (root.dataset.siteOrigin && window.parent !== window)
      window.parent.postMessage({ type: 'game-balance-changed' }, root.dataset.siteOrigin);
  }

  function showBets(next: LiveState) {
    const bySpot = new Map<string, bigint>();
    for (const bet of next.bets) bySpot.set(bet.spot, (bySpot.get(bet.spot) ?? 0n) + BigInt(bet.stake));
    felt.setBets(bySpot);
    const total = [...bySpot.values()].reduce((sum, value) => sum + value, 0n);
    mine.textContent = total > 0n ? context.t('live.yourBets', { amount: context.money(total) }) : context.t('live.noBets');
  }

  function tickClock() {
    if (!state) return;
    const left = Math.max(0, deadline - Date.now());
    const phase = header.querySelector('.live__phase')!;
    const fill = header.querySelector<HTMLElement>('.live__fill')!;
    if (state.round.phase === 'betting') {
      phase.textContent = context.t('live.betting', { seconds: Math.ceil(left / 1000) });
      fill.style.width = `${bettingWindow > 0 ? Math.min(100, (left / bettingWindow) * 100) : 0}%`;
    } else if (state.round.phase === 'drawing') {
      phase.textContent = context.t('live.closed');
      fill.style.width = '0%';
    } else {
      phase.textContent = context.t('live.next', { seconds: Math.ceil(left / 1000) });
      fill.style.width = '0%';
    }
    root.dataset.livePhase = state.round.phase;
  }

  async function apply(next: LiveState) {
    state = next;
    deadline = Date.now() + next.round.ms_left;
    header.querySelector('.live__round')!.textContent = context.t('live.round', { round: next.round.number });
    header.querySelector('.live__players')!.textContent = context.t('live.players', { count: Math.max(1, next.players) });
    if (next.round.id !== shownRound) {
      shownRound = next.round.id;
      bettingWindow = next.round.phase === 'betting' ? next.round.ms_left : 0;
      if (next.round.phase === 'betting') {
        felt.reset();
        context.say('');
        await context.showWin(0n);
      }
    }
    showBets(next);
    tickClock();
    if (next.round.phase === 'result' && next.round.id !== presentedRound) {
      presentedRound = next.round.id;
      await felt.present(next.round.outcome);
      context.say(felt.describe(next.round.outcome));
      if (next.win !== null) {
        const win = BigInt(next.win);
        await context.showWin(win, context.t(win > 0n ? 'win.total' : 'win'));
      }
      showBalance(next.balance);
    } else if (next.round.phase !== 'result') showBalance(next.balance);
  }

  async function poll() {
    try {
      if (!busy) await apply(await call(''));
      root.querySelector('.live__offline')?.remove();
    } catch {
      if (!root.querySelector('.live__offline'))
        header.append(html(`<span class="live__offline" role="status">${context.t('live.connection')}</span>`));
    }
    setTimeout(poll, POLL_MS);
  }
  setInterval(tickClock, 250);
  void poll();

  function errorText(code: string): string {
    const text = context.t(`error.${code}`);
    return text === `error.${code}` ? context.t('error.unknown') : text;
  }

  return {
    actionKey: 'live.place',
    stakes: stakeSteps(setup.limits.minMinor, setup.limits.maxMinor),
    input(stake) {
      if (!selected) {
        context.say(context.t('tables.placeBet'));
        return undefined;
      }
      const spot = selected;
      busy = true;
      call('/bets', { input: { spot, stake: stake.toString() } })
        .then(async (next) => {
          busy = false;
          await apply(next);
          context.say(context.t('live.betPlaced', { spot: felt.spotName(spot), amount: context.money(stake) }));
        })
        .catch((error: unknown) => {
          busy = false;
          context.say(errorText(error instanceof LiveError ? error.code : 'unknown'));
        });
      // The bet goes to the table, not through the shell's round flow.
      return undefined;
    },
    async present() {},
  };
}
