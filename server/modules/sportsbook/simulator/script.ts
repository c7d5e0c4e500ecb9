/**
 * A seeded match script (issue 14): when the goals of a simulated football match fall and when
 * its dangerous moments are (the simulator stops betting around them), drawn once from the
 * match's own random stream so that a seed replays the same match. Randomness is the provably
 * fair stream of common/games/fair.ts keyed by the simulator's seed and the match number.
 */
import { createFairRng, nextFloat, uniformInt, type Rng } from '#common/games/fair';
import type { FootballResult, Score } from '../rules/resolve';
import { FOOTBALL_MINUTES, HALF_TIME_MINUTE, type ExpectedGoals, type FootballState } from './poisson';

export type Side = 'home' | 'away';

export interface FootballScript {
  /** In minute order; a minute is 1 … 90. */
  goals: { minute: number; side: Side }[];
  /** Minutes with an attack dangerous enough to stop betting (every goal's minute among them). */
  dangerMinutes: number[];
}

/** Dangerous attacks that come to nothing, per match on average. */
const NEAR_MISSES_PER_MATCH = 8;
/** No team is drawn more goals than this, whatever the random draw: keeps a script sane. */
const MAX_GOALS_PER_TEAM = 15;

export function matchRng(seed: string, matchNumber: number): Rng {
  return createFairRng({ serverSeed: seed, clientSeed: 'sportsbook-simulator', nonce: matchNumber });
}

/** A Poisson(mean) draw by inversion of the cumulative distribution. */
export function poissonDraw(rng: Rng, mean: number, max = MAX_GOALS_PER_TEAM): number {
  const u = nextFloat(rng);
  let k = 0;
  let p = Math.exp(-mean);
  let cumulative = p;
  while (u >= cumulative && k < max) {
    k++;
    p = (p * mean) / k;
    cumulative += p;
  }
  return k;
}

/**
 * Goals and dangerous moments over a match of `minutes` (football's 90 unless told: ice hockey
 * plays the same Poisson process over 60).
 */
export function footballScript(rng: Rng, goals: ExpectedGoals, minutes = FOOTBALL_MINUTES): FootballScript {
  const randomMinute = (stream: Rng) => 1 + uniformInt(stream, minutes);
  const homeGoals = poissonDraw(rng, goals.home);
  const awayGoals = poissonDraw(rng, goals.away);
  const scored = [
    ...Array.from({ length: homeGoals }, () => ({ minute: randomMinute(rng), side: 'home' as const })),
    ...Array.from({ length: awayGoals }, () => ({ minute: randomMinute(rng), side: 'away' as const })),
  ].sort((a, b) => a.minute - b.minute);
  const nearMisses = Array.from({ length: poissonDraw(rng, NEAR_MISSES_PER_MATCH) }, () => randomMinute(rng));
  const dangerMinutes = [...new Set([...scored.map((goal) => goal.minute), ...nearMisses])].sort((a, b) => a - b);
  return { goals: scored, dangerMinutes };
}

function scoreUntil(script: FootballScript, minute: number): Score {
  const upTo = script.goals.filter((goal) => goal.minute <= minute);
  return { home: upTo.filter((goal) => goal.side === 'home').length, away: upTo.filter((goal) => goal.side === 'away').length };
}

/** The match as it stands after `minute` minutes have been played. */
export function stateAt(script: FootballScript, minute: number): FootballState {
  const played = Math.min(Math.max(0, minute), FOOTBALL_MINUTES);
  const state: FootballState = { minute: played, score: scoreUntil(script, played) };
  return played >= HALF_TIME_MINUTE ? { ...state, halfTimeScore: scoreUntil(script, HALF_TIME_MINUTE) } : state;
}

export function finalResult(script: FootballScript): FootballResult {
  return { sport: 'football', halfTime: scoreUntil(script, HALF_TIME_MINUTE), fullTime: scoreUntil(script, FOOTBALL_MINUTES) };
}

/**
 * The match minute after `elapsedMs` of wall time since kick-off, played `speedFactor` times
 * faster than real time (a test plays a match in seconds at 600×).
 */
export function minuteAt(elapsedMs: number, speedFactor: number): number {
  if (!(speedFactor > 0)) throw new RangeError('the speed factor must be positive');
  return Math.min(FOOTBALL_MINUTES, Math.max(0, Math.floor((elapsedMs * speedFactor) / 60_000)));
}
