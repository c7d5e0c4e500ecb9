/**
 * Seeded live scripts of the simulator's tennis and basketball matches (issue 14: "plays matches in
 * real time (goals, points and games from a sports model)"), as script.ts is football's: drawn
 * once from the match's own random stream, so a seed replays the same match.
 *
 * - Tennis is played point by point: the server wins a point with the probability that makes
 *   their hold chance (the pricing model's, tennis.ts) come out, games go to four points with two
 *   clear (deuce), sets to six games with two clear or a tie-break at 6-6 (first to seven points
 *   by two, each point won by the home player with the average of their point chances on and
 *   against serve), best of three sets. A point takes POINT_SECONDS of match time; a break point
 *   is the dangerous moment betting stops for.
 * - Basketball is scored minute by minute: each team's points in a minute are Poisson with its
 *   expected points over 48 minutes, a tie at the end of regulation plays five-minute overtimes at
 *   the same rate. A minute in which one side scores a run of RUN_POINTS or more stops betting.
 */
import { nextFloat, type Rng } from '#common/games/fair';
import type { BasketballResult, Score, TennisResult } from '../rules/resolve';
import type { ExpectedGoals } from './poisson';
import { BASKETBALL_MINUTES } from './basketball';
import { poissonDraw, type Side } from './script';
import type { HoldProbabilities, TennisState } from './tennis';

const other = (side: Side): Side => (side === 'home' ? 'away' : 'home');

/* ------------------------------------------------------------------ tennis */

/** Match time a point takes on average, serve to serve, changeovers included. */
const POINT_SECONDS = 36;
/** The longest tennis match the schedule allows for (minutes): a marathon is played faster to fit. */
export const TENNIS_MAX_MINUTES = 177;

/** The chance a server holds when winning each point with p: to four points by two, from deuce on. */
export function holdFromPoint(p: number): number {
  const q = 1 - p;
  const toDeuce = 20 * p ** 3 * q ** 3;
  return p ** 4 * (1 + 4 * q + 10 * q ** 2) + toDeuce * (p ** 2 / (1 - 2 * p * q));
}

