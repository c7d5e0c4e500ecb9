/**
 * One simulated match (football, ice hockey, tennis or basketball) as the feed sends it (issue 14): every message of the match with
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
import type { MatchResult, Score } from '../rules/resolve';
import { oddsChangeMessage, settlementMessage } from './feed-messages';
import { FOOTBALL_MINUTES, HALF_TIME_MINUTE, type ExpectedGoals, type FootballState } from './poisson';
import { ICE_HOCKEY_MINUTES, priceFootball, priceIceHockey, type PricedMarket } from './pricing';
import { finalResult, footballScript, stateAt, type FootballScript } from './script';
import { BASKETBALL_MINUTES, priceBasketball } from './basketball';
import { priceTennis } from './tennis';
import {
  basketballMinutes,
  basketballScoreAt,
  basketballScript,
  setsScore,
  TENNIS_MAX_MINUTES,
  tennisClock,
  tennisScript,
  tennisStateAt,
} from './live-scripts';

export interface TimedMessage {
  /** The match minute it is sent at; 0 is kick-off, negative minutes are before it. */
  minute: number;
  message: FeedMessageInput;
}

/** The sports the simulator plays: goals (football, ice hockey), points (basketball), points, games and sets (tennis). */
export type SimulatedSport = 'football' | 'ice_hockey' | 'tennis' | 'basketball';

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

function withStatus(
  message: FeedMessageInput,
  status: EventStatus,
  minute: number | null,
  score: { home: number; away: number },
) {
  // Before kick-off the match has no clock yet, and tennis has none at all.
  const clock = minute === null || minute < 0 ? {} : { clock_minute: minute };
  return { ...message, event_status: { status, home_score: score.home, away_score: score.away, ...clock } } as FeedMessageInput;
}

/** A match played out by its sport's script: what the feed says of it minute by minute. */
interface PlayedScript {
  /** The minute the match ends (the last point, the final whistle). */
  endMinute: number;
  /** Minutes of a dangerous moment: betting stops the minute before and reopens at it. */
  dangerMinutes: ReadonlySet<number>;
  /** Minutes live prices go out at besides the regular ones (half-time, the end of a game). */
  priceMinutes: ReadonlySet<number>;
  /** The score the event status shows after `minute`, and the markets priced then. */
  at(minute: number): { score: Score; markets: () => PricedMarket[] };
  result: MatchResult;
}

interface SportModel {
  /** The longest the match can last (minutes of play): the schedule leaves it this long. */
  minutes: number;
  /** Live prices go out this often, in match minutes. */
  priceEvery: number;
  /** Whether the feed sends a match clock (tennis has none). */
  hasClock: boolean;
  /**
   * The sport's rates in `goals`: expected goals (football, ice hockey), expected points
   * (basketball), or each player's chance to hold serve (tennis).
   */
  prematch(rates: ExpectedGoals, marginBp: number): PricedMarket[];
  play(rng: Rng, rates: ExpectedGoals, marginBp: number): PlayedScript;
  /** The result with the home side a goal, point or game better: what a provisional settlement a correction fixes said. */
  wrong(result: MatchResult): MatchResult;
}

const plusHomeGoal = (score: { home: number; away: number }) => ({ home: score.home + 1, away: score.away });

/** Football and ice hockey: one Poisson goal process, over 90 or 60 minutes. */
function goalSport(
  minutes: number,
  price: (state: FootballState, goals: ExpectedGoals, marginBp: number) => PricedMarket[],
  result: (script: FootballScript) => MatchResult,
  priceMinutes: readonly number[],
): Pick<SportModel, 'prematch' | 'play'> {
  return {
    prematch: (goals, marginBp) => price({ minute: 0, score: { home: 0, away: 0 } }, goals, marginBp),
    play(rng, goals, marginBp) {
      const script = footballScript(rng, goals, minutes);
      return {
        endMinute: minutes,
        dangerMinutes: new Set(script.dangerMinutes),
        priceMinutes: new Set(priceMinutes),
        at(minute) {
          const state = stateAt(script, minute);
          return { score: state.score, markets: () => price(state, goals, marginBp) };
        },
        result: result(script),
      };
    },
  };
}

