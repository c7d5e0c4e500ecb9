import { describe, expect, it } from 'vitest';
import { parseFeedMessage, outcomeResultFromFeed, type FeedMessage } from '../feed/messages';
import { EMPTY_SEQUENCER, sequence } from '../feed/sequencer';
import { resolveMarket } from '../rules/resolve';
import { compare } from '#common/sportsbook/ratio';
import { disorder, oddsChangeMessage, settlementMessage } from './feed-messages';
import { priceFootball } from './pricing';
import { finalResult, footballScript, matchRng, minuteAt, poissonDraw, stateAt } from './script';

const goals = { home: 1.6, away: 1.1 };

describe('issue 14 simulator: seeded match scripts', () => {
  it('one seed replays the same match; another seed plays another', () => {
    expect(footballScript(matchRng('s', 1), goals)).toEqual(footballScript(matchRng('s', 1), goals));
    const scripts = Array.from({ length: 10 }, (_, i) => JSON.stringify(footballScript(matchRng('s', i), goals)));
    expect(new Set(scripts).size).toBeGreaterThan(1);
  });

  it('goals fall in minutes 1–90 in order, each at a dangerous moment', () => {
    for (let match = 0; match < 200; match++) {
      const script = footballScript(matchRng('order', match), goals);
      const minutes = script.goals.map((goal) => goal.minute);
      expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
      for (const minute of minutes) {
        expect(minute >= 1 && minute <= 90).toBe(true);
        expect(script.dangerMinutes).toContain(minute);
      }
    }
  });

  it('goals per match average the expected goals (2 000 seeded matches, within 4 standard errors)', () => {
    const matches = 2_000;
    let home = 0;
    for (let match = 0; match < matches; match++) home += poissonDraw(matchRng('mean', match), goals.home);
    // A Poisson's variance is its mean.
    expect(Math.abs(home / matches - goals.home)).toBeLessThan(4 * Math.sqrt(goals.home / matches));
  });

  it('the state at a minute counts the goals so far, and the half-time score from the break on', () => {
    const script = {
      goals: [
        { minute: 10, side: 'home' as const },
        { minute: 50, side: 'away' as const },
      ],
      dangerMinutes: [10, 50],
    };
    expect(stateAt(script, 30)).toEqual({ minute: 30, score: { home: 1, away: 0 } });
    expect(stateAt(script, 60)).toEqual({ minute: 60, score: { home: 1, away: 1 }, halfTimeScore: { home: 1, away: 0 } });
    expect(finalResult(script)).toEqual({ sport: 'football', halfTime: { home: 1, away: 0 }, fullTime: { home: 1, away: 1 } });
  });

  it('a speed factor plays a match in seconds: at 600× ninety minutes take nine seconds', () => {
    expect(minuteAt(9_000, 600)).toBe(90);
    expect(minuteAt(4_500, 600)).toBe(45);
    expect(minuteAt(60 * 60_000, 1)).toBe(60);
    expect(() => minuteAt(1, 0)).toThrow(RangeError);
  });
});

describe('issue 14 simulator: what it sends is what the feed consumer reads', () => {
  it('settlement messages parse and carry exactly the resolver’s results', () => {
    for (let match = 0; match < 20; match++) {
      const script = footballScript(matchRng('settle', match), goals);
      const result = finalResult(script);
      const markets = priceFootball(stateAt(script, 0), goals, 500);
      const message = parseFeedMessage(
        settlementMessage({ producer: 'live', eventId: `m${match}`, sequence: 1, timestamp: 0 }, result, markets, 'confirmed'),
      );
      if (message.type !== 'bet_settlement') throw new Error('not a settlement');
      for (const m of message.markets) {
        const expected = resolveMarket(result, m.type, m.specifiers);
        for (const outcome of m.outcomes) {
          const read = outcomeResultFromFeed(outcome);
          expect(read.won).toBe(expected[outcome.id]!.won);
          expect(compare(read.voidFactor, expected[outcome.id]!.voidFactor)).toBe(0);
          expect(compare(read.deadHeatFactor, expected[outcome.id]!.deadHeatFactor)).toBe(0);
        }
      }
    }
  });

  it('a match sent with duplicates and out of order is applied by the sequencer exactly as it was played', () => {
    const script = footballScript(matchRng('disorder', 7), goals);
    const played = Array.from({ length: 19 }, (_, i) =>
      parseFeedMessage(
        oddsChangeMessage(
          { producer: 'live', eventId: 'm7', sequence: i + 1, timestamp: i },
          priceFootball(stateAt(script, i * 5), goals, 500),
        ),
      ),
    );
    const delivered = disorder(matchRng('disorder-delivery', 7), played, { duplicateRate: 0.3, swapRate: 0.3 });
    expect(delivered.length).toBeGreaterThan(played.length);
    let state = EMPTY_SEQUENCER;
    const applied: FeedMessage[] = [];
    for (const message of delivered) {
      const step = sequence(state, message);
      state = step.state;
      if (step.decision.action === 'apply') applied.push(...step.decision.messages);
    }
    expect(applied).toEqual(played);
  });
});
