/**
 * The stateful in-house games (mines, blackjack) as the round service plays them: a bet read
 * from the player's JSON, a round opened on the fair stream of its nonce, actions applied one
 * request at a time, and the rule that settles a round its player left open (issue 5: "a round
 * interrupted by a crash or a lost connection is resumed or settled, never lost").
 *
 * Pure: everything a round draws comes from HMAC(server seed, client seed:nonce), so the state
 * after any number of actions is a function of the seeds, the bet and the actions. Verification
 * (and the answer to a replayed request) plays the recorded actions again on the revealed seeds.
 *
 * Abandoned rounds (docs/games-rtp.md, "Open rounds"): blackjack declines insurance and stands
 * on every hand left (the dealer then plays by the house rule); mines cashes out the safe cells
 * opened, or refunds the stake when no cell was opened.
 */
import { z } from 'zod';
import { minorToAmount } from '#common/money';
import { act as blackjackAct, availableActions, deal, publicBlackjackView, resumeShoe, createShoe, type BlackjackAction, type BlackjackState } from '#common/games/blackjack';
import { GameRuleError, InvalidBetError } from '#common/games/errors';
import { FairRng, type RoundSeeds } from '#common/games/fair';
import { cashOutMines, openCell, publicMinesView, startMines, type MinesState } from '#common/games/mines';
import { BetParamError, outcomeJson, parseStake } from './engines';

export const STATEFUL_ENGINES = ['mines', 'blackjack'] as const;
export type StatefulEngine = (typeof STATEFUL_ENGINES)[number];

export function isStatefulEngine(engine: string | undefined): engine is StatefulEngine {
  return (STATEFUL_ENGINES as readonly string[]).includes(engine ?? '');
}

export const MINES_ACTIONS = ['reveal', 'cashout'] as const;
export const BLACKJACK_ACTIONS = ['hit', 'stand', 'double', 'split', 'insurance', 'no-insurance'] as const;

/** An action the round refuses: `action` (out of turn, unknown) or `params` (a bad cell). */
export class ActionError extends Error {
  constructor(
    readonly field: 'action' | 'params',
    message: string,
  ) {
    super(message);
  }
}

/** How a round ended: by the player's own actions, or by the open-round rule after a timeout. */
export type SettledBy = 'player' | 'timeout';

/** One applied action as recorded with the round (request id and request hash for replays). */
export interface RecordedAction {
  action: string;
  params: Record<string, unknown>;
  request_id: string;
  request_hash: string;
}

type EngineState = MinesState | BlackjackState;

const amount = z.union([z.string().max(20), z.number()]);
const minesBetSchema = z.object({ stake: amount, mines: z.number().int() }).strict();
const blackjackBetSchema = z.object({ stake: amount }).strict();
const revealParams = z.object({ cell: z.number().int().min(0).max(24) }).strict();
const noParams = z.object({}).strict();

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BetParamError('bet', 'the bet must be JSON');
  }
}

function schemaParse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const isStake = result.error.issues.some((issue) => issue.path.at(-1) === 'stake');
    throw new BetParamError(isStake ? 'stake' : 'bet', result.error.issues[0]?.message ?? 'invalid bet');
  }
  return result.data;
}

/** A stateful bet ready to open: its opening stake, normal form (stored, hashed), and the deal. */
export interface PreparedStatefulBet {
  stakeMinor: bigint;
  normal: Record<string, unknown>;
}

/** Reads and checks a bet (JSON text or a parsed value); throws BetParamError. */
export function prepareStatefulBet(engine: StatefulEngine, bet: string | unknown): PreparedStatefulBet {
  const raw = typeof bet === 'string' ? parseJson(bet) : bet;
  if (engine === 'mines') {
    const parsed = schemaParse(minesBetSchema, raw);
    const stakeMinor = parseStake(parsed.stake);
    if (parsed.mines < 1 || parsed.mines > 24) throw new BetParamError('bet', 'choose from 1 to 24 mines');
    return { stakeMinor, normal: { stake: minorToAmount(stakeMinor), mines: parsed.mines } };
  }
  const parsed = schemaParse(blackjackBetSchema, raw);
  const stakeMinor = parseStake(parsed.stake);
  return { stakeMinor, normal: { stake: minorToAmount(stakeMinor) } };
}

function normalStake(normal: Record<string, unknown>): bigint {
  return parseStake(normal.stake);
}

/** The round as it stands after the deal (mines: the field is laid; blackjack: four cards dealt). */
export function startState(engine: StatefulEngine, normal: Record<string, unknown>, seeds: RoundSeeds): EngineState {
  try {
    if (engine === 'mines') return startMines({ stakeMinor: normalStake(normal), mineCount: Number(normal.mines) }, new FairRng(seeds));
    return deal({ stakeMinor: normalStake(normal) }, createShoe(new FairRng(seeds)));
  } catch (error) {
    if (error instanceof InvalidBetError) throw new BetParamError('bet', error.message);
    throw error;
  }
}

/** Checks an action's name and parameters; returns them in normal form. */
export function normalAction(engine: StatefulEngine, action: string, params: unknown): { action: string; params: Record<string, unknown> } {
  const names: readonly string[] = engine === 'mines' ? MINES_ACTIONS : BLACKJACK_ACTIONS;
  if (!names.includes(action)) throw new ActionError('action', `unknown action ${action}; this game knows ${names.join(', ')}`);
  const schema = engine === 'mines' && action === 'reveal' ? revealParams : noParams;
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) throw new ActionError('params', parsed.error.issues[0]?.message ?? 'invalid parameters');
  return { action, params: parsed.data as Record<string, unknown> };
}

