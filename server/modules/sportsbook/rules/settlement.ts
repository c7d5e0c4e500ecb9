/**
 * Settlement (issue 14). A selection's result comes from the feed per outcome: won or lost, a void
 * factor (the share of the stake refunded: 0, ½ for an Asian quarter line's pushed half, 1 for a
 * void) and a dead-heat factor (the share of the odds paid when several share a place). A leg's
 * factor is
 *
 *     void + (1 − void) × (odds × dead-heat if won, else 0)
 *
 * and a line returns ⌊stake × product of its legs' factors⌋: a void leg counts 1.00 and half
 * results fall out of the formula. A ticket returns the sum of its lines. All fractions are exact
 * (common/sportsbook/ratio.ts); the only rounding is the floor of each line's return.
 */
import { oddsRatio } from '#common/sportsbook/odds';
import { add, compare, floorTimes, mul, ONE, product, ratio, sub, ZERO, type Ratio } from '#common/sportsbook/ratio';

export interface OutcomeResult {
  won: boolean;
  /** Share of the stake refunded, in [0, 1]. */
  voidFactor: Ratio;
  /** Share of the odds paid on a win, in (0, 1]. */
  deadHeatFactor: Ratio;
}

export const WON: OutcomeResult = { won: true, voidFactor: ZERO, deadHeatFactor: ONE };
export const LOST: OutcomeResult = { won: false, voidFactor: ZERO, deadHeatFactor: ONE };
export const VOID: OutcomeResult = { won: false, voidFactor: ONE, deadHeatFactor: ONE };

function requireShare(share: Ratio, name: string, allowZero: boolean): void {
  if (compare(share, ONE) > 0 || compare(share, ZERO) < 0 || (!allowZero && share.num === 0n))
    throw new RangeError(`${name} out of range`);
}

/** The multiplier a leg contributes to its line's return. */
export function legFactor(oddsUnits: bigint, result: OutcomeResult): Ratio {
  requireShare(result.voidFactor, 'void factor', true);
  requireShare(result.deadHeatFactor, 'dead-heat factor', false);
  const paid = result.won ? mul(oddsRatio(oddsUnits), result.deadHeatFactor) : ZERO;
  return add(result.voidFactor, mul(sub(ONE, result.voidFactor), paid));
}

export interface SettledLeg {
  oddsUnits: bigint;
  /** Absent while the leg's market is not settled. */
  result?: OutcomeResult;
}

export type LineSettlement = { state: 'open' } | { state: 'settled'; payoutMinor: bigint };

/**
 * A line settles once every leg has, or as soon as one leg loses outright (nothing can bring it
 * back); otherwise it stays open.
 */
export function settleLine(stakeMinor: bigint, legs: readonly SettledLeg[]): LineSettlement {
  const factors = legs.map((leg) => (leg.result ? legFactor(leg.oddsUnits, leg.result) : undefined));
  if (factors.some((factor) => factor?.num === 0n)) return { state: 'settled', payoutMinor: 0n };
  if (factors.some((factor) => factor === undefined)) return { state: 'open' };
  return { state: 'settled', payoutMinor: floorTimes(stakeMinor, product(factors as Ratio[])) };
}

export type TicketSettlement =
  | { state: 'open'; settledPayoutMinor: bigint; openLines: number }
  | { state: 'settled'; payoutMinor: bigint; outcome: 'won' | 'lost' | 'void' | 'partial' };

/**
 * A ticket (single, multiple or system) settles line by line and pays the sum of its lines. Its
 * outcome for history: void when everything came back, lost when nothing did, won when it paid
 * more than staked, partial when it paid something but not more.
 */
export function settleTicket(stakePerLineMinor: bigint, lines: readonly (readonly SettledLeg[])[]): TicketSettlement {
  const settlements = lines.map((legs) => settleLine(stakePerLineMinor, legs));
  let paid = 0n;
  let openLines = 0;
  for (const line of settlements) {
    if (line.state === 'open') openLines++;
    else paid += line.payoutMinor;
  }
  if (openLines > 0) return { state: 'open', settledPayoutMinor: paid, openLines };
  const staked = stakePerLineMinor * BigInt(lines.length);
  const allVoid = lines.every((legs) => legs.every((leg) => leg.result && compare(leg.result.voidFactor, ONE) === 0));
  const outcome = allVoid ? 'void' : paid === 0n ? 'lost' : paid > staked ? 'won' : 'partial';
  return { state: 'settled', payoutMinor: paid, outcome };
}

/**
 * Two equal halves of a stake on neighbouring lines (an Asian quarter line) as one result: each
 * half wins, pushes (refund) or loses, and the pair is expressed through the void and dead-heat
 * factors so that legFactor pays exactly what the two halves would.
 */
export function combineHalves(first: -1 | 0 | 1, second: -1 | 0 | 1): OutcomeResult {
  const halves = [first, second];
  const pushes = halves.filter((half) => half === 0).length;
  const wins = halves.filter((half) => half === 1).length;
  const voidFactor = ratio(BigInt(pushes), 2n);
  if (wins === 0) return { won: false, voidFactor, deadHeatFactor: ONE };
  // (1 − void) × dead-heat must be the winning share wins/2.
  return { won: true, voidFactor, deadHeatFactor: ratio(BigInt(wins), BigInt(2 - pushes)) };
}
