import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ODDS_SCALE } from '#common/sportsbook/odds';
import { compare, mul, ONE, ratioToNumber, sub, ZERO } from '#common/sportsbook/ratio';
import { resolveMarket } from '../rules/resolve';
import { marginedOdds } from './margin';
import { footballDistributions, expectedGoals, type FootballState } from './poisson';
import { priceFootball, priceIceHockey, type PricedMarket } from './pricing';
import { finalResult, footballScript, matchRng, stateAt } from './script';

const strength = fc.record({
  attack: fc.double({ min: 0.5, max: 1.8, noNaN: true }),
  defence: fc.double({ min: 0.5, max: 1.8, noNaN: true }),
});
const goals = fc.tuple(strength, strength).map(([home, away]) => expectedGoals(home, away));
const score = fc.record({ home: fc.integer({ min: 0, max: 4 }), away: fc.integer({ min: 0, max: 4 }) });
const state = fc
  .tuple(fc.integer({ min: 0, max: 89 }), score, score)
  .map(([minute, now, atHalf]): FootballState =>
    minute >= 45
      ? { minute, score: { home: now.home + atHalf.home, away: now.away + atHalf.away }, halfTimeScore: atHalf }
      : { minute, score: now },
  );
const margin = fc.integer({ min: 200, max: 1_000 });

const market = (markets: PricedMarket[], key: string) => markets.find((m) => m.key === key)!;
const fairOf = (m: PricedMarket, id: string) => m.outcomes.find((o) => o.id === id)!.fairProbability ?? 0;
const oddsOf = (m: PricedMarket, id: string) => m.outcomes.find((o) => o.id === id)!.oddsUnits;

/** Markets whose outcomes exclude one another (all but double chance). */
const partitionMarkets = (markets: PricedMarket[]) => markets.filter((m) => m.type !== 'double_chance');

describe('issue 14 simulator: a Poisson football model prices every market', () => {
  it('fair probabilities of every partition market sum to 1 (1X2, totals, Asian handicaps, BTTS, correct score…)', () => {
    fc.assert(
      fc.property(state, goals, (s, g) => {
        for (const m of partitionMarkets(priceFootball(s, g, 500))) {
          const sum = m.outcomes.reduce((total, o) => total + (o.fairProbability ?? 0), 0);
          if (m.outcomes.some((o) => o.fairProbability !== undefined)) expect(sum, m.key).toBeCloseTo(1, 9);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a margin makes the implied probabilities of a market’s prices sum to 1 + margin (up to rounding prices down)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.05, max: 1, noNaN: true }), { minLength: 2, maxLength: 3 }),
        margin,
        (weights, m) => {
          const total = weights.reduce((a, b) => a + b, 0);
          const prices = weights.map((w) => marginedOdds(w / total, m));
          fc.pre(prices.every((p) => p !== undefined));
          const implied = prices.reduce((sum, p) => sum + Number(ODDS_SCALE) / Number(p!), 0);
          const overround = 1 + m / 10_000;
          expect(implied).toBeGreaterThanOrEqual(overround - 1e-9);
          // Rounding each price down by under 0.01 adds under 0.01 / price² per outcome.
          const slack = prices.reduce((sum, p) => sum + 0.01 / (Number(p!) / 1e4 - 0.01) ** 2, 0);
          expect(implied).toBeLessThanOrEqual(overround + slack);
        },
      ),
    );
  });

  it('expected goals from kick-off match the model’s means', () => {
    fc.assert(
      fc.property(goals, (g) => {
        const { fullTime } = footballDistributions({ minute: 0, score: { home: 0, away: 0 } }, g);
        const mean = (side: 'home' | 'away') => fullTime.reduce((sum, e) => sum + e.probability * e.score[side], 0);
        // Cutting each window at MAX_EXTRA_GOALS loses well under 10⁻³ of a goal at these means.
        expect(mean('home')).toBeCloseTo(g.home, 3);
        expect(mean('away')).toBeCloseTo(g.away, 3);
      }),
      { numRuns: 30 },
    );
  });

  it('a home goal shortens the home win and lengthens the away win; any goal shortens the over', () => {
    fc.assert(
      fc.property(state, goals, (s, g) => {
        const before = priceFootball(s, g, 0);
        const scored: FootballState = { ...s, score: { ...s.score, home: s.score.home + 1 } };
        const after = priceFootball(scored, g, 0);
        const home = [fairOf(market(before, '1x2'), '1'), fairOf(market(after, '1x2'), '1')] as const;
        const away = [fairOf(market(before, '1x2'), '2'), fairOf(market(after, '1x2'), '2')] as const;
        // A result already certain (7–0 at minute 86 prices the home win at 1) cannot move further.
        if (home[0] < 1) expect(home[1]).toBeGreaterThan(home[0]);
        else expect(home[1]).toBe(1);
        if (away[0] > 0) expect(away[1]).toBeLessThan(away[0]);
        else expect(away[1]).toBe(0);
        expect(fairOf(market(after, 'total|total=2.5'), 'over')).toBeGreaterThanOrEqual(
          fairOf(market(before, 'total|total=2.5'), 'over'),
        );
      }),
      { numRuns: 40 },
    );
  });

  it('as the clock runs at a level score, the draw becomes likelier', () => {
    fc.assert(
      fc.property(goals, fc.integer({ min: 0, max: 80 }), (g, minute) => {
        const draw = (m: number) =>
          fairOf(
            market(priceFootball({ minute: m, score: { home: 1, away: 1 }, halfTimeScore: { home: 1, away: 1 } }, g, 0), '1x2'),
            'X',
          );
        expect(draw(Math.max(minute, 45) + 5)).toBeGreaterThan(draw(Math.max(minute, 45)));
      }),
      { numRuns: 30 },
    );
  });
});

