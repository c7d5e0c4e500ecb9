/**
 * The simulator's football model (issue 14): goals of each team arrive as independent Poisson
 * processes at a constant rate over the 90 minutes, so the goals still to come from minute m are
 * Poisson with mean λ × (90 − m) / 90, split between what is left of the first half and the
 * second. Expected goals per match come from team strengths (attack × the opponent's defence ×
 * a league average, with home advantage). The model gives the probability of every half-time and
 * full-time score from the current score and minute; every market is then priced by running the
 * same outcome resolver that settles it over those scores, so prices and settlement never
 * disagree. Ice hockey uses the same process over 60 minutes of regular time.
 *
 * Probabilities are floats: they price, they never pay. Scores are cut at MAX_EXTRA_GOALS more
 * per team and window, and the (tiny) mass beyond is spread by renormalising.
 */
import type { Score } from '../rules/resolve';

export const FOOTBALL_MINUTES = 90;
export const HALF_TIME_MINUTE = 45;
/** Goals beyond this many more per team and window carry under 10⁻⁵ of the mass at a window's mean ≤ 2.5. */
export const MAX_EXTRA_GOALS = 12;

/** Average goals per match in the simulated leagues, home and away (roughly Europe's top flights). */
const LEAGUE_HOME_GOALS = 1.5;
const LEAGUE_AWAY_GOALS = 1.2;

export interface TeamStrength {
  /** Goals scored relative to the league average (1 = average). */
  attack: number;
  /** Goals conceded relative to the league average (1 = average; lower is better). */
  defence: number;
}

export interface ExpectedGoals {
  home: number;
  away: number;
}

export function expectedGoals(home: TeamStrength, away: TeamStrength): ExpectedGoals {
  return { home: LEAGUE_HOME_GOALS * home.attack * away.defence, away: LEAGUE_AWAY_GOALS * away.attack * home.defence };
}

/** P(N = k) for k = 0 … max, N ~ Poisson(mean). */
export function poissonPmf(mean: number, max = MAX_EXTRA_GOALS): number[] {
  const pmf = [Math.exp(-mean)];
  for (let k = 1; k <= max; k++) pmf.push((pmf[k - 1]! * mean) / k);
  return pmf;
}

export interface ScoreProbability {
  score: Score;
  probability: number;
}

/** Adds an entry's probability to the one already under its key, or files the entry (a copy). */
export function addProbability<T extends { probability: number }>(byKey: Map<string, T>, key: string, entry: T): void {
  const known = byKey.get(key);
  if (known) known.probability += entry.probability;
  else byKey.set(key, { ...entry });
}

/** The scores `from` can end as when each team adds Poisson(mean) goals, renormalised. */
export function addPoissonGoals(
  from: readonly ScoreProbability[],
  means: ExpectedGoals,
  maxExtra = MAX_EXTRA_GOALS,
): ScoreProbability[] {
  const home = poissonPmf(means.home, maxExtra);
  const away = poissonPmf(means.away, maxExtra);
  const byScore = new Map<string, ScoreProbability>();
  let total = 0;
  for (const start of from)
    home.forEach((ph, h) =>
      away.forEach((pa, a) => {
        const score = { home: start.score.home + h, away: start.score.away + a };
        const key = `${score.home}:${score.away}`;
        const probability = start.probability * ph * pa;
        total += probability;
        addProbability(byScore, key, { score, probability });
      }),
    );
  return [...byScore.values()].map((entry) => ({ score: entry.score, probability: entry.probability / total }));
}

export interface FootballState {
  /** Whole minutes played, 0 before kick-off, 90 at full time. */
  minute: number;
  score: Score;
  /** Known from half-time on. */
  halfTimeScore?: Score;
}

export interface FootballDistributions {
  halfTime: ScoreProbability[];
  fullTime: ScoreProbability[];
}

/** The goals expected in `minutes` of a match of `matchMinutes` expecting `goals` in all. */
export function goalsInMinutes(goals: ExpectedGoals, minutes: number, matchMinutes = FOOTBALL_MINUTES): ExpectedGoals {
  const share = Math.max(0, minutes) / matchMinutes;
  return { home: goals.home * share, away: goals.away * share };
}

/** Half-time and full-time score probabilities from the state, for a match expecting `goals` in 90 minutes. */
export function footballDistributions(state: FootballState, goals: ExpectedGoals): FootballDistributions {
  const now: ScoreProbability[] = [{ score: state.score, probability: 1 }];
  const halfTime =
    state.minute >= HALF_TIME_MINUTE
      ? [{ score: state.halfTimeScore ?? state.score, probability: 1 }]
      : addPoissonGoals(now, goalsInMinutes(goals, HALF_TIME_MINUTE - state.minute));
  const fromHalfTime = state.minute >= HALF_TIME_MINUTE ? now : halfTime;
  const fullTime = addPoissonGoals(
    fromHalfTime,
    goalsInMinutes(goals, FOOTBALL_MINUTES - Math.max(state.minute, HALF_TIME_MINUTE)),
  );
  return { halfTime, fullTime };
}
