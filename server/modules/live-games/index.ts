/** Live tables' public face (architecture §3): the service, its types, methods, routes and scheduler. */
export {
  createLiveGamesService,
  DEFAULT_LIVE_CONFIG,
  betView,
  type LiveBetResult,
  type LiveBetView,
  type LiveGamesConfig,
  type LiveGamesDeps,
  type LiveGamesService,
  type LivePhase,
  type LiveRoundView,
  type LiveState,
  type LiveTable,
} from './service';
export { liveGamesMethods } from './methods';
export { createLiveRoutes, type LiveRoutesOptions } from './routes';
// Public so the process configuration (server/config.ts) can set the caps on live-event streams.
export { DEFAULT_LIVE_STREAM_LIMITS, type LiveStreamLimits } from './stream-slots';
// The sportsbook's price stream caps its streams the same way.
export { createStreamSlots } from './stream-slots';
export { startLiveScheduler, type LiveScheduler, type SchedulerLogger } from './scheduler';
export { createLiveEvents, type LiveEvent, type LiveEvents } from './events';
export { isLiveEngine, liveResult, type LiveEngine, type LiveResult } from './rules';
// Game history merges a player's live bets with their in-house rounds (issue 15).
export { playerLiveBetsHistory } from './player-history';