describe('issue 14 simulator: a final score settles every market consistently with the outcome resolver', () => {
  it('at full time each outcome’s fair probability is exactly its share paid by the resolver', () => {
    for (let match = 0; match < 30; match++) {
      const script = footballScript(matchRng('consistency', match), { home: 1.6, away: 1.1 });
      const result = finalResult(script);
      // Half-time markets are off the board from the break: price them at minute 44 at the half-time score, no goal to come.
      const atFullTime = priceFootball(stateAt(script, 90), { home: 0, away: 0 }, 0);
      const halfTimeMarkets = priceFootball({ minute: 44, score: result.halfTime }, { home: 0, away: 0 }, 0).filter((m) =>
        m.type.startsWith('ht_'),
      );
      expect(halfTimeMarkets.length).toBeGreaterThan(0);
      for (const m of [...atFullTime, ...halfTimeMarkets]) {
        const settled = resolveMarket(result, m.type, m.specifiers);
        for (const outcome of m.outcomes) {
          const r = settled[outcome.id]!;
          const stakeBack = sub(ONE, r.voidFactor);
          const share = r.won ? mul(stakeBack, r.deadHeatFactor) : ZERO;
          if (compare(stakeBack, ZERO) === 0) expect(outcome.fairProbability).toBeUndefined();
          else expect(outcome.fairProbability).toBeCloseTo(ratioToNumber(share) / ratioToNumber(stakeBack), 12);
        }
      }
    }
  });

  it('double chance is priced as the sum of its two 1X2 outcomes', () => {
    fc.assert(
      fc.property(state, goals, (s, g) => {
        const markets = priceFootball(s, g, 0);
        const x = market(markets, '1x2');
        const pairs = market(markets, 'double_chance');
        expect(fairOf(pairs, '1X')).toBeCloseTo(fairOf(x, '1') + fairOf(x, 'X'), 12);
        expect(fairOf(pairs, '12')).toBeCloseTo(fairOf(x, '1') + fairOf(x, '2'), 12);
        expect(fairOf(pairs, 'X2')).toBeCloseTo(fairOf(x, 'X') + fairOf(x, '2'), 12);
      }),
      { numRuns: 20 },
    );
  });

  it('ice hockey 1X2 and totals are priced from the same process and sum to 1', () => {
    const markets = priceIceHockey({ minute: 20, score: { home: 1, away: 0 } }, { home: 3, away: 2.6 }, 500);
    for (const m of markets) expect(m.outcomes.reduce((s, o) => s + (o.fairProbability ?? 0), 0)).toBeCloseTo(1, 9);
    expect(oddsOf(market(markets, '1x2'), '1')! < oddsOf(market(markets, '1x2'), '2')!).toBe(true);
  });

  it('an outcome that can no longer happen is not offered', () => {
    const markets = priceFootball(
      { minute: 60, score: { home: 2, away: 1 }, halfTimeScore: { home: 1, away: 1 } },
      { home: 1.5, away: 1.2 },
      500,
    );
    expect(oddsOf(market(markets, 'correct_score'), '0:0')).toBeUndefined();
    expect(market(markets, 'total|total=1.5').status).toBe('deactivated');
  });
});
