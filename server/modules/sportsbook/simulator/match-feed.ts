/**
 * One simulated football match as the feed sends it (issue 14): every message of the match with
 * the match minute it goes out at, numbered 1… per event. The simulator process plays this
 * timeline against the clock (minuteAt × speed factor); tests apply it directly. What real feeds do
 * now and then is part of the timeline, drawn from the match's own seeded stream:
 * - a bet_stop before each dangerous moment, prices moving with score and clock after it;
 * - a provisional settlement at full time, confirmed after; sometimes the provisional one is wrong
 *   in a market and the confirmed one is its late correction;
 * - sometimes a settlement is rolled back and sent again.
 */
import { nextFloat, uniformInt, type Rng } from '#common/games/fair';
import type { EventStatus } from '#common/sportsbook/types';
import type { FeedMessageInput } from '../feed/messages';
import type { MatchResult } from '../rules/resolve';
import { oddsChangeMessage, settlementMessage } from './feed-messages';
import { FOOTBALL_MINUTES, HALF_TIME_MINUTE, type ExpectedGoals, type FootballState } from './poisson';
import { ICE_HOCKEY_MINUTES, priceFootball, priceIceHockey, type PricedMarket } from './pricing';
import { finalResult, footballScript, stateAt, type FootballScript } from './script';

export interface TimedMessage {
  /** The match minute it is sent at; 0 is kick-off, negative minutes are before it. */
  minute: number;
  message: FeedMessageInput;
}

/** The sports the simulator plays: a Poisson goal process each. */
export type SimulatedSport = 'football' | 'ice_hockey';

export interface MatchFeedOptions {
  /** Football unless told. */
  sport?: SimulatedSport;
  producer: string;
  eventId: string;
  goals: ExpectedGoals;
  marginBp: number;
  /** Epoch ms of kick-off: message timestamps are kick-off plus the match minute. */
  kickOff: number;
  /** When the fixture and its pre-match prices go out, in minutes from kick-off (default an hour before). */
  announceMinute?: number;
  /** Chances per match of a late correction and of a settlement rollback. */
  correctionRate: number;
  rollbackRate: number;
}

/** Live prices are sent every few minutes as the clock runs down, and after every dangerous moment. */
const PRICE_EVERY_MINUTES = 5;
/** Full time: the results go out provisional, then confirmed a few minutes later. */
const CONFIRM_AFTER_MINUTES = 3;
/** When the pre-match prices go out unless told: an hour before kick-off. */
const PREMATCH_MINUTE = -60;

type Body = { type: string } & Record<string, unknown>;

class Timeline {
  readonly messages: TimedMessage[] = [];
  constructor(private readonly options: MatchFeedOptions) {}

  header(minute: number) {
    return {
      producer: this.options.producer,
      eventId: this.options.eventId,
      sequence: this.messages.length + 1,
      timestamp: Math.max(0, this.options.kickOff + minute * 60_000),
    };
  }

  push(minute: number, message: FeedMessageInput): void {
    this.messages.push({ minute, message });
  }

  add(minute: number, body: Body): void {
    const h = this.header(minute);
    this.push(minute, {
      producer: h.producer,
      event_id: h.eventId,
      sequence: h.sequence,
      timestamp: h.timestamp,
      ...body,
    } as FeedMessageInput);
  }
}

function withStatus(message: FeedMessageInput, status: EventStatus, minute: number, score: { home: number; away: number }) {
  // Before kick-off the match has no clock yet.
  const clock = minute < 0 ? {} : { clock_minute: minute };
  return { ...message, event_status: { status, home_score: score.home, away_score: score.away, ...clock } } as FeedMessageInput;
}

interface SportModel {
  minutes: number;
  /** Every market on offer with the match at this state. */
  price(state: FootballState, goals: ExpectedGoals, marginBp: number): PricedMarket[];
  result(script: FootballScript): MatchResult;
  /** The result with the home side a goal up: what a provisional settlement a correction fixes said. */
  wrong(result: MatchResult): MatchResult;
}

const plusHomeGoal = (score: { home: number; away: number }) => ({ home: score.home + 1, away: score.away });

