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
import { publicBlackjackView, type BlackjackState } from '#common/games/blackjack';
import { GameRuleError, InvalidBetError } from '#common/games/errors';
import type { RoundSeeds } from '#common/games/fair';
import { publicMinesView, type MinesState } from '#common/games/mines';
import { applyStatefulAction, dealState, type StatefulEngine, type StatefulState } from '#common/games/stateful-replay';
import { BetParamError, outcomeJson, parseJson, parseStake, schemaParse } from './engines';

// The pure replay lives in common/games/stateful-replay.ts: the browser verifies rounds with it.
export {
  STATEFUL_ENGINES,
  isStatefulEngine,
  replayActions,
  settleByTimeout,
  settledOutcome,
  recomputeSettledOutcome as recomputeOutcome,
  statefulPayoutMinor as payoutMinor,
  type SettledBy,
  type StatefulEngine,
} from '#common/games/stateful-replay';

type EngineState = StatefulState;

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

/** One applied action as recorded with the round (request id and request hash for replays). */
export interface RecordedAction {
  action: string;
  params: Record<string, unknown>;
  request_id: string;
  request_hash: string;
}

const amount = z.union([z.string().max(20), z.number()]);
const minesBetSchema = z.object({ stake: amount, mines: z.number().int() }).strict();
const blackjackBetSchema = z.object({ stake: amount }).strict();
const revealParams = z.object({ cell: z.number().int().min(0).max(24) }).strict();
const noParams = z.object({}).strict();

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
    return dealState(engine, { ...normal, stake: minorToAmount(normalStake(normal)) }, seeds);
  } catch (error) {
    if (error instanceof InvalidBetError) throw new BetParamError('bet', error.message);
    throw error;
  }
}

/** Checks an action's name and parameters; returns them in normal form. */
export function normalAction(
  engine: StatefulEngine,
  action: string,
  params: unknown,
): { action: string; params: Record<string, unknown> } {
  const names: readonly string[] = engine === 'mines' ? MINES_ACTIONS : BLACKJACK_ACTIONS;
  if (!names.includes(action)) throw new ActionError('action', `unknown action ${action}; this game knows ${names.join(', ')}`);
  const schema = engine === 'mines' && action === 'reveal' ? revealParams : noParams;
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) throw new ActionError('params', parsed.error.issues[0]?.message ?? 'invalid parameters');
  return { action, params: parsed.data as Record<string, unknown> };
}

/** Applies one (normal) action; an action the rules refuse now throws ActionError('action'). */
export function applyAction(
  engine: StatefulEngine,
  state: EngineState,
  action: string,
  params: Record<string, unknown>,
  seeds: RoundSeeds,
): EngineState {
  try {
    return applyStatefulAction(engine, state, action, params, seeds);
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

/** What the player may see of a round now (never the mines or the hole card while it is open). */
export function publicView(engine: StatefulEngine, state: EngineState): Record<string, unknown> {
  const view = engine === 'mines' ? publicMinesView(state as MinesState) : publicBlackjackView(state as BlackjackState);
  return outcomeJson(view) as Record<string, unknown>;
}

/** Engine state to and from the jsonb `state` column: bigints as "123n" strings. */
export function encodeState(state: EngineState): unknown {
  return JSON.parse(JSON.stringify(state, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value)));
}

export function decodeState(json: unknown): EngineState {
  return JSON.parse(JSON.stringify(json), (_key, value: unknown) =>
    typeof value === 'string' && /^-?\d+n$/.test(value) ? BigInt(value.slice(0, -1)) : value,
  ) as EngineState;
}
