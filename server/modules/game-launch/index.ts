/** Launching the external studios' titles through the game aggregator (docs/game-aggregator.md). */
export { createGameLaunchService, type AggregatorTarget, type GameLaunchService, type LaunchRequest } from './service';
export { gameLaunchMethods } from './methods';
