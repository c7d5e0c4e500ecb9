/**
 * The simulator's basketball model (issue 14), simpler than football's by design: each team's
 * points are Poisson over the 48 minutes of regulation (mean from the teams' expected points), a
 * tie goes to five-minute overtimes at the same rate, and the little tie mass left after
 * MAX_OVERTIMES is spread by renormalising. Moneyline and spread read only the final difference
 * and totals only the final sum, so each family is priced over that one-dimensional distribution
 * (a few hundred results instead of tens of thousands), by the resolver that settles it.
 */
import type { BasketballResult, Score } from '../rules/resolve';
import { addPoissonGoals, goalsInMinutes, type ExpectedGoals, type ScoreProbability } from './poisson';
import { priceMarket, type PricedMarket, type ResultProbability } from './pricing';

export const BASKETBALL_MINUTES = 48;
const OVERTIME_MINUTES = 5;
const MAX_OVERTIMES = 4;

/** Points beyond mean + 8 standard deviations carry nothing a price could show. */
function pointsCap(mean: number): number {
  return Math.ceil(mean + 8 * Math.sqrt(mean) + 10);
}

function addPoints(from: readonly ScoreProbability[], means: ExpectedGoals): ScoreProbability[] {
  return addPoissonGoals(from, means, pointsCap(Math.max(means.home, means.away)));
}

/** Final scores from the minute and score of regulation, overtime included. */
export function basketballFinals(minute: number, score: Score, points: ExpectedGoals): ScoreProbability[] {
  let scores = addPoints([{ score, probability: 1 }], goalsInMinutes(points, BASKETBALL_MINUTES - minute, BASKETBALL_MINUTES));
  const overtime = goalsInMinutes(points, OVERTIME_MINUTES, BASKETBALL_MINUTES);
  for (let period = 0; period < MAX_OVERTIMES; period++) {
    const tied = scores.filter((entry) => entry.score.home === entry.score.away);
    if (tied.length === 0) break;
    scores = [...scores.filter((entry) => entry.score.home !== entry.score.away), ...addPoints(tied, overtime)];
  }
  const decided = scores.filter((entry) => entry.score.home !== entry.score.away);
  const total = decided.reduce((sum, entry) => sum + entry.probability, 0);
  return decided.map((entry) => ({ score: entry.score, probability: entry.probability / total }));
}

/** Collapses scores onto one number (difference or sum), as results that carry only that number. */
function marginal(
  finals: readonly ScoreProbability[],
  measure: (s: Score) => number,
  asScore: (n: number) => Score,
): ResultProbability[] {
  const byValue = new Map<number, number>();
  for (const { score, probability } of finals) byValue.set(measure(score), (byValue.get(measure(score)) ?? 0) + probability);
  return [...byValue].map(([value, probability]) => ({
    result: { sport: 'basketball', final: asScore(value) } satisfies BasketballResult,
    probability,
  }));
}

/** A half line at `offset` points from the value the market is centred on. */
const halfLine = (centre: number, offset: number) => String(Math.round(centre) + offset + 0.5);

export function priceBasketball(minute: number, score: Score, points: ExpectedGoals, marginBp: number): PricedMarket[] {
  const finals = basketballFinals(minute, score, points);
  // A difference d as the score (d, 0) or (0, −d); a sum t as (t, 0).
  const differences = marginal(
    finals,
    (s) => s.home - s.away,
    (d) => ({ home: Math.max(d, 0), away: Math.max(-d, 0) }),
  );
  const sums = marginal(
    finals,
    (s) => s.home + s.away,
    (t) => ({ home: t, away: 0 }),
  );
  const expected = (measure: (s: Score) => number) =>
    finals.reduce((sum, entry) => sum + entry.probability * measure(entry.score), 0);
  const expectedDifference = expected((s) => s.home - s.away);
  const expectedTotal = expected((s) => s.home + s.away);
  return [
    priceMarket(differences, 'moneyline', {}, marginBp),
    ...[-2, 0, 2].map((offset) => priceMarket(differences, 'spread', { hcp: halfLine(-expectedDifference, offset) }, marginBp)),
    ...[-5, 0, 5].map((offset) => priceMarket(sums, 'total_incl_overtime', { total: halfLine(expectedTotal, offset) }, marginBp)),
  ];
}