const MODELS: Record<SimulatedSport, SportModel> = {
  football: {
    minutes: FOOTBALL_MINUTES,
    price: priceFootball,
    result: finalResult,
    wrong: (result) => (result.sport === 'football' ? { ...result, fullTime: plusHomeGoal(result.fullTime) } : result),
  },
  ice_hockey: {
    minutes: ICE_HOCKEY_MINUTES,
    price: (state, goals, marginBp) => priceIceHockey({ minute: state.minute, score: state.score }, goals, marginBp),
    result: (script) => ({ sport: 'ice_hockey', regularTime: stateAt(script, ICE_HOCKEY_MINUTES).score }),
    wrong: (result) => (result.sport === 'ice_hockey' ? { ...result, regularTime: plusHomeGoal(result.regularTime) } : result),
  },
};

const modelOf = (options: MatchFeedOptions) => MODELS[options.sport ?? 'football'];

/** From kick-off to the last message (the confirmed results), in minutes. */
export function matchLengthMinutes(sport: SimulatedSport): number {
  return MODELS[sport].minutes + CONFIRM_AFTER_MINUTES;
}

function settledMarkets(markets: readonly PricedMarket[]) {
  return markets.map(({ type, specifiers }) => ({ type, specifiers }));
}

function priceInto(timeline: Timeline, options: MatchFeedOptions, minute: number, status: EventStatus, state: FootballState) {
  const markets = modelOf(options).price(state, options.goals, options.marginBp);
  timeline.push(minute, withStatus(oddsChangeMessage(timeline.header(minute), markets), status, minute, state.score));
  return markets;
}

function announce(options: MatchFeedOptions): { timeline: Timeline; markets: PricedMarket[] } {
  const timeline = new Timeline(options);
  const minute = Math.min(options.announceMinute ?? PREMATCH_MINUTE, 0);
  timeline.add(minute, { type: 'fixture_change', change_type: 'new', start_time: options.kickOff });
  const markets = priceInto(timeline, options, minute, 'not_started', { minute: 0, score: { home: 0, away: 0 } });
  return { timeline, markets };
}

/**
 * The match's first messages: the fixture and its pre-match prices, which need no script. The
 * simulator sends these for every scheduled match at once and plays the rest (simulatedMatchFeed,
 * which starts with the same messages) only when the match comes near: pricing a whole match costs.
 */
export function matchAnnouncement(options: MatchFeedOptions): TimedMessage[] {
  return announce(options).timeline.messages;
}

export function simulatedMatchFeed(rng: Rng, options: MatchFeedOptions): TimedMessage[] {
  const model = modelOf(options);
  const script = footballScript(rng, options.goals, model.minutes);
  const { timeline, markets: allMarkets } = announce(options);
  const danger = new Set(script.dangerMinutes);
  for (let minute = 0; minute < model.minutes; minute++) {
    if (danger.has(minute + 1)) timeline.add(minute, { type: 'bet_stop' });
    if (minute === 0 || danger.has(minute) || minute % PRICE_EVERY_MINUTES === 0 || minute === HALF_TIME_MINUTE)
      priceInto(timeline, options, minute, 'live', stateAt(script, minute));
  }
  settle(rng, timeline, options, model.result(script), settledMarkets(allMarkets));
  return timeline.messages;
}

function stateAtEnd(result: MatchResult): { home: number; away: number } {
  if (result.sport === 'football') return result.fullTime;
  if (result.sport === 'ice_hockey') return result.regularTime;
  throw new RangeError(`the simulator does not play ${result.sport}`);
}

function settle(
  rng: Rng,
  timeline: Timeline,
  options: MatchFeedOptions,
  result: MatchResult,
  markets: ReturnType<typeof settledMarkets>,
): void {
  const model = modelOf(options);
  const end = model.minutes;
  const score = stateAtEnd(result);
  timeline.push(end, withStatus(oddsChangeMessage(timeline.header(end), []), 'ended', end, score));
  const corrected = nextFloat(rng) < options.correctionRate;
  const provisional = corrected ? model.wrong(result) : result;
  timeline.push(end, settlementMessage(timeline.header(end), provisional, markets, 'provisional'));
  if (nextFloat(rng) < options.rollbackRate) {
    const market = markets[uniformInt(rng, markets.length)]!;
    timeline.add(end + 1, {
      type: 'rollback_bet_settlement',
      markets: [{ type: market.type, specifiers: { ...market.specifiers } }],
    });
  }
  const confirmAt = end + CONFIRM_AFTER_MINUTES;
  timeline.push(confirmAt, settlementMessage(timeline.header(confirmAt), result, markets, 'confirmed'));
  timeline.push(confirmAt, withStatus(oddsChangeMessage(timeline.header(confirmAt), []), 'closed', end, score));
}
