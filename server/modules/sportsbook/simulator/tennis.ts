/**
 * The simulator's tennis model (issue 14), simpler than football's by design: each player holds
 * serve with a fixed probability, games alternate serve, a set goes to 6 with two clear or to a
 * tie-break at 6-6, which the home player wins with the average of their hold and the away
 * player's break chance, (h₁ + 1 − h₂) / 2. Best of three sets. The model lists every way the
 * match can still end (each set's final games) with its probability, and the markets are priced
 * over those results by the same resolver that settles them.
 */
import type { Score, TennisResult } from '../rules/resolve';
import type { Side } from './script';
import { addProbability } from './poisson';
import { priceMarket, type PricedMarket, type ResultProbability } from './pricing';

export interface HoldProbabilities {
  home: number;
  away: number;
}

export interface TennisState {
  /** Sets already finished, in games. */
  sets: readonly Score[];
  /** Games of the set in play. */
  games: Score;
  /** Who serves the next game. */
  server: Side;
}

const SETS_TO_WIN = 2;
const other = (side: Side): Side => (side === 'home' ? 'away' : 'home');

interface SetEnd {
  score: Score;
  /** Who serves first in the next set: service keeps alternating across the set break. */
  nextServer: Side;
  probability: number;
}

function setOver({ home, away }: Score): boolean {
  return (Math.max(home, away) >= 6 && Math.abs(home - away) >= 2) || Math.max(home, away) === 7;
}

function tieBreak(games: Score, server: Side, hold: HoldProbabilities, probability: number): SetEnd[] {
  const homeWins = (hold.home + 1 - hold.away) / 2;
  return [
    { score: { home: 7, away: 6 }, nextServer: other(server), probability: probability * homeWins },
    { score: { home: 6, away: 7 }, nextServer: other(server), probability: probability * (1 - homeWins) },
  ];
}

/**
 * Every final score of the set in play from `games`, with who serves after it. Game by game, the
 * states still open are merged by score (the server follows from the score), so a set costs at
 * most a few dozen states rather than one per path.
 */
export function setEnds(games: Score, server: Side, hold: HoldProbabilities): SetEnd[] {
  const ends = new Map<string, SetEnd>();
  const finish = (end: SetEnd) => addProbability(ends, `${end.score.home}:${end.score.away}`, end);
  let open = new Map<string, { games: Score; server: Side; probability: number }>([['start', { games, server, probability: 1 }]]);
  while (open.size > 0) {
    const next = new Map<string, { games: Score; server: Side; probability: number }>();
    for (const state of open.values()) {
      if (setOver(state.games)) finish({ score: state.games, nextServer: state.server, probability: state.probability });
      else if (state.games.home === 6 && state.games.away === 6)
        tieBreak(state.games, state.server, hold, state.probability).forEach(finish);
      else {
        const homeTakesGame = state.server === 'home' ? hold.home : 1 - hold.away;
        for (const [winner, chance] of [
          ['home', homeTakesGame],
          ['away', 1 - homeTakesGame],
        ] as const) {
          const after = { ...state.games, [winner]: state.games[winner] + 1 };
          addProbability(next, `${after.home}:${after.away}`, {
            games: after,
            server: other(state.server),
            probability: state.probability * chance,
          });
        }
      }
    }
    open = next;
  }
  return [...ends.values()];
}

function setsWonBy(sets: readonly Score[], side: Side): number {
  return sets.filter((set) => set[side] > set[other(side)]).length;
}

/** Every way the match can end from the state: the full list of set scores and its probability. */
export function tennisResults(state: TennisState, hold: HoldProbabilities): ResultProbability[] {
  if (setsWonBy(state.sets, 'home') === SETS_TO_WIN || setsWonBy(state.sets, 'away') === SETS_TO_WIN)
    return [{ result: { sport: 'tennis', sets: state.sets } satisfies TennisResult, probability: 1 }];
  const byMatch = new Map<string, ResultProbability>();
  for (const end of setEnds(state.games, state.server, hold))
    for (const later of tennisResults(
      { sets: [...state.sets, end.score], games: { home: 0, away: 0 }, server: end.nextServer },
      hold,
    )) {
      addProbability(byMatch, JSON.stringify(later.result), {
        result: later.result,
        probability: end.probability * later.probability,
      });
    }
  return [...byMatch.values()];
}

export const TENNIS_LINES = { set_handicap: ['-1.5', '1.5'], total_games: ['20.5', '22.5', '24.5'] } as const;

export function priceTennis(state: TennisState, hold: HoldProbabilities, marginBp: number): PricedMarket[] {
  const results = tennisResults(state, hold);
  return [
    priceMarket(results, 'winner', {}, marginBp),
    ...TENNIS_LINES.set_handicap.map((hcp) => priceMarket(results, 'set_handicap', { hcp }, marginBp)),
    ...TENNIS_LINES.total_games.map((total) => priceMarket(results, 'total_games', { total }, marginBp)),
  ];
}
