/**
 * The sportsbook (issue 14) — this is its pure core; no tables, service, methods or routes yet.
 *
 * What is here:
 * - common/sportsbook/: contract types (sports, event and market statuses, odds formats, views),
 *   the market catalogue as data with en/it names (catalogue.ts), odds as bigint ten-thousandths
 *   with decimal/fractional/American display (odds.ts), exact fractions for money (ratio.ts), and
 *   bet types with their lines (singles, multiples, k/n and named systems: bet-types.ts).
 * - rules/: slip validation and quotes, odds-change acceptance, the most restrictive limit,
 *   settlement by void and dead-heat factors, outcome resolution per sport from a match result,
 *   cash-out.
 * - feed/: unified-odds-feed message schemas, the FeedAdapter interface, the per-event sequencer,
 *   the producer liveness tracker, and the reducer of an event's markets (market-state.ts) whose
 *   effects say which tickets to settle, void or reopen.
 * - simulator/: the model of the default feed provider — Poisson football (and ice hockey) pricing
 *   with a margin, seeded match scripts, feed messages built from prices and results, disorder.
 *
 * What the next session wires on top (see docs/architecture.md, "Adding a module"):
 * - tables.ts: sports/categories/tournaments/events/markets/outcomes as the feed last described
 *   them, applied feed messages (event id + sequence as the idempotency key), tickets with their
 *   lines and legs, settlements with certainty and rollbacks, cash-outs;
 * - the simulator as a FeedAdapter: schedule fixtures (footballScript per match, matchRng seed),
 *   a timer driving minuteAt(elapsed, speed) → stateAt → priceFootball → oddsChangeMessage, a
 *   bet_stop at each danger minute, settlementMessage provisional then confirmed at full time,
 *   disorder/outages now and then, alive heartbeats per producer;
 * - the feed consumer: parseFeedMessage → sequence (skipGap after a timeout) → applyToEvent in one
 *   transaction per message, acting on its effects (settle, correction, rollback, cancel; a
 *   cancel voids the tickets cancelCovers places in its window); checkLiveness on a timer,
 *   producerDown on every event of a producer that went down;
 * - placing a bet through server/modules/round-intake (stake, payout and refund transfers) and the
 *   betting bonus service: validateSlip, quoteSlip, acceptsOddsChange against the market's current
 *   price, limitBreaches(mostRestrictive([...])); settling with settleTicket; cash-out via
 *   cashOutPrice / partialCashOut; product-API methods and the /betting pages in app/.
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
export { DEMO_FEED_TOKEN, createFeedSimulatorApp } from './simulator/http';
export { startSimulatorProcess, type SimulatorProcess } from './feed/simulator-process';
// The site's feed: the HTTP adapter to a provider (the simulator or a real feed) and the consumer feeding the store.
export { createHttpFeedAdapter, type HttpFeedAdapterOptions } from './feed/http-adapter';
export { startFeedConsumer, type FeedConsumerOptions } from './store/consumer';
export { readServerSentEvents } from './feed/sse';
export { startSportsbookFeed, type FeedSource, type RunningFeed, type StartFeedOptions } from './store/start-feed';
export { sportsbookMethods } from './methods';
export { createSportsbookRoutes } from './routes';
