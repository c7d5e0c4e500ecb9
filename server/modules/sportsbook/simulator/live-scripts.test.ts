/**
 * The simulator's tennis and basketball match scripts (issue 14: "plays matches in real time
 * (goals, points and games from a sports model …)", "a speed factor lets tests play a match in
 * seconds"): valid matches drawn from the models the prices come from, replayed by a seed, and
 * turned into the feed's messages with bet stops, live prices and a settlement that agrees with
 * the script's result.
 */
import { describe, expect, it } from 'vitest';
import { parseFeedMessage, outcomeResultFromFeed } from '../feed/messages';
import { compare, ZERO } from '#common/sportsbook/ratio';
import {
  basketballScoreAt,
  basketballScript,
  holdFromPoint,
  pointFromHold,
  setsScore,
  TENNIS_MAX_MINUTES,
  tennisClock,
  tennisScript,
  tennisStateAt,
} from './live-scripts';
import { matchLengthMinutes, simulatedMatchFeed } from './match-feed';
import { matchRng } from './script';
import { marketKey } from '#common/sportsbook/catalogue';

const HOLD = { home: 0.8, away: 0.72 };
const POINTS = { home: 112, away: 106 };

describe('issue 14 simulator: tennis played point by point', () => {
  it('the point chance found for a hold chance gives that hold chance back; an even point is an even game', () => {
    expect(holdFromPoint(0.5)).toBeCloseTo(0.5, 10);
    for (const hold of [0.55, 0.7, 0.8, 0.9]) expect(holdFromPoint(pointFromHold(hold))).toBeCloseTo(hold, 6);
  });

  it('every match is best of three with valid sets, its games in order, and a seed replays it', () => {
    for (let match = 0; match < 200; match++) {
      const script = tennisScript(matchRng('tennis', match), HOLD);
      const { sets } = script.result;
      const won = setsScore(script.result);
      expect(Math.max(won.home, won.away)).toBe(2);
      expect(Math.min(won.home, won.away)).toBeLessThan(2);
      for (const set of sets) {
        const [high, low] = [Math.max(set.home, set.away), Math.min(set.home, set.away)];
        expect((high === 6 && low <= 4) || (high === 7 && (low === 5 || low === 6))).toBe(true);
      }
      const points = script.games.map((game) => game.point);
      expect(points).toEqual([...points].sort((a, b) => a - b));
      expect(script.breakPoints.every((point) => point >= 1 && point <= script.points)).toBe(true);
      expect(tennisStateAt(script, TENNIS_MAX_MINUTES).sets).toEqual(sets);
      expect(tennisClock(script)(script.points)).toBeLessThanOrEqual(TENNIS_MAX_MINUTES);
    }
    expect(tennisScript(matchRng('tennis', 7), HOLD)).toEqual(tennisScript(matchRng('tennis', 7), HOLD));
  });

  it('service games are held at the model’s rate (300 seeded matches, within 4 standard errors)', () => {
    let served = 0;
    let held = 0;
    for (let match = 0; match < 300; match++) {
      const script = tennisScript(matchRng('hold-rate', match), { home: 0.75, away: 0.75 });
      let before = { sets: 0, games: { home: 0, away: 0 }, server: script.firstServer };
      for (const game of script.games) {
        const after = game.state;
        // The game's winner: who gained a game, or took the set the game closed.
        const setClosed = after.sets.length > before.sets;
        const winner = setClosed
          ? after.sets.at(-1)!.home > after.sets.at(-1)!.away
            ? 'home'
            : 'away'
          : after.games.home > before.games.home
            ? 'home'
            : 'away';
        const isTieBreak = before.games.home === 6 && before.games.away === 6;
        if (!isTieBreak) {
          served += 1;
          if (winner === before.server) held += 1;
        }
        before = { sets: after.sets.length, games: after.games, server: after.server };
      }
    }
    expect(Math.abs(held / served - 0.75)).toBeLessThan(4 * Math.sqrt((0.75 * 0.25) / served));
  });
});

