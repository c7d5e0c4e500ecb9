/**
 * The bookmaker's margin (issue 14): a fair probability p becomes the price 1 / (p × (1 + m)),
 * so the implied probabilities of a market's outcomes add up to 1 + m (the overround). Prices are
 * rounded down to the hundredth (the house never quotes above its own price) and an outcome whose
 * price would fall under 1.01, or above 1000, is not offered.
 */
import { MAX_ODDS, MIN_ODDS, ODDS_SCALE } from '#common/sportsbook/odds';

const PRICE_STEP = 100n;

/** The decimal price in ten-thousandths, or undefined when the outcome cannot be offered. */
export function marginedOdds(fairProbability: number, marginBp: number): bigint | undefined {
  if (!(fairProbability > 0)) return undefined;
  const price = 1 / (fairProbability * (1 + marginBp / 10_000));
  if (!Number.isFinite(price)) return undefined;
  const units = BigInt(Math.floor(price * Number(ODDS_SCALE / PRICE_STEP))) * PRICE_STEP;
  return units < MIN_ODDS || units > MAX_ODDS ? undefined : units;
}
