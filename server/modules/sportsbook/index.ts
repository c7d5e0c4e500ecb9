/**
 * The sportsbook (issue 14): its pure core, the odds feed with its store, and the offer's reads.
 *
 * What is here:
 * - common/sportsbook/: contract types (sports, event and market statuses, odds formats, views),
 *   the market catalogue as data with en/it names (catalogue.ts), odds as bigint ten-thousandths
 *   with decimal/fractional/American display (odds.ts), exact fractions for money (ratio.ts), and
 *   bet types with their lines (singles, multiples, k/n and named systems: bet-types.ts).
 * - rules/: slip validation and quotes, odds-change acceptance, the most restrictive limit,
 *   settlement by void and dead-heat factors, outcome resolution per sport from a match result,
 *   cash-out.
 * - feed/: unified-odds-feed message schemas, fixtures, the FeedAdapter interface and its HTTP
 *   implementation (http-adapter.ts: SSE stream, recovery after the last applied sequence per
 *   event, reconnects), the per-event sequencer, the producer liveness tracker, the reducer of an
 *   event's markets (market-state.ts), and the launcher of the simulator process.
 * - store/: tables.ts as the feed last described the offer; feed-store.ts applies one message per
 *   transaction (sequence, reduce, write what changed, hand the effects to `onEffects`), suspends a
 *   silent producer's markets and restores them on its recovery; consumer.ts runs the adapter into
 *   the store with the gap and liveness timers; start-feed.ts is what the site's start-up calls.
 * - offer.ts, methods.ts, routes.ts: sportsbook.getSports/getEvents/getEvent and the SSE price
 *   stream at /platform/sportsbook/prices.
 * - simulator/: the default feed provider — Poisson football and ice hockey pricing with a
 *   margin, seeded match scripts, a fixture schedule (schedule.ts), a match as timed feed
 *   messages with late corrections and rollbacks (match-feed.ts), playback against a sped-up clock
 *   with disorder and outages (provider.ts), served over HTTP (http.ts) by its own process
 *   (server/feed-simulator/main.ts).
 *
 * What the next session wires on top (see docs/architecture.md, "Adding a module"):
 * - tickets with their lines and legs, settlements with certainty and rollbacks, cash-outs, acting
 *   on the store's effects through `onEffects` (settle, correction, rollback, cancel; a cancel voids
 *   the tickets cancelCovers places in its window);
 * - placing a bet through server/modules/round-intake (stake, payout and refund transfers) and the
 *   betting bonus service: validateSlip, quoteSlip, acceptsOddsChange against the market's current
 *   price (feed.eventState), limitBreaches(mostRestrictive([...])); settling with settleTicket;
 *   cash-out via cashOutPrice / partialCashOut; the /betting pages in app/;
 * - the simulator's tennis and basketball (their pricing is here; their match scripts are not).
 */
export {
  DEFAULT_MAX_SELECTIONS,
  acceptsOddsChange,
  limitBreaches,
  mostRestrictive,
  quoteSlip,
  validateSlip,
  type BetLimit,
  type EffectiveLimits,
  type LimitBreach,
  type SlipProblem,
  type SlipQuote,
  type SlipSelection,
} from './rules/slip';
export {
  LOST,
  VOID,
  WON,
  legFactor,
  settleLine,
  settleTicket,
  type LineSettlement,
  type OutcomeResult,
  type SettledLeg,
  type TicketSettlement,
} from './rules/settlement';
export { resolveMarket, type MatchResult } from './rules/resolve';
export { DEFAULT_CASH_OUT_MARGIN_BP, cashOutPrice, partialCashOut, type CashOutLeg, type PartialCashOut } from './rules/cash-out';
export {
  cancelCovers,
  outcomeResultFromFeed,
  parseFeedMessage,
  type EventFeedMessage,
  type FeedMessage,
  type FeedMessageInput,
} from './feed/messages';
export type { FeedAdapter, FeedHandler } from './feed/adapter';
export { NEW_EVENT, applyToEvent, producerDown, type EventState, type MarketEffect, type MarketState } from './feed/market-state';
export {
  EMPTY_SEQUENCER,
  forgetEvent,
  resetEvent,
  sequence,
  skipGap,
  type SequenceDecision,
  type SequencerState,
} from './feed/sequencer';
export {
  NO_PRODUCERS,
  checkLiveness,
  isProducerUp,
  recordAlive,
  type LivenessState,
  type LivenessTransition,
} from './feed/liveness';
export { createSportsbookService, type SportsbookService, type SportsbookServiceDeps } from './service';
export type { ApplyOutcome, ApplyResult, ChangeListener, EffectsHandler, FeedStore } from './store/feed-store';
export { parseFixture, type Fixture } from './feed/fixtures';
// The built-in feed simulator (its process is server/feed-simulator/main.ts) and its demo token.
export { createFeedProvider, type FeedProvider, type FeedProviderOptions } from './simulator/provider';
export { matchAnnouncement } from './simulator/match-feed';
export { DEMO_FEED_TOKEN, createFeedSimulatorApp } from './simulator/http';
export { startSimulatorProcess, type SimulatorProcess } from './feed/simulator-process';
// The site's feed: the HTTP adapter to a provider (the simulator or a real feed) and the consumer feeding the store.
export { createHttpFeedAdapter, type HttpFeedAdapterOptions } from './feed/http-adapter';
export { startFeedConsumer, type FeedConsumerOptions } from './store/consumer';
export { readServerSentEvents } from './feed/sse';
export { startSportsbookFeed, type FeedSource, type RunningFeed, type StartFeedOptions } from './store/start-feed';
export { sportsbookMethods } from './methods';
export { createSportsbookRoutes } from './routes';
// The ticket book: placing slips and settling them from the feed's market effects (tickets/).
export {
  createTicketBook,
  type BettingBonusFunding,
  type MarketSource,
  type PlaceTicketRequest,
  type PlacedTicket,
  type SelectionNow,
  type TicketBook,
} from './tickets/service';
export { LIMIT_SCOPES, type OperatorLimitScope, type TicketLegRow, type TicketRow, type TicketStatus } from './tickets/tables';
export { describeLegs, storeMarketSource } from './tickets/market-source';
export { sportsbookLimits } from './tickets/limits';
export { sportsbookBetMethods } from './tickets/methods';
