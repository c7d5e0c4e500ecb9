/**
 * Outcome resolution (issue 14): from a match's result to every outcome's result of a market, as
 * the feed simulator sends it in bet_settlement and as settlement reads it. Lines are counted in
 * quarters so that no float decides a bet: hcp=-1.25 is −5 quarters. A quarter line is two half
 * stakes on its neighbouring half/whole lines (-0.25 → 0 and -0.5), each winning, pushing or
 * losing, combined by combineHalves.
 */
import { checkSpecifiers, CORRECT_SCORE_MAX_GOALS, outcomeIdsOf } from '#common/sportsbook/catalogue';
import { ratioFromDecimal } from '#common/sportsbook/ratio';
import type { Sport, Specifiers } from '#common/sportsbook/types';
import { combineHalves, LOST, VOID, WON, type OutcomeResult } from './settlement';

export interface Score {
  home: number;
  away: number;
}

/** Football: 90 minutes with stoppage time, no extra time or penalties. */
export interface FootballResult {
  sport: 'football';
  halfTime: Score;
  fullTime: Score;
}

/** Tennis: games per set, in order; a retirement voids what is not decided (not modelled here). */
export interface TennisResult {
  sport: 'tennis';
  sets: readonly Score[];
}

/** Basketball: the final score including overtime. */
export interface BasketballResult {
  sport: 'basketball';
  final: Score;
}

/** Ice hockey: regular time (three periods), without overtime or shoot-out. */
export interface IceHockeyResult {
  sport: 'ice_hockey';
  regularTime: Score;
}

export type MatchResult = FootballResult | TennisResult | BasketballResult | IceHockeyResult;

/** A line ("-1.25", "2.5") in quarters (−5, 10); lines are whole, half or quarter by catalogue check. */
export function lineInQuarters(line: string): number {
  const exact = ratioFromDecimal(line);
  return Number((exact.num * 4n) / exact.den);
}

function sign(value: number): -1 | 0 | 1 {
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

/**
 * The result of backing `margin` (in quarters, e.g. 4 × goal difference + handicap): a half or whole
 * line is one stake, a quarter line two halves on the lines a quarter either side.
 */
export function lineResult(marginInQuarters: number): OutcomeResult {
  const halves: [number, number] =
    Math.abs(marginInQuarters) % 2 === 1 ? [marginInQuarters - 1, marginInQuarters + 1] : [marginInQuarters, marginInQuarters];
  return combineHalves(sign(halves[0]), sign(halves[1]));
}

const byWinner = (won: boolean): OutcomeResult => (won ? WON : LOST);

/** Winner markets: home, draw and away by the score. */
function threeWay(score: Score): Record<string, OutcomeResult> {
  return {
    '1': byWinner(score.home > score.away),
    X: byWinner(score.home === score.away),
    '2': byWinner(score.home < score.away),
  };
}

/** Two-way winner markets void on a tie (draw no bet; a tied moneyline cannot happen with overtime). */
function twoWay(score: Score): Record<string, OutcomeResult> {
  if (score.home === score.away) return { '1': VOID, '2': VOID };
  return { '1': byWinner(score.home > score.away), '2': byWinner(score.home < score.away) };
}

function handicap(score: Score, specifiers: Specifiers): Record<string, OutcomeResult> {
  const margin = 4 * (score.home - score.away) + lineInQuarters(specifiers.hcp ?? '0');
  return { '1': lineResult(margin), '2': lineResult(-margin) };
}

function total(count: number, specifiers: Specifiers): Record<string, OutcomeResult> {
  const margin = 4 * count - lineInQuarters(specifiers.total ?? '0');
  return { over: lineResult(margin), under: lineResult(-margin) };
}

function correctScore(score: Score): Record<string, OutcomeResult> {
  const listed = score.home <= CORRECT_SCORE_MAX_GOALS && score.away <= CORRECT_SCORE_MAX_GOALS;
  const winner = listed ? `${score.home}:${score.away}` : 'other';
  return Object.fromEntries(outcomeIdsOf('correct_score').map((id) => [id, byWinner(id === winner)]));
}

function football(result: FootballResult, type: string, specifiers: Specifiers): Record<string, OutcomeResult> {
  const { fullTime, halfTime } = result;
  switch (type) {
    case '1x2':
      return threeWay(fullTime);
    case 'double_chance': {
      const { '1': home, X: draw, '2': away } = threeWay(fullTime);
      return {
        '1X': byWinner(home!.won || draw!.won),
        '12': byWinner(home!.won || away!.won),
        X2: byWinner(draw!.won || away!.won),
      };
    }
    case 'draw_no_bet':
      return twoWay(fullTime);
    case 'total':
      return total(fullTime.home + fullTime.away, specifiers);
    case 'asian_handicap':
      return handicap(fullTime, specifiers);
    case 'btts': {
      const both = fullTime.home > 0 && fullTime.away > 0;
      return { yes: byWinner(both), no: byWinner(!both) };
    }
    case 'correct_score':
      return correctScore(fullTime);
    case 'ht_1x2':
      return threeWay(halfTime);
    case 'ht_total':
      return total(halfTime.home + halfTime.away, specifiers);
  }
  throw new RangeError(`football does not offer ${type}`);
}

function tennis(result: TennisResult, type: string, specifiers: Specifiers): Record<string, OutcomeResult> {
  const setsWon = {
    home: result.sets.filter((set) => set.home > set.away).length,
    away: result.sets.filter((set) => set.away > set.home).length,
  };
  switch (type) {
    case 'winner':
      return twoWay(setsWon);
    case 'set_handicap':
      return handicap(setsWon, specifiers);
    case 'total_games':
      return total(
        result.sets.reduce((sum, set) => sum + set.home + set.away, 0),
        specifiers,
      );
  }
  throw new RangeError(`tennis does not offer ${type}`);
}

function basketball(result: BasketballResult, type: string, specifiers: Specifiers): Record<string, OutcomeResult> {
  switch (type) {
    case 'moneyline':
      return twoWay(result.final);
    case 'spread':
      return handicap(result.final, specifiers);
    case 'total_incl_overtime':
      return total(result.final.home + result.final.away, specifiers);
  }
  throw new RangeError(`basketball does not offer ${type}`);
}

function iceHockey(result: IceHockeyResult, type: string, specifiers: Specifiers): Record<string, OutcomeResult> {
  switch (type) {
    case '1x2':
      return threeWay(result.regularTime);
    case 'total':
      return total(result.regularTime.home + result.regularTime.away, specifiers);
  }
  throw new RangeError(`ice hockey does not offer ${type}`);
}

/** Every outcome of the market settled from the match's result: outcome id → result. */
export function resolveMarket(result: MatchResult, type: string, specifiers: Specifiers): Record<string, OutcomeResult> {
  checkSpecifiers(type, specifiers);
  const resolvers: { [S in Sport]: (r: Extract<MatchResult, { sport: S }>) => Record<string, OutcomeResult> } = {
    football: (r) => football(r, type, specifiers),
    tennis: (r) => tennis(r, type, specifiers),
    basketball: (r) => basketball(r, type, specifiers),
    ice_hockey: (r) => iceHockey(r, type, specifiers),
  };
  return (resolvers[result.sport] as (r: MatchResult) => Record<string, OutcomeResult>)(result);
}
