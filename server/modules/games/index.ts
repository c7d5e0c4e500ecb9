/** The game catalogue: games, providers, likes and the stake limits every game applies. */
export { createGamesService, type Game, type GameQuery, type GamesService } from './service';
export { gamesMethods } from './methods';
// Pure helpers: every module that takes a bet (rounds, live tables, free spins) checks the same limits.
export { checkStake, limitMinor, stakeLimits } from './stake-limits';
// The drawn tile art of games and providers, served by /platform/art (issue 15).
export { artUrl, drawnArt, versionedArtUrl, type DrawnArt } from './drawn-art';