/** Applies one (normal) action; an action the rules refuse now throws ActionError('action'). */
export function applyAction(engine: StatefulEngine, state: EngineState, action: string, params: Record<string, unknown>, seeds: RoundSeeds): EngineState {
  try {
    if (engine === 'mines') {
      const mines = state as MinesState;
      return action === 'reveal' ? openCell(mines, Number(params.cell)) : cashOutMines(mines);
    }
    const blackjack = state as BlackjackState;
    // Checked before the shoe is rebuilt: an out-of-turn action costs no shuffle.
    if (!availableActions(blackjack).includes(action as BlackjackAction)) throw new GameRuleError(blackjack.phase === 'finished' ? 'action not allowed: the round is over' : `action not allowed: ${action} is not possible now`);
    return blackjackAct(blackjack, action as BlackjackAction, resumeShoe(new FairRng(seeds), blackjack.cardsDrawn));
  } catch (error) {
    if (error instanceof GameRuleError) throw new ActionError('action', error.message);
    throw error;
  }
}

export function isOver(engine: StatefulEngine, state: EngineState): boolean {
  return engine === 'mines' ? (state as MinesState).status !== 'playing' : (state as BlackjackState).phase === 'finished';
}

/** Everything staked so far: the opening bet plus doubles, the split and insurance. */
export function totalStakeMinor(engine: StatefulEngine, state: EngineState): bigint {
  return engine === 'mines' ? (state as MinesState).stakeMinor : (state as BlackjackState).totalStakeMinor;
}

export function payoutMinor(engine: StatefulEngine, state: EngineState): bigint {
  return engine === 'mines' ? (state as MinesState).payoutMinor : ((state as BlackjackState).result?.payoutMinor ?? 0n);
}

/**
 * The open-round rule, applied to a round left open too long: blackjack answers "no insurance"
 * and stands until the round ends; mines cashes out what was opened. Returns the final state and
 * what it pays (mines with no cell opened: the stake back).
 */
export function settleByTimeout(engine: StatefulEngine, state: EngineState, seeds: RoundSeeds): { state: EngineState; payoutMinor: bigint; rule: 'stand' | 'cash-out' | 'refund' } {
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

/** What the player may see of a round now (never the mines or the hole card while it is open). */
export function publicView(engine: StatefulEngine, state: EngineState): Record<string, unknown> {
  const view = engine === 'mines' ? publicMinesView(state as MinesState) : publicBlackjackView(state as BlackjackState);
  return outcomeJson(view) as Record<string, unknown>;
}

/**
 * A settled round's outcome as stored and shown for recall: the final table, the actions in
 * order, how it ended and what it paid. Verification builds the same object from the seeds.
 */
export function settledOutcome(engine: StatefulEngine, state: EngineState, actions: readonly RecordedAction[], settledBy: SettledBy, paid: bigint): Record<string, unknown> {
  const final = engine === 'mines' ? publicMinesView({ ...(state as MinesState), status: (state as MinesState).status === 'playing' ? 'cashed-out' : (state as MinesState).status }) : publicBlackjackView(state as BlackjackState);
  return {
    ...(outcomeJson(final) as Record<string, unknown>),
    actions: actions.map(({ action, params, request_id }) => ({ action, params, request_id })),
    settled_by: settledBy,
    payout: minorToAmount(paid),
  };
}

/** The state after the first `count` recorded actions, from the seeds alone. */
export function replayActions(engine: StatefulEngine, normal: Record<string, unknown>, actions: ReadonlyArray<Pick<RecordedAction, 'action' | 'params'>>, seeds: RoundSeeds, count = actions.length): EngineState {
  let state = startState(engine, normal, seeds);
  for (const recorded of actions.slice(0, count)) state = applyAction(engine, state, recorded.action, recorded.params, seeds);
  return state;
}

/** A settled round's outcome played again from its seeds (games.verifyRound). */
export function recomputeOutcome(engine: StatefulEngine, normal: Record<string, unknown>, storedOutcome: unknown, seeds: RoundSeeds): Record<string, unknown> {
  const stored = (storedOutcome ?? {}) as { actions?: RecordedAction[]; settled_by?: SettledBy };
  const actions = (stored.actions ?? []).map((item) => ({ action: item.action, params: item.params ?? {}, request_id: item.request_id, request_hash: '' }));
  let state = replayActions(engine, normal, actions, seeds);
  let paid = payoutMinor(engine, state);
  const settledBy: SettledBy = stored.settled_by === 'timeout' ? 'timeout' : 'player';
  if (settledBy === 'timeout') ({ state, payoutMinor: paid } = settleByTimeout(engine, state, seeds));
  return settledOutcome(engine, state, actions, settledBy, paid);
}

/** Engine state to and from the jsonb `state` column: bigints as "123n" strings. */
export function encodeState(state: EngineState): unknown {
  return JSON.parse(JSON.stringify(state, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value)));
}

export function decodeState(json: unknown): EngineState {
  return JSON.parse(JSON.stringify(json), (_key, value: unknown) => (typeof value === 'string' && /^-?\d+n$/.test(value) ? BigInt(value.slice(0, -1)) : value)) as EngineState;
}