/** The point chance that gives the hold chance: holdFromPoint rises with p, so bisection finds it. */
export function pointFromHold(hold: number): number {
  let low = 0.01;
  let high = 0.99;
  for (let step = 0; step < 50; step++) {
    const mid = (low + high) / 2;
    if (holdFromPoint(mid) < hold) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

export interface TennisScript {
  /** Who served the first game. */
  firstServer: Side;
  /** The match after each game, with the point count it ended at. */
  games: { point: number; state: TennisState }[];
  /** Points (1…) that were break points: betting stops before each. */
  breakPoints: number[];
  /** Points played in all. */
  points: number;
  result: TennisResult;
}

/** A game or tie-break won by the first to `target` points with two clear. */
function playRace(rng: Rng, homeWinsPoint: (point: number) => boolean, target: number, onPoint: (score: Score) => void): Side {
  const score = { home: 0, away: 0 };
  for (let point = 0; ; point++) {
    onPoint(score);
    score[homeWinsPoint(point) ? 'home' : 'away'] += 1;
    const lead = score.home - score.away;
    if (Math.max(score.home, score.away) >= target && Math.abs(lead) >= 2) return lead > 0 ? 'home' : 'away';
  }
}

export function tennisScript(rng: Rng, hold: HoldProbabilities): TennisScript {
  const pointChance = { home: pointFromHold(hold.home), away: pointFromHold(hold.away) };
  const firstServer: Side = nextFloat(rng) < 0.5 ? 'home' : 'away';
  let state: TennisState = { sets: [], games: { home: 0, away: 0 }, server: firstServer };
  const games: TennisScript['games'] = [];
  const breakPoints: number[] = [];
  let points = 0;
  const setsWon = (side: Side) => state.sets.filter((set) => set[side] > set[other(side)]).length;
  while (setsWon('home') < 2 && setsWon('away') < 2) {
    const server = state.server;
    const isTieBreak = state.games.home === 6 && state.games.away === 6;
    const winner = isTieBreak
      ? playRace(
          rng,
          () => nextFloat(rng) < (pointChance.home + 1 - pointChance.away) / 2,
          7,
          () => (points += 1),
        )
      : playRace(
          rng,
          () => nextFloat(rng) < pointChance[server] === (server === 'home'),
          4,
          (score) => {
            points += 1;
            // The receiver one point from the game: a break point.
            const receiver = other(server);
            if (score[receiver] >= 3 && score[receiver] > score[server]) breakPoints.push(points);
          },
        );
    const after = { ...state.games, [winner]: state.games[winner] + 1 };
    const setOver = (Math.max(after.home, after.away) >= 6 && Math.abs(after.home - after.away) >= 2) || isTieBreak;
    state = setOver
      ? { sets: [...state.sets, after], games: { home: 0, away: 0 }, server: other(server) }
      : { sets: state.sets, games: after, server: other(server) };
    games.push({ point: points, state });
  }
  return { firstServer, games, breakPoints, points, result: { sport: 'tennis', sets: state.sets } };
}

/** Match minutes from points: POINT_SECONDS a point, faster when the match would not fit the schedule. */
export function tennisClock(script: Pick<TennisScript, 'points'>): (point: number) => number {
  const secondsPerPoint = Math.min(POINT_SECONDS, (TENNIS_MAX_MINUTES * 60) / Math.max(1, script.points));
  return (point) => Math.floor((point * secondsPerPoint) / 60);
}

/** The match as it stands after `minute`: the games finished by then. */
export function tennisStateAt(script: TennisScript, minute: number): TennisState {
  const clock = tennisClock(script);
  let state: TennisState = { sets: [], games: { home: 0, away: 0 }, server: script.firstServer };
  for (const game of script.games) if (clock(game.point) <= minute) state = game.state;
  return state;
}

/** Sets won by each player: the score the feed's event status carries for tennis. */
export function setsScore(state: Pick<TennisState, 'sets'>): Score {
  return {
    home: state.sets.filter((set) => set.home > set.away).length,
    away: state.sets.filter((set) => set.away > set.home).length,
  };
}

/* -------------------------------------------------------------- basketball */

const OVERTIME_MINUTES = 5;
const MAX_OVERTIMES = 4;
/** Points one side scores in a minute that make a run worth stopping bets for. */
const RUN_POINTS = 6;
/** No side scores more in one minute, whatever the draw. */
const MAX_POINTS_PER_MINUTE = 12;

export interface BasketballScript {
  /** Points of each minute (index 0 is minute 1), overtime included. */
  minutes: Score[];
  /** Minutes with a scoring run: betting stops before each. */
  runMinutes: number[];
  result: BasketballResult;
}

export const basketballMinutes = (script: Pick<BasketballScript, 'minutes'>) => script.minutes.length;

export function basketballScript(rng: Rng, points: ExpectedGoals): BasketballScript {
  const perMinute = { home: points.home / BASKETBALL_MINUTES, away: points.away / BASKETBALL_MINUTES };
  const minutes: Score[] = [];
  const play = (count: number) => {
    for (let i = 0; i < count; i++)
      minutes.push({
        home: poissonDraw(rng, perMinute.home, MAX_POINTS_PER_MINUTE),
        away: poissonDraw(rng, perMinute.away, MAX_POINTS_PER_MINUTE),
      });
  };
  const total = () => minutes.reduce((sum, m) => ({ home: sum.home + m.home, away: sum.away + m.away }), { home: 0, away: 0 });
  play(BASKETBALL_MINUTES);
  for (let overtime = 0; overtime < MAX_OVERTIMES && total().home === total().away; overtime++) play(OVERTIME_MINUTES);
  // Still level after the last overtime (rare): a last free throw decides, as the pricing model renormalises ties away.
  if (total().home === total().away) minutes[minutes.length - 1]![nextFloat(rng) < 0.5 ? 'home' : 'away'] += 1;
  const runMinutes = minutes.flatMap((m, index) => (Math.max(m.home, m.away) >= RUN_POINTS ? [index + 1] : []));
  return { minutes, runMinutes, result: { sport: 'basketball', final: total() } };
}

/** The score after `minute` minutes of play. */
export function basketballScoreAt(script: BasketballScript, minute: number): Score {
  return script.minutes
    .slice(0, Math.max(0, minute))
    .reduce((sum, m) => ({ home: sum.home + m.home, away: sum.away + m.away }), { home: 0, away: 0 });
}
