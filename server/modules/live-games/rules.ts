/**
 * What a live round's seed decides, and the bets' normal form: pure, shared by the service, the
 * tests and (through common/games) the browser's verification.
 */
import { z } from 'zod';
import { amountToMinor, minorToAmount } from '#common/money';
import { CRASH_MAX_CASH_OUT_HUNDREDTHS, CRASH_MIN_CASH_OUT_HUNDREDTHS, crashElapsedMsAt, crashPoint } from '#common/games/crash';
import { createFairRng, type RoundSeeds } from '#common/games/fair';
import { spinLiveRoulette } from '#common/games/live-roulette';
import type { RouletteBet } from '#common/games/roulette';
import type { LiveEngine, LiveResult } from '#common/contract';
import { parseStake, prepareBet } from '../game-rounds';
import { BetParamError } from '../round-intake';

export const LIVE_ENGINES = ['crash', 'live-roulette'] as const satisfies readonly LiveEngine[];
// The engine and result shapes are the contract's (common/contract/games.ts): the browser reads them too.
export type { LiveEngine, LiveResult };

export function isLiveEngine(engine: unknown): engine is LiveEngine {
  return typeof engine === 'string' && (LIVE_ENGINES as readonly string[]).includes(engine);
}

/** The round's result from its seeds: the crash point in hundredths, or the pocket. */
export function liveResult(engine: LiveEngine, seeds: RoundSeeds): LiveResult {
  const rng = createFairRng(seeds);
  if (engine === 'crash') return { crash_point: crashPoint(rng) };
  const spin = spinLiveRoulette(rng);
  return { pocket: spin.pocket, color: spin.color };
}

/** How long the climb lasts before the crash (0 for a crash at 1.00×). */
export function crashDurationMs(crashPointHundredths: number): number {
  return crashPointHundredths <= 100 ? 0 : crashElapsedMsAt(crashPointHundredths);
}

export interface PreparedLiveBet {
  stakeMinor: bigint;
  normal: Record<string, unknown>;
  autoCashOut: number | null;
}

const amount = z.union([z.string().max(20), z.number()]);
const crashSchema = z
  .object({ stake: amount, auto_cash_out: z.union([z.string().max(12), z.number(), z.null()]).optional() })
  .strict();

/** "2.50" (or 2.5) as hundredths, from 1.01 to 1000000.00. */
function parseMultiplier(value: unknown): number {
  const text = typeof value === 'number' && Number.isFinite(value) ? value.toFixed(2) : value;
  if (typeof text !== 'string' || !/^\d{1,7}(\.\d{1,2})?$/.test(text.trim()))
    throw new BetParamError('bet', 'the automatic cash-out must be a multiplier like 2.00');
  const hundredths = Number(amountToMinor(text.trim()));
  if (hundredths < CRASH_MIN_CASH_OUT_HUNDREDTHS || hundredths > CRASH_MAX_CASH_OUT_HUNDREDTHS)
    throw new BetParamError('bet', 'the automatic cash-out must be from 1.01 to 1000000.00');
  return hundredths;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BetParamError('bet', 'the bet must be JSON');
  }
}

/** Reads a bet's JSON for a live engine; throws BetParamError. */
export function prepareLiveBet(engine: LiveEngine, text: string): PreparedLiveBet {
  if (engine === 'live-roulette') {
    const prepared = prepareBet('roulette', text);
    return { stakeMinor: prepared.stakeMinor, normal: prepared.normal, autoCashOut: null };
  }
  const parsed = crashSchema.safeParse(parseJson(text));
  if (!parsed.success) {
    const isStake = parsed.error.issues.some((issue) => issue.path.at(-1) === 'stake');
    throw new BetParamError(isStake ? 'stake' : 'bet', parsed.error.issues[0]?.message ?? 'invalid bet');
  }
  const stakeMinor = parseStake(parsed.data.stake);
  const autoCashOut =
    parsed.data.auto_cash_out === undefined || parsed.data.auto_cash_out === null || parsed.data.auto_cash_out === ''
      ? null
      : parseMultiplier(parsed.data.auto_cash_out);
  return {
    stakeMinor,
    autoCashOut,
    normal: { stake: minorToAmount(stakeMinor), auto_cash_out: autoCashOut === null ? null : minorToAmount(BigInt(autoCashOut)) },
  };
}

/** The roulette bets of a stored normal form. */
export function rouletteBetsOf(normal: unknown): RouletteBet[] {
  const bets = ((normal as { bets?: Array<Record<string, unknown>> } | null)?.bets ?? []).map(({ stake, ...rest }) => ({
    ...rest,
    stakeMinor: amountToMinor(String(stake)),
  }));
  return bets as unknown as RouletteBet[];
}
