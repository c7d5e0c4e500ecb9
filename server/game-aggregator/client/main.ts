/**
 * The game client shell (docs/game-aggregator.md, "Client views"): reads the session, draws the
 * bar (game name, mode, labelled balance), the stake selector and the main button, plays rounds
 * through the aggregator's own API and hands each answer to the title's view. Sound stays off
 * (there is none); prefers-reduced-motion turns every animation into its end state.
 */
import { artDefs } from './art';
import { translator, type Language, type TextKey } from './i18n';
import type { ClientView, RoundAnswer, ViewContext, ViewFactory } from './view';
import { sleep } from './wait';
import { slotView } from './views/slot';
import { clusterView } from './views/cluster';
import { plinkoView } from './views/plinko';
import { kenoView } from './views/keno';
import { TABLE_VIEWS } from './views/tables';

/** The view of each title kind; the table kinds come from views/tables.ts. */
const VIEWS: Record<string, ViewFactory> = {
  slot: slotView,
  cluster: clusterView,
  plinko: plinkoView,
  keno: kenoView,
  ...TABLE_VIEWS,
};

interface State {
  game: string;
  kind: string;
  provider?: string;
  mode: 'real' | 'demo';
  language: Language;
  currency: string;
  return_url: string;
  balance: string;
  /** A round left unfinished (the page was reloaded mid-hand): the client picks it up. */
  open_round?: { id: string; view: unknown } | null;
  /** The last round played to its end: a view that shows finished rounds draws it again. */
  last_round?: { id: string; view: unknown; stake: string; win: string } | null;
}

class ApiError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

const root = document.getElementById('game')!;
const sessionId = root.dataset.session!;
const t = translator((root.dataset.language as Language) ?? 'en');

async function call<T>(path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/play/${sessionId}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('network');
  }
  const json = (await response.json().catch(() => ({}))) as { error?: { code?: string } };
  if (!response.ok) throw new ApiError(json.error?.code ?? 'unknown');
  return json as T;
}

function errorText(error: unknown): string {
  const code = error instanceof ApiError ? error.code : 'unknown';
  const text = t(`error.${code}`);
  return text === `error.${code}` ? t('error.unknown') : text;
}