describe('issue 14 simulator: basketball scored minute by minute', () => {
  it('no game ends level, the final is the sum of its minutes, and overtime is five-minute periods', () => {
    for (let match = 0; match < 300; match++) {
      const script = basketballScript(matchRng('basketball', match), POINTS);
      const { final } = script.result;
      expect(final.home).not.toBe(final.away);
      expect(basketballScoreAt(script, script.minutes.length)).toEqual(final);
      expect((script.minutes.length - 48) % 5).toBe(0);
      expect(script.runMinutes.every((minute) => minute >= 1 && minute <= script.minutes.length)).toBe(true);
    }
  });

  it('points per game average the expected points (400 seeded games, within 4 standard errors)', () => {
    let home = 0;
    const games = 400;
    for (let match = 0; match < games; match++)
      home += basketballScoreAt(basketballScript(matchRng('points', match), POINTS), 48).home;
    expect(Math.abs(home / games - POINTS.home)).toBeLessThan(4 * Math.sqrt(POINTS.home / games));
  });
});

describe.each([
  ['tennis', HOLD],
  ['basketball', POINTS],
] as const)('issue 14 simulator: a %s match as the feed sends it', (sport, rates) => {
  const feed = (seed: number) =>
    simulatedMatchFeed(matchRng(`feed-${sport}`, seed), {
      sport,
      producer: 'sim',
      eventId: `${sport}-${seed}`,
      goals: rates,
      marginBp: 500,
      kickOff: Date.UTC(2026, 5, 1, 15),
      correctionRate: 0,
      rollbackRate: 0,
    });

  it('numbered in order, a bet stop the minute before each dangerous moment, prices live in play, all within its length', () => {
    const timed = feed(1);
    const messages = timed.map((entry) => parseFeedMessage(entry.message));
    expect(messages.map((message) => ('sequence' in message ? message.sequence : 0))).toEqual(timed.map((_, i) => i + 1));
    const minutes = timed.map((entry) => entry.minute);
    expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
    expect(Math.max(...minutes)).toBeLessThanOrEqual(matchLengthMinutes(sport));
    const stops = timed.filter((entry) => entry.message.type === 'bet_stop');
    expect(stops.length).toBeGreaterThan(0);
    for (const stop of stops)
      expect(timed.some((entry) => entry.minute === stop.minute + 1 && entry.message.type === 'odds_change')).toBe(true);
    const live = messages.filter((message) => message.type === 'odds_change' && message.event_status?.status === 'live');
    expect(live.length).toBeGreaterThan(10);
    // The score and prices move during the match; tennis has no clock, basketball has one.
    const scores = new Set(live.map((message) => (message.type === 'odds_change' ? JSON.stringify(message.event_status) : '')));
    expect(scores.size).toBeGreaterThan(1);
    const prices = new Set(live.map((message) => (message.type === 'odds_change' ? JSON.stringify(message.markets) : '')));
    expect(prices.size).toBeGreaterThan(live.length / 2);
    for (const message of live)
      if (message.type === 'odds_change') expect(message.event_status?.clock_minute === undefined).toBe(sport === 'tennis');
  });

  it('the confirmed settlement is the script’s result: each market settles as the resolver reads the final score', () => {
    for (const seed of [2, 3, 4]) {
      const messages = feed(seed).map((entry) => parseFeedMessage(entry.message));
      const settlement = messages.findLast((message) => message.type === 'bet_settlement');
      const closed = messages.at(-1)!;
      expect(closed.type === 'odds_change' && closed.event_status?.status).toBe('closed');
      expect(settlement?.type === 'bet_settlement' && settlement.certainty).toBe('confirmed');
      if (settlement?.type !== 'bet_settlement' || closed.type !== 'odds_change') continue;
      for (const market of settlement.markets) {
        // Every outcome has a result, and exactly the winning ones of a two-way market won.
        const results = market.outcomes.map((outcome) => outcomeResultFromFeed(outcome));
        expect(results.length).toBeGreaterThan(1);
        expect(results.some((result) => result.won || compare(result.voidFactor, ZERO) > 0)).toBe(true);
      }
      // Every market the match ever offered (basketball's lines follow the game) is settled; none is left open.
      const offered = new Set(
        messages.flatMap((message) =>
          message.type === 'odds_change' ? message.markets.map((m) => marketKey(m.type, m.specifiers)) : [],
        ),
      );
      expect(new Set(settlement.markets.map((m) => marketKey(m.type, m.specifiers)))).toEqual(offered);
      const winner = settlement.markets.find((market) => market.type === (sport === 'tennis' ? 'winner' : 'moneyline'))!;
      const final = { home: closed.event_status!.home_score, away: closed.event_status!.away_score };
      const won = winner.outcomes.find((outcome) => outcomeResultFromFeed(outcome).won)!;
      expect(won.id).toBe(final.home > final.away ? '1' : '2');
    }
  });
});
