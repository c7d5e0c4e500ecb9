/**
 * Cash-out (issue 14): an open single or multiple is bought back at what it is worth at today's
 * prices, less a margin. A leg still to play is worth placed odds ÷ current odds of the stake it
 * carries (the bet a player would need at today's price to return the same); a settled leg is
 * worth its settlement factor. Partial cash-out pays part of that value and keeps the rest of the
 * stake open in proportion, rounded so the player never keeps more stake than they paid for.
 */
import { oddsRatio } from '#common/sportsbook/odds';
import { div, floorTimes, mul, product, ratio, type Ratio } from '#common/sportsbook/ratio';
import { legFactor, type OutcomeResult } from './settlement';

export type CashOutLeg =
  | { state: 'open'; placedOddsUnits: bigint; currentOddsUnits: bigint }
  | { state: 'settled'; placedOddsUnits: bigint; result: OutcomeResult }
  /** A suspended market has no price to buy at. */
  | { state: 'suspended'; placedOddsUnits: bigint };

/** The margin in basis points (500 = 5 %) kept by the house on a cash-out. */
export const DEFAULT_CASH_OUT_MARGIN_BP = 500n;

function legValue(leg: CashOutLeg): Ratio | undefined {
  switch (leg.state) {
    case 'open':
      return div(oddsRatio(leg.placedOddsUnits), oddsRatio(leg.currentOddsUnits));
    case 'settled':
      return legFactor(leg.placedOddsUnits, leg.result);
    case 'suspended':
      return undefined;
  }
}

/**
 * The full cash-out price in minor units, or undefined when none is offered: a suspended leg, a
 * lost bet, or nothing left to play (a settled bet is paid by settlement, not bought back).
 */
export function cashOutPrice(
  stakeMinor: bigint,
  legs: readonly CashOutLeg[],
  marginBp = DEFAULT_CASH_OUT_MARGIN_BP,
): bigint | undefined {
  if (!legs.some((leg) => leg.state === 'open')) return undefined;
  const values = legs.map(legValue);
  if (values.some((value) => value === undefined)) return undefined;
  const fair = product(values as Ratio[]);
  const price = floorTimes(stakeMinor, mul(fair, ratio(10_000n - marginBp, 10_000n)));
  return price > 0n ? price : undefined;
}

export interface PartialCashOut {
  paidMinor: bigint;
  /** The stake that stays on the bet, at its placed odds. */
  remainingStakeMinor: bigint;
}

/**
 * Pays `requestedMinor` of a full price and keeps the stake share the rest of the price stands for,
 * rounded down: ⌊stake × (price − paid) ÷ price⌋.
 */
export function partialCashOut(stakeMinor: bigint, fullPriceMinor: bigint, requestedMinor: bigint): PartialCashOut {
  if (requestedMinor <= 0n || requestedMinor > fullPriceMinor)
    throw new RangeError('a partial cash-out is above zero and up to the full price');
  const remainingStakeMinor = floorTimes(stakeMinor, ratio(fullPriceMinor - requestedMinor, fullPriceMinor));
  return { paidMinor: requestedMinor, remainingStakeMinor };
}
