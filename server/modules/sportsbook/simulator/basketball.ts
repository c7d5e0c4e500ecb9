/**
 * The simulator's basketball model (issue 14), simpler than football's by design: each team's
 * points are Poisson over the 48 minutes of regulation (mean from the teams' expected points), a
 * tie goes to five-minute overtimes at the same rate, and the little tie mass left after
 * MAX_OVERTIMES is spread by renormalising. Moneyline and spread read only the final difference
 * and totals only the final sum, so each family is priced over that one-dimensional distribution
 * (a few hundred results instead of tens of thousands), by the resolver that settles it. Those two
 * distributions are built directly (basketballMarginals) rather than from the list of final scores:
 * the list costs seconds a price, and the simulator prices a live game every few minutes.
 */
import type { BasketballResult, Score } from '../rules/resolve';
import { addPoissonGoals, goalsInMinutes, poissonPmf, type ExpectedGoals, type ScoreProbability } from './poisson';
import { priceMarket, type PricedMarket, type ResultProbability } from './pricing';

export const BASKETBALL_MINUTES = 48;
const OVERTIME_MINUTES = 5;
/** A probability below this changes no price shown to four decimals. */
const NEGLIGIBLE = 1e-15;
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
    // addPoints answers a distribution of its own (summing to 1): overtime carries only the tie's share.
    const tiedMass = tied.reduce((sum, entry) => sum + entry.probability, 0);
    const afterOvertime = addPoints(tied, overtime).map((entry) => ({ ...entry, probability: entry.probability * tiedMass }));
    scores = [...scores.filter((entry) => entry.score.home !== entry.score.away), ...afterOvertime];
  }
  const decided = scores.filter((entry) => entry.score.home !== entry.score.away);
  const total = decided.reduce((sum, entry) => sum + entry.probability, 0);
  return decided.map((entry) => ({ score: entry.score, probability: entry.probability / total }));
}

/**
 * The final difference (home − away) and the final sum, overtime included, each as its own
 * distribution: the model of basketballFinals, computed without listing every final score. Each
 * period adds Poisson points to each side (truncated as addPoints does and renormalised over what
 * is kept); only ties go on to overtime, carrying their share; what is still tied after the last
 * overtime is left out and the rest renormalised.
 */
export function basketballMarginals(minute: number, score: Score, points: ExpectedGoals) {
  const regulation = goalsInMinutes(points, BASKETBALL_MINUTES - minute, BASKETBALL_MINUTES);
  const overtime = goalsInMinutes(points, OVERTIME_MINUTES, BASKETBALL_MINUTES);
  // Dense arrays over every reachable value (the Maps this replaced cost most of a price).
  const most =
    score.home +
    score.away +
    pointsCap(Math.max(regulation.home, regulation.away)) +
    MAX_OVERTIMES * pointsCap(Math.max(overtime.home, overtime.away));
  const differences = new Float64Array(2 * most + 1); // index d + most
  const sums = new Float64Array(2 * most + 1);
  /** Plays one period from the tied (or starting) scores, filing the decided results and answering the ties by level. */
  const period = (starts: ReadonlyMap<number, { home: number; away: number; probability: number }>, means: ExpectedGoals) => {
    const cap = pointsCap(Math.max(means.home, means.away));
    const home = poissonPmf(means.home, cap);
    const away = poissonPmf(means.away, cap);
    const kept = home.reduce((x, y) => x + y, 0) * away.reduce((x, y) => x + y, 0);
    const tied = new Map<number, { home: number; away: number; probability: number }>();
    for (const start of starts.values()) {
      // A start this unlikely moves no price (odds carry four decimals): skipping it keeps overtime cheap.
      if (start.probability < NEGLIGIBLE) continue;
      for (let h = 0; h < home.length; h++) {
        const ph = (start.probability * home[h]!) / kept;
        const finalHome = start.home + h;
        for (let a = 0; a < away.length; a++) {
          const p = ph * away[a]!;
          const finalAway = start.away + a;
          if (finalHome === finalAway) {
            const level = tied.get(finalHome);
            if (level) level.probability += p;
            else tied.set(finalHome, { home: finalHome, away: finalAway, probability: p });
          } else {
            differences[finalHome - finalAway + most]! += p;
            sums[finalHome + finalAway]! += p;
          }
        }
      }
    }
    return tied;
  };
  let tied = period(new Map([[0, { ...score, probability: 1 }]]), regulation);
  for (let count = 0; count < MAX_OVERTIMES && tied.size > 0; count++) tied = period(tied, overtime);
  const decided = differences.reduce((x, y) => x + y, 0);
  const asMap = (values: Float64Array, offset: number) => {
    const byValue = new Map<number, number>();
    values.forEach((p, index) => {
      if (p > 0) byValue.set(index - offset, p / decided);
    });
    return byValue;
  };
  return { differences: asMap(differences, most), sums: asMap(sums, 0) };
}

/** A marginal as results that carry only its number. */
function asResults(byValue: ReadonlyMap<number, number>, asScore: (n: number) => Score): ResultProbability[] {
  return [...byValue].map(([value, probability]) => ({
    result: { sport: 'basketball', final: asScore(value) } satisfies BasketballResult,
    probability,
  }));
}

/** A half line at `offset` points from the value the market is centred on. */
const halfLine = (centre: number, offset: number) => String(Math.round(centre) + offset + 0.5);

/**
 * The distribution merged into one result per stretch between the lines (and one per line value
 * itself, where a whole line pushes): every result of a stretch settles alike in every market read
 * at those lines, so the resolver prices them from a handful of results instead of hundreds.
 */
function bucketed(byValue: ReadonlyMap<number, number>, lines: readonly number[]): Map<number, number> {
  const buckets = new Map<string, { value: number; probability: number }>();
  for (const [value, probability] of byValue) {
    const key = lines.map((line) => Math.sign(value - line)).join(',');
    const bucket = buckets.get(key);
    if (bucket) bucket.probability += probability;
    else buckets.set(key, { value, probability });
  }
  return new Map([...buckets.values()].map((bucket) => [bucket.value, bucket.probability]));
}

export function priceBasketball(minute: number, score: Score, points: ExpectedGoals, marginBp: number): PricedMarket[] {
  const marginals = basketballMarginals(minute, score, points);
  const expected = (byValue: ReadonlyMap<number, number>) => [...byValue].reduce((sum, [value, p]) => sum + value * p, 0);
  const spreads = [-2, 0, 2].map((offset) => halfLine(-expected(marginals.differences), offset));
  const totals = [-5, 0, 5].map((offset) => halfLine(expected(marginals.sums), offset));
  // A difference d as the score (d, 0) or (0, −d); a sum t as (t, 0). The home side covers a spread h when d + h > 0.
  const differences = asResults(bucketed(marginals.differences, [0, ...spreads.map((hcp) => -Number(hcp))]), (d) => ({
    home: Math.max(d, 0),
    away: Math.max(-d, 0),
  }));
  const sums = asResults(
    bucketed(
      marginals.sums,
      totals.map((total) => Number(total)),
    ),
    (t) => ({ home: t, away: 0 }),
  );
  return [
    priceMarket(differences, 'moneyline', {}, marginBp),
    ...spreads.map((hcp) => priceMarket(differences, 'spread', { hcp }, marginBp)),
    ...totals.map((total) => priceMarket(sums, 'total_incl_overtime', { total }, marginBp)),
  ];
}