const MODELS: Record<SimulatedSport, SportModel> = {
  football: {
    minutes: FOOTBALL_MINUTES,
    priceEvery: PRICE_EVERY_MINUTES,
    hasClock: true,
    ...goalSport(FOOTBALL_MINUTES, priceFootball, finalResult, [HALF_TIME_MINUTE]),
    wrong: (result) => (result.sport === 'football' ? { ...result, fullTime: plusHomeGoal(result.fullTime) } : result),
  },
  ice_hockey: {
    minutes: ICE_HOCKEY_MINUTES,
    priceEvery: PRICE_EVERY_MINUTES,
    hasClock: true,
    ...goalSport(
      ICE_HOCKEY_MINUTES,
      (state, goals, marginBp) => priceIceHockey({ minute: state.minute, score: state.score }, goals, marginBp),
      (script) => ({ sport: 'ice_hockey', regularTime: stateAt(script, ICE_HOCKEY_MINUTES).score }),
      [],
    ),
    wrong: (result) => (result.sport === 'ice_hockey' ? { ...result, regularTime: plusHomeGoal(result.regularTime) } : result),
  },
  tennis: {
    minutes: TENNIS_MAX_MINUTES,
    priceEvery: PRICE_EVERY_MINUTES,
    hasClock: false,
    prematch: (hold, marginBp) => priceTennis({ sets: [], games: { home: 0, away: 0 }, server: 'home' }, hold, marginBp),
    play(rng, hold, marginBp) {
      const script = tennisScript(rng, hold);
      const clock = tennisClock(script);
      const priced = new Map<string, PricedMarket[]>();
      return {
        endMinute: clock(script.points),
        dangerMinutes: new Set(script.breakPoints.map(clock)),
        // Prices follow every game.
        priceMinutes: new Set(script.games.map((game) => clock(game.point))),
        at(minute) {
          const state = tennisStateAt(script, minute);
          // Between games the match stands still: the prices after a bet stop are those before it, priced once.
          const key = JSON.stringify(state);
          const markets = () => priced.get(key) ?? priced.set(key, priceTennis(state, hold, marginBp)).get(key)!;
          return { score: setsScore(state), markets };
        },
        result: script.result,
      };
    },
    // The home player credited with the first set's last game.
    wrong: (result) =>
      result.sport === 'tennis' && result.sets.length > 0
        ? { ...result, sets: [plusHomeGoal(result.sets[0]!), ...result.sets.slice(1)] }
        : result,
  },
  basketball: {
    minutes: BASKETBALL_MINUTES + 20,
    // Points come every few seconds: the prices keep up every three minutes (and after every run).
    priceEvery: 3,
    hasClock: true,
    prematch: (points, marginBp) => priceBasketball(0, { home: 0, away: 0 }, points, marginBp),
    play(rng, points, marginBp) {
      const script = basketballScript(rng, points);
      return {
        endMinute: basketballMinutes(script),
        dangerMinutes: new Set(script.runMinutes),
        priceMinutes: new Set([BASKETBALL_MINUTES]),
        at(minute) {
          const score = basketballScoreAt(script, minute);
          // In overtime the pricing model starts from the end of regulation with the score as it stands.
          return { score, markets: () => priceBasketball(Math.min(minute, BASKETBALL_MINUTES), score, points, marginBp) };
        },
        result: script.result,
      };
    },
    wrong: (result) => (result.sport === 'basketball' ? { ...result, final: plusHomeGoal(result.final) } : result),
  },
};

const modelOf = (options: MatchFeedOptions) => MODELS[options.sport ?? 'football'];

/** From kick-off to the last message (the confirmed results), in minutes: the longest the sport's match can last. */
export function matchLengthMinutes(sport: SimulatedSport): number {
  return MODELS[sport].minutes + CONFIRM_AFTER_MINUTES;
}

function settledMarkets(markets: readonly PricedMarket[]) {
  return markets.map(({ type, specifiers }) => ({ type, specifiers }));
}

function priceInto(
  timeline: Timeline,
  options: MatchFeedOptions,
  minute: number,
  status: EventStatus,
  score: Score,
  markets: PricedMarket[],
) {
  const clock = modelOf(options).hasClock ? minute : null;
  timeline.push(minute, withStatus(oddsChangeMessage(timeline.header(minute), markets), status, clock, score));
  return markets;
}

function announce(options: MatchFeedOptions): { timeline: Timeline; markets: PricedMarket[] } {
  const timeline = new Timeline(options);
  const minute = Math.min(options.announceMinute ?? PREMATCH_MINUTE, 0);
  timeline.add(minute, { type: 'fixture_change', change_type: 'new', start_time: options.kickOff });
  const markets = priceInto(
    timeline,
    options,
    minute,
    'not_started',
    { home: 0, away: 0 },
    modelOf(options).prematch(options.goals, options.marginBp),
  );
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
  const played = model.play(rng, options.goals, options.marginBp);
  const { timeline, markets: prematch } = announce(options);
  // Every market ever offered, in the order first offered: basketball's lines follow the game, and
  // a line no longer offered is deactivated (not left open at a stale price), then settled with the rest.
  const offered = new Map(prematch.map((market) => [market.key, market]));
  for (let minute = 0; minute < played.endMinute; minute++) {
    if (played.dangerMinutes.has(minute + 1)) timeline.add(minute, { type: 'bet_stop' });
    if (minute === 0 || played.dangerMinutes.has(minute) || minute % model.priceEvery === 0 || played.priceMinutes.has(minute)) {
      const { score, markets } = played.at(minute);
      const now = markets();
      const keys = new Set(now.map((market) => market.key));
      const withdrawn = [...offered.values()]
        .filter((market) => !keys.has(market.key) && market.status !== 'deactivated')
        .map((market) => ({ ...market, status: 'deactivated' as const }));
      for (const market of [...now, ...withdrawn]) offered.set(market.key, market);
      priceInto(timeline, options, minute, 'live', score, [...now, ...withdrawn]);
    }
  }
  settle(rng, timeline, options, played, settledMarkets([...offered.values()]));
  return timeline.messages;
}

function settle(
  rng: Rng,
  timeline: Timeline,
  options: MatchFeedOptions,
  played: PlayedScript,
  markets: ReturnType<typeof settledMarkets>,
): void {
  const model = modelOf(options);
  const { result, endMinute: end } = played;
  const score = played.at(end).score;
  const clock = model.hasClock ? end : null;
  timeline.push(end, withStatus(oddsChangeMessage(timeline.header(end), []), 'ended', clock, score));
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
  timeline.push(confirmAt, withStatus(oddsChangeMessage(timeline.header(confirmAt), []), 'closed', clock, score));
}
