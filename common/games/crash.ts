/**
 * Crash: a multiplier climbs from 1.00× until it crashes; a bet cashed out at m before the crash
 * wins stake × m. One crash point serves every player of a shared round; the round's seeds are
 * the server's (a shared round cannot take each player's client seed).
 *
 * Draws: one, u (a 32-bit integer; r = u / 2³²). The crash point in hundredths is
 *     crash = max(100, ⌊99 / (1 − r)⌋) = max(100, ⌊99 · 2³² / (2³² − u)⌋)
 * computed in integers, i.e. the multiplier max(1, ⌊99 / (1 − r)⌋ / 100).
 * Rules: a cash-out at m (in hundredths, from 1.01× up) wins iff m ≤ crash and pays
 * stake × m / 100, rounded down. Rounds with r < 2 / 101 (1.98 %) crash at 1.00×, where every
 * bet loses: ⌊99 / (1 − r)⌋ is 99 or 100 there.
 * RTP: the crash reaches m with probability ⌊99 · 2³² / m⌋ / 2³² ≈ 0.99 / (m / 100), so any
 * cash-out target (and any cash-out rule that only looks at the climbing multiplier) returns
 * 99 % of the stake, less rounding (at most one minor unit a round and 2⁻³² of the chance).
 *
 * The climb is m(t) = e^(CRASH_GROWTH_PER_MS · t): 2× after 11.553 s, 10× after 38.4 s, the same for
 * server and browser; a cash-out request at elapsed time t is taken at ⌊100 · m(t)⌋ hundredths.
 */
import { InvalidBetError } from './errors';
import type { Rng } from './fair';
import { multiplyStake, requireStake } from './payout';

const TWO_POW_32 = 0x1_0000_0000;
const HOUSE_NUMERATOR = 99 * TWO_POW_32;

export const CRASH_MIN_CASH_OUT_HUNDREDTHS = 101;
/** 1 000 000×: beyond it the chance is below one in 10⁸ and the payout past any table limit. */
export const CRASH_MAX_CASH_OUT_HUNDREDTHS = 100_000_000;
export const CRASH_RTP = 0.99;
export const CRASH_GROWTH_PER_MS = 0.00006;

export interface CrashBet {
  stakeMinor: bigint;
  /** The multiplier the player cashed out at (or set as automatic cash-out), in hundredths. */
  cashOutHundredths: number;
}

export interface CrashSettlement {
  isWin: boolean;
  payoutMinor: bigint;
}

/** The crash point in hundredths of the round's first draw. */
export function crashPointFromDraw(u: number): number {
  const d = TWO_POW_32 - u;
  // Every value is below 2⁵³, so the float quotient is off by at most one: correct it.
  let quotient = Math.floor(HOUSE_NUMERATOR / d);
  if (quotient * d > HOUSE_NUMERATOR) quotient--;
  else if ((quotient + 1) * d <= HOUSE_NUMERATOR) quotient++;
  return Math.max(100, quotient);
}

export function crashPoint(rng: Rng): number {
  return crashPointFromDraw(rng.nextUint32());
}

function requireCashOut(cashOutHundredths: number): number {
  if (
    !Number.isInteger(cashOutHundredths) ||
    cashOutHundredths < CRASH_MIN_CASH_OUT_HUNDREDTHS ||
    cashOutHundredths > CRASH_MAX_CASH_OUT_HUNDREDTHS
  ) {
    throw new InvalidBetError('the cash-out multiplier must be from 1.01 to 1000000.00');
  }
  return cashOutHundredths;
}

/** Exactly, as a fraction of 2³²: how often a round reaches `cashOutHundredths`. */
export function crashWinChance(cashOutHundredths: number): { numerator: number; denominator: number } {
  return { numerator: Math.floor(HOUSE_NUMERATOR / requireCashOut(cashOutHundredths)), denominator: TWO_POW_32 };
}

/** A cash-out at m wins iff m ≤ the crash point. */
export function settleCrash(bet: CrashBet, crashPointHundredths: number): CrashSettlement {
  requireStake(bet.stakeMinor);
  const isWin = requireCashOut(bet.cashOutHundredths) <= crashPointHundredths;
  return { isWin, payoutMinor: isWin ? multiplyStake(bet.stakeMinor, bet.cashOutHundredths, 100) : 0n };
}

/** One player with an automatic cash-out: the whole round at once (simulation, bench). */
export function playCrash(bet: CrashBet, rng: Rng): CrashSettlement & { crashPointHundredths: number } {
  const crashPointHundredths = crashPoint(rng);
  return { crashPointHundredths, ...settleCrash(bet, crashPointHundredths) };
}

/** The multiplier shown `elapsedMs` after take-off, in hundredths. */
export function crashMultiplierAt(elapsedMs: number): number {
  return Math.floor(100 * Math.exp(CRASH_GROWTH_PER_MS * Math.max(0, elapsedMs)));
}

/** When the climb shows `hundredths` (the round ends at the crash point's time). */
export function crashElapsedMsAt(hundredths: number): number {
  return Math.ceil(Math.log(hundredths / 100) / CRASH_GROWTH_PER_MS);
}
