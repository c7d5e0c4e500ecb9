/**
 * Prices from the model (issue 14): each outcome's fair probability is what makes a bet on it
 * worth its stake, read off the same resolver settlement uses. With v the void share and w the
 * share paid at the odds ((1 − void) × dead-heat when won), averaged over the possible results,
 *
 *     E[return] = E[v] + odds × E[w] = 1   ⇒   fair odds = (1 − E[v]) / E[w]
 *
 * so the fair probability is E[w] / (1 − E[v]): plain for 1X2 and totals, and right for draw no
 * bet and Asian quarter lines whose stakes come back in part.
 */
import { marketKey } from '#common/sportsbook/catalogue';
import { mul, ratioToNumber, sub, ONE } from '#common/sportsbook/ratio';
import type { MarketStatus, Specifiers } from '#common/sportsbook/types';
import { resolveMarket, type FootballResult, type IceHockeyResult, type MatchResult } from '../rules/resolve';
import { marginedOdds } from './margin';
import {
  addPoissonGoals,
  footballDistributions,
  goalsInMinutes,
  HALF_TIME_MINUTE,
  type ExpectedGoals,
  type FootballState,
  type ScoreProbability,
} from './poisson';

export interface ResultProbability {
  result: MatchResult;
  probability: number;
}

export interface PricedOutcome {
  id: string;
  /** Undefined when the outcome cannot happen or cannot be priced. */
  fairProbability?: number;
  oddsUnits?: bigint;
}

export interface PricedMarket {
  key: string;
  type: string;
  specifiers: Specifiers;
  status: Extract<MarketStatus, 'active' | 'deactivated'>;
  outcomes: PricedOutcome[];
}

/** Fair probability per outcome over the possible results (undefined for a market certain to void). */
export function fairProbabilities(
  results: readonly ResultProbability[],
  type: string,
  specifiers: Specifiers,
): Record<string, number | undefined> {
  const paid: Record<string, number> = {};
  const voided: Record<string, number> = {};
  for (const { result, probability } of results)
    for (const [id, outcome] of Object.entries(resolveMarket(result, type, specifiers))) {
      const winningShare = outcome.won ? ratioToNumber(mul(sub(ONE, outcome.voidFactor), outcome.deadHeatFactor)) : 0;
      paid[id] = (paid[id] ?? 0) + probability * winningShare;
      voided[id] = (voided[id] ?? 0) + probability * ratioToNumber(outcome.voidFactor);
    }
  return Object.fromEntries(
    Object.keys(paid).map((id) => [id, 1 - voided[id]! > 1e-12 ? paid[id]! / (1 - voided[id]!) : undefined]),
  );
}

export function priceMarket(
  results: readonly ResultProbability[],
  type: string,
  specifiers: Specifiers,
  marginBp: number,
): PricedMarket {
  const fair = fairProbabilities(results, type, specifiers);
  const outcomes = Object.entries(fair).map(([id, fairProbability]) => ({
    id,
    fairProbability,
    oddsUnits: fairProbability === undefined ? undefined : marginedOdds(fairProbability, marginBp),
  }));
  // A market with no two prices to choose between is decided in all but name: take it off.
  const priced = outcomes.filter((outcome) => outcome.oddsUnits !== undefined).length;
  return { key: marketKey(type, specifiers), type, specifiers, status: priced >= 2 ? 'active' : 'deactivated', outcomes };
}

/** The lines the simulator offers: main and alternative totals and handicaps, quarter lines included. */
export const FOOTBALL_LINES = {
  total: ['1.5', '2.25', '2.5', '2.75', '3.5'],
  ht_total: ['0.5', '1.5'],
  asian_handicap: ['-1.5', '-0.75', '-0.25', '0', '0.25', '0.5'],
} as const;

/** One result per score: full-time markets read only the full-time score, half-time markets only the half-time one. */
function asFootball(distribution: readonly ScoreProbability[]): ResultProbability[] {
  return distribution.map(({ score, probability }) => ({
    result: { sport: 'football', halfTime: score, fullTime: score } satisfies FootballResult,
    probability,
  }));
}

/** Every football market the simulator offers at this state of the match. */
export function priceFootball(state: FootballState, goals: ExpectedGoals, marginBp: number): PricedMarket[] {
  const { halfTime, fullTime } = footballDistributions(state, goals);
  const full = asFootball(fullTime);
  const markets = [
    ...['1x2', 'double_chance', 'draw_no_bet', 'btts', 'correct_score'].map((type) => priceMarket(full, type, {}, marginBp)),
    ...FOOTBALL_LINES.total.map((total) => priceMarket(full, 'total', { total }, marginBp)),
    ...FOOTBALL_LINES.asian_handicap.map((hcp) => priceMarket(full, 'asian_handicap', { hcp }, marginBp)),
  ];
  if (state.minute >= HALF_TIME_MINUTE) return markets;
  const half = asFootball(halfTime);
  return [
    ...markets,
    priceMarket(half, 'ht_1x2', {}, marginBp),
    ...FOOTBALL_LINES.ht_total.map((total) => priceMarket(half, 'ht_total', { total }, marginBp)),
  ];
}

export const ICE_HOCKEY_MINUTES = 60;
export const ICE_HOCKEY_TOTALS = ['4.5', '5.5', '6.5'] as const;

/** Ice hockey's regular-time 1X2 and totals: the same Poisson process over 60 minutes. */
export function priceIceHockey(
  state: Omit<FootballState, 'halfTimeScore'>,
  goals: ExpectedGoals,
  marginBp: number,
): PricedMarket[] {
  const left = goalsInMinutes(goals, ICE_HOCKEY_MINUTES - state.minute, ICE_HOCKEY_MINUTES);
  const results = addPoissonGoals([{ score: state.score, probability: 1 }], left).map(({ score, probability }) => ({
    result: { sport: 'ice_hockey', regularTime: score } satisfies IceHockeyResult,
    probability,
  }));
  return [
    priceMarket(results, '1x2', {}, marginBp),
    ...ICE_HOCKEY_TOTALS.map((total) => priceMarket(results, 'total', { total }, marginBp)),
  ];
}
