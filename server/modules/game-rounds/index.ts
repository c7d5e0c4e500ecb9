/**
 * The in-house games' public face (architecture §3): the single-request and stateful round
 * services, their types, methods and jurisdiction rules, and the declared pure helpers other
 * games read bets with.
 */
export {
  createGameRoundsService,
  DEMO_CREDIT_MINOR,
  ownerKeyOf,
  playingCurrency,
  roundView,
  type Gambler,
  type GameRoundsDeps,
  type GameRoundsService,
  type PlayResult,
  type RoundView,
  type SeedsView,
} from './service';
export {
  createStatefulRoundsService,
  type StatefulResult,
  type StatefulRoundsDeps,
  type StatefulRoundsService,
} from './stateful';
export { gameRoundsMethods } from './methods';
export { statefulRoundsMethods } from './stateful-methods';
export { jurisdictionMethods } from './jurisdiction-methods';
export { gamesJurisdiction, type GamesJurisdiction } from './jurisdiction';
// Bet parsing shared with the live tables.
export { BetParamError, isSingleRequestEngine, parseStake, prepareBet } from './engines';
// A player's rounds as game history lists and exports them.
// The live tables' history query shares its filter and row shape.
export {
  historyConditions,
  historyKind,
  historyStatus,
  playerRoundsHistory,
  type PlayerHistoryRow,
  type PlayerRoundsFilter,
} from './player-history';
export type { GameRoundMode } from './tables';
// The site's latest big wins, for the home page's rail (issue 15).
export { bigRoundsQuery, recentBigRounds, type BigRoundRow } from './big-rounds';