async function main() {
  root.innerHTML = `${artDefs()}<p class="game__loading">${t('loading')}</p>`;
  let state: State;
  try {
    state = await call<State>('/state');
  } catch (error) {
    root.innerHTML = `<p class="game__error" role="alert">${errorText(error)}</p>`;
    return;
  }
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const money = (minor: string | bigint) => {
    const value = Number(BigInt(minor)) / 100;
    return new Intl.NumberFormat(state.language === 'it' ? 'it-IT' : 'en-GB', {
      style: 'currency',
      currency: state.currency,
    }).format(value);
  };
  const balanceLabel = t(state.mode === 'real' ? 'balance.real' : 'balance.demo');

  document.documentElement.dataset.game = state.game;
  root.dataset.game = state.game;
  root.dataset.kind = state.kind;
  root.innerHTML = `${artDefs()}
    <header class="game__bar">
      <div class="game__title"><h1>${t(`names.${state.game}`)}</h1><span class="game__studio">${state.provider ? t(`studio.${state.provider}`) : ''}</span></div>
      <span class="game__mode" data-mode="${state.mode}">${t(state.mode === 'real' ? 'mode.real' : 'mode.demo')}</span>
      <div class="game__balance" data-balance="${state.balance}"><span class="game__balance-label">${balanceLabel}</span> <strong class="game__balance-value">${money(state.balance)}</strong></div>
    </header>
    <section class="game__stage"></section>
    <p class="game__say" aria-live="polite"></p>
    <div class="game__meter" aria-live="polite"><span class="game__meter-label">${t('win')}</span> <strong class="game__meter-value" data-win="0">${money(0n)}</strong></div>
    <p class="game__error" role="alert" hidden></p>
    <footer class="game__controls">
      <div class="game__stake">
        <span class="game__stake-label">${t('stake')}</span>
        <button type="button" class="game__step" data-step="-1" aria-label="${t('stake.less')}">−</button>
        <output class="game__stake-value" data-stake></output>
        <button type="button" class="game__step" data-step="1" aria-label="${t('stake.more')}">+</button>
      </div>
      <div class="game__extra"></div>
      <button type="button" class="game__play" data-action="play"></button>
    </footer>`;

  const stage = root.querySelector<HTMLElement>('.game__stage')!;
  const balanceBox = root.querySelector<HTMLElement>('.game__balance')!;
  const balanceValue = root.querySelector<HTMLElement>('.game__balance-value')!;
  const meterLabel = root.querySelector<HTMLElement>('.game__meter-label')!;
  const meterValue = root.querySelector<HTMLElement>('.game__meter-value')!;
  const sayBox = root.querySelector<HTMLElement>('.game__say')!;
  const errorBox = root.querySelector<HTMLElement>('.game__error')!;
  const stakeBox = root.querySelector<HTMLOutputElement>('[data-stake]')!;
  const playButton = root.querySelector<HTMLButtonElement>('[data-action="play"]')!;
  let shownWin = 0n;
  let stakeIndex = 0;
  let busy = false;

  function setBalance(minor: string) {
    balanceBox.dataset.balance = minor;
    balanceValue.textContent = money(minor);
  }

  function showError(error: unknown) {
    errorBox.hidden = false;
    errorBox.textContent = errorText(error);
  }

  async function showWin(minor: bigint, label: string = t('win')) {
    meterLabel.textContent = label;
    const from = shownWin;
    shownWin = minor;
    meterValue.dataset.win = minor.toString();
    root.classList.toggle('has-win', minor > 0n);
    if (reducedMotion || minor <= from) {
      meterValue.textContent = money(minor);
      return;
    }
    const duration = Math.min(1500, 400 + Number(minor - from) / 20);
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const frame = (time: number) => {
        const progress = Math.min(1, (time - started) / duration);
        meterValue.textContent = money(from + BigInt(Math.round(Number(minor - from) * progress)));
        if (progress < 1) requestAnimationFrame(frame);
        else resolve();
      };
      requestAnimationFrame(frame);
    });
  }

  const context: ViewContext = {
    stage,
    controls: root.querySelector<HTMLElement>('.game__extra')!,
    t,
    money,
    reducedMotion,
    stake: () => view.stakes[stakeIndex]!,
    async act(roundId, input) {
      try {
        const answer = await call<RoundAnswer>(`/rounds/${encodeURIComponent(roundId)}/actions`, { input });
        setBalance(answer.balance);
        return answer;
      } catch (error) {
        showError(error);
        return undefined;
      }
    },
    setBalance,
    showWin,
    say: (text) => (sayBox.textContent = text),
    pause: (ms) => (reducedMotion ? Promise.resolve() : sleep(ms)),
  };
  const factory = VIEWS[state.kind];
  if (!factory) {
    root.innerHTML = `<p class="game__error" role="alert">${t('error.unknown')}</p>`;
    return;
  }
  const view: ClientView = factory(context, state.game);
  playButton.textContent = t(view.actionKey as TextKey);
  if (view.hidesMainButton) {
    playButton.hidden = true;
    root.querySelector<HTMLElement>('.game__stake')!.hidden = true;
  }

  function showStake() {
    stakeBox.textContent = money(view.stakes[stakeIndex]!);
    stakeBox.dataset.stake = view.stakes[stakeIndex]!.toString();
  }
  showStake();
  root.querySelectorAll<HTMLButtonElement>('.game__step').forEach((button) =>
    button.addEventListener('click', () => {
      stakeIndex = Math.max(0, Math.min(view.stakes.length - 1, stakeIndex + Number(button.dataset.step)));
      showStake();
    }),
  );

  /** Shows a round from its (first) answer to its end, the main button held meanwhile. */
  async function playRound(answering: () => Promise<RoundAnswer>) {
    busy = true;
    root.classList.add('is-playing');
    playButton.disabled = true;
    errorBox.hidden = true;
    await showWin(0n);
    try {
      const answer = await answering();
      // The stake leaves the balance at once; the win joins it when the round has been shown.
      setBalance((BigInt(answer.balance) - BigInt(answer.round.win)).toString());
      await view.present(answer);
      const win = BigInt(answer.round.win);
      await showWin(win, t(win > 0n ? 'win.total' : 'win'));
      if (win === 0n && answer.round.done) context.say(t('win.none'));
      setBalance(answer.balance);
      // The site's page refreshes its own balance display.
      if (root.dataset.siteOrigin && window.parent !== window)
        window.parent.postMessage({ type: 'game-balance-changed' }, root.dataset.siteOrigin);
    } catch (error) {
      showError(error);
    } finally {
      busy = false;
      root.classList.remove('is-playing');
      playButton.disabled = false;
    }
  }

  playButton.addEventListener('click', () => {
    if (busy) return;
    const input = view.input(view.stakes[stakeIndex]!);
    if (input === undefined) return;
    void playRound(() => call<RoundAnswer>('/rounds', { input }));
  });

  // Back after a reload: the unfinished round goes on where it stopped (its stake is already
  // taken); else a finished one is shown as it ended, moving nothing.
  const { open_round: openRound, last_round: lastRound } = state;
  if (openRound)
    void playRound(async () => ({
      round: { id: openRound.id, done: false, view: openRound.view, stake: '0', win: '0' },
      balance: state.balance,
    }));
  else if (lastRound && view.showsLastRound) {
    busy = true;
    playButton.disabled = true;
    await view.present({ round: { ...lastRound, done: true }, balance: state.balance });
    await showWin(BigInt(lastRound.win), t(BigInt(lastRound.win) > 0n ? 'win.total' : 'win'));
    busy = false;
    playButton.disabled = false;
  }
}

void main();
