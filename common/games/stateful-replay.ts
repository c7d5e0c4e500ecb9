/**
 * Mines and blackjack rounds played again from their seeds (architecture §6, issue 5): the deal,
 * each recorded action, the open-round rule for a round its player left, and the outcome a
 * settled round stores. Pure and shared: the game server plays rounds with it and the browser
 * verifies them with it, so a verification is the same code the round was played with.
 *
 * Errors are the engines' own: InvalidBetError for a bet the deal refuses, GameRuleError for an
 * action the rules refuse now.
 */
import { amountToMinor, minorToAmount } from '../money';
import {
  act as blackjackAct,
  availableActions,
  createShoe,
  deal,
  publicBlackjackView,
  resumeShoe,
  type BlackjackAction,
  type BlackjackState,
} from './blackjack';
import { GameRuleError } from './errors';
import { FairRng, type RoundSeeds } from './fair';
import { cashOutMines, openCell, publicMinesView, startMines, type MinesState } from './mines';

export const STATEFUL_ENGINES = ['mines', 'blackjack'] as const;
export type StatefulEngine = (typeof STATEFUL_ENGINES)[number];
export type StatefulState = MinesState | BlackjackState;

export function isStatefulEngine(engine: string | undefined): engine is StatefulEngine {
  return (STATEFUL_ENGINES as readonly string[]).includes(engine ?? '');
}

/** How a round ended: by the player's own actions, or by the open-round rule after a timeout. */
export type SettledBy = 'player' | 'timeout';

/** An action as a settled round records it. */
export interface ReplayAction {
  action: string;
  params: Record<string, unknown>;
}

/** Bigints as decimal strings: the JSON a round stores and shows. */
export function toJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)));
}

/** The round after the deal (mines: the field is laid; blackjack: four cards dealt). `normal` is the stored bet ("1.00" stakes). */
export function dealState(engine: StatefulEngine, normal: Record<string, unknown>, seeds: RoundSeeds): StatefulState {
  const stakeMinor = amountToMinor(String(normal.stake));
  if (engine === 'mines') return startMines({ stakeMinor, mineCount: Number(normal.mines) }, new FairRng(seeds));
  return deal({ stakeMinor }, createShoe(new FairRng(seeds)));
}

/** Applies one action in normal form; an action the rules refuse now throws GameRuleError. */
export function applyStatefulAction(
  engine: StatefulEngine,
  state: StatefulState,
  action: string,
  params: Record<string, unknown>,
  seeds: RoundSeeds,
): StatefulState {
  if (engine === 'mines') {
    const mines = state as MinesState;
    return action === 'reveal' ? openCell(mines, Number(params.cell)) : cashOutMines(mines);
  }
  const blackjack = state as BlackjackState;
  // Checked before the shoe is rebuilt: an out-of-turn action costs no shuffle.
  if (!availableActions(blackjack).includes(action as BlackjackAction))
    throw new GameRuleError(
      blackjack.phase === 'finished'
        ? 'action not allowed: the round is over'
        : `action not allowed: ${action} is not possible now`,
    );
  return blackjackAct(blackjack, action as BlackjackAction, resumeShoe(new FairRng(seeds), blackjack.cardsDrawn));
}

/** The state after the first `count` actions, from the seeds alone. */
export function replayActions(
  engine: StatefulEngine,
  normal: Record<string, unknown>,
  actions: readonly ReplayAction[],
  seeds: RoundSeeds,
  count = actions.length,
): StatefulState {
  let state = dealState(engine, normal, seeds);
  for (const recorded of actions.slice(0, count))
    state = applyStatefulAction(engine, state, recorded.action, recorded.params, seeds);
  return state;
}

export function statefulPayoutMinor(engine: StatefulEngine, state: StatefulState): bigint {
  return engine === 'mines' ? (state as MinesState).payoutMinor : ((state as BlackjackState).result?.payoutMinor ?? 0n);
}

/**
 * The open-round rule, applied to a round left open too long: blackjack answers "no insurance"
 * and stands until the round ends; mines cashes out what was opened. Returns the final state and
 * what it pays (mines with no cell opened: the stake back).
 */
export function settleByTimeout(
  engine: StatefulEngine,
  state: StatefulState,
  seeds: RoundSeeds,
): { state: StatefulState; payoutMinor: bigint; rule: 'stand' | 'cash-out' | 'refund' } {
  if (engine === 'mines') {
    const mines = state as MinesState;
    if (mines.status !== 'playing') return { state, payoutMinor: mines.payoutMinor, rule: 'cash-out' };
    if (mines.opened.length === 0) return { state, payoutMinor: mines.stakeMinor, rule: 'refund' };
    const cashed = cashOutMines(mines);
    return { state: cashed, payoutMinor: cashed.payoutMinor, rule: 'cash-out' };
  }
  let blackjack = state as BlackjackState;
  while (blackjack.phase !== 'finished') {
    const action: BlackjackAction = blackjack.phase === 'insurance' ? 'no-insurance' : 'stand';
    blackjack = blackjackAct(blackjack, action, resumeShoe(new FairRng(seeds), blackjack.cardsDrawn));
  }
  return { state: blackjack, payoutMinor: blackjack.result?.payoutMinor ?? 0n, rule: 'stand' };
}

/**
 * A settled round's outcome as stored and shown for recall: the final table, the actions in
 * order, how it ended and what it paid. Verification builds the same object from the seeds.
 */
export function settledOutcome(
  engine: StatefulEngine,
  state: StatefulState,
  actions: readonly (ReplayAction & { request_id?: string })[],
  settledBy: SettledBy,
  paid: bigint,
): Record<string, unknown> {
  const final =
    engine === 'mines'
      ? publicMinesView({
          ...(state as MinesState),
          status: (state as MinesState).status === 'playing' ? 'cashed-out' : (state as MinesState).status,
        })
      : publicBlackjackView(state as BlackjackState);
  return {
    ...(toJson(final) as Record<string, unknown>),
    actions: actions.map(({ action, params, request_id }) => ({ action, params, request_id })),
    settled_by: settledBy,
    payout: minorToAmount(paid),
  };
}

/** A settled round's outcome played again from its seeds and its stored actions. */
export function recomputeSettledOutcome(
  engine: StatefulEngine,
  normal: Record<string, unknown>,
  storedOutcome: unknown,
  seeds: RoundSeeds,
): Record<string, unknown> {
  const stored = (storedOutcome ?? {}) as { actions?: Array<ReplayAction & { request_id?: string }>; settled_by?: SettledBy };
  const actions = (stored.actions ?? []).map((item) => ({
    action: item.action,
    params: item.params ?? {},
    request_id: item.request_id,
  }));
  let state = replayActions(engine, normal, actions, seeds);
  let paid = statefulPayoutMinor(engine, state);
  const settledBy: SettledBy = stored.settled_by === 'timeout' ? 'timeout' : 'player';
  if (settledBy === 'timeout') ({ state, payoutMinor: paid } = settleByTimeout(engine, state, seeds));
  return settledOutcome(engine, state, actions, settledBy, paid);
}
