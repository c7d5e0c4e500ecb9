import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveMarket, type TennisResult } from '../rules/resolve';
import { basketballFinals, basketballMarginals, priceBasketball } from './basketball';
import { fairProbabilities, type PricedMarket } from './pricing';
import { priceTennis, setEnds, tennisResults, type TennisState } from './tennis';

const hold = fc.double({ min: 0.55, max: 0.92, noNaN: true });
const holds = fc.record({ home: hold, away: hold });
const start: TennisState = { sets: [], games: { home: 0, away: 0 }, server: 'home' };
const fair = (m: PricedMarket, id: string) => m.outcomes.find((o) => o.id === id)!.fairProbability ?? 0;
const sumOf = (m: PricedMarket) => m.outcomes.reduce((s, o) => s + (o.fairProbability ?? 0), 0);

function isTennisSet({ home, away }: { home: number; away: number }): boolean {
  const [high, low] = [Math.max(home, away), Math.min(home, away)];
  return (high === 6 && low <= 4) || (high === 7 && (low === 5 || low === 6));
}

describe('issue 14 simulator: tennis by hold probabilities (a simpler model, documented)', () => {
  it('every possible match is best of three with valid sets, and their probabilities sum to 1', () => {
    fc.assert(
      fc.property(holds, (h) => {
        const results = tennisResults(start, h);
        expect(results.reduce((s, r) => s + r.probability, 0)).toBeCloseTo(1, 9);
        for (const { result } of results) {
          const sets = (result as TennisResult).sets;
          expect(sets.every(isTennisSet)).toBe(true);
          const homeSets = sets.filter((s) => s.home > s.away).length;
          expect(Math.max(homeSets, sets.length - homeSets)).toBe(2);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('the model is fair to both sides: swapping the players’ holds and the first server swaps the winner’s chances', () => {
    fc.assert(
      fc.property(holds, (h) => {
        const home = fair(priceTennis(start, h, 0)[0]!, '1');
        const swapped = fair(priceTennis({ ...start, server: 'away' }, { home: h.away, away: h.home }, 0)[0]!, '2');
        expect(home).toBeCloseTo(swapped, 12);
      }),
      { numRuns: 15 },
    );
  });

  it('the better server is the likelier winner, and winning the first set makes a player likelier still', () => {
    fc.assert(
      fc.property(hold, hold, (a, b) => {
        fc.pre(Math.abs(a - b) > 0.01);
        const h = { home: Math.max(a, b), away: Math.min(a, b) };
        const before = fair(priceTennis(start, h, 0)[0]!, '1');
        const afterFirstSet = fair(
          priceTennis({ sets: [{ home: 6, away: 4 }], games: { home: 0, away: 0 }, server: 'home' }, h, 0)[0]!,
          '1',
        );
        expect(before).toBeGreaterThan(0.5);
        expect(afterFirstSet).toBeGreaterThan(before);
      }),
      { numRuns: 15 },
    );
  });

  it('every tennis market’s fair probabilities sum to 1, and a finished match prices as the resolver settles it', () => {
    const h = { home: 0.8, away: 0.7 };
    for (const m of priceTennis(start, h, 500)) expect(sumOf(m)).toBeCloseTo(1, 9);
    const finished: TennisState = {
      sets: [
        { home: 6, away: 3 },
        { home: 4, away: 6 },
        { home: 7, away: 6 },
      ],
      games: { home: 0, away: 0 },
      server: 'home',
    };
    const result: TennisResult = { sport: 'tennis', sets: finished.sets };
    for (const m of priceTennis(finished, h, 0))
      for (const o of m.outcomes) expect(o.fairProbability).toBe(resolveMarket(result, m.type, m.specifiers)[o.id]!.won ? 1 : 0);
  });

  it('a set ends only at a valid score', () => {
    for (const end of setEnds({ home: 5, away: 5 }, 'home', { home: 0.8, away: 0.8 })) expect(isTennisSet(end.score)).toBe(true);
  });
});

describe('issue 14 simulator: basketball by Poisson points with overtime (a simpler model, documented)', () => {
  const points = { home: 112, away: 106 };

  it('no game ends tied and the final scores’ probabilities sum to 1', () => {
    const finals = basketballFinals(0, { home: 0, away: 0 }, points);
    expect(finals.every((f) => f.score.home !== f.score.away)).toBe(true);
    expect(finals.reduce((s, f) => s + f.probability, 0)).toBeCloseTo(1, 9);
  });

  it('moneyline, spreads and totals sum to 1 and the main lines are close to even', () => {
    const markets = priceBasketball(0, { home: 0, away: 0 }, points, 500);
    for (const m of markets) expect(sumOf(m), m.key).toBeCloseTo(1, 9);
    const mainSpread = markets.filter((m) => m.type === 'spread')[1]!;
    const mainTotal = markets.filter((m) => m.type === 'total_incl_overtime')[1]!;
    expect(Math.abs(fair(mainSpread, '1') - 0.5)).toBeLessThan(0.1);
    expect(Math.abs(fair(mainTotal, 'over') - 0.5)).toBeLessThan(0.1);
    expect(fair(markets[0]!, '1')).toBeGreaterThan(0.5);
  });

  it('the difference and sum distributions priced from are those of the final scores, overtime carrying only the tie’s share', () => {
    for (const [minute, score] of [
      [0, { home: 0, away: 0 }],
      [44, { home: 101, away: 99 }],
      [47, { home: 104, away: 104 }],
    ] as const) {
      const finals = basketballFinals(minute, score, points);
      const { differences, sums } = basketballMarginals(minute, score, points);
      const byDifference = new Map<number, number>();
      const bySum = new Map<number, number>();
      for (const { score: s, probability } of finals) {
        byDifference.set(s.home - s.away, (byDifference.get(s.home - s.away) ?? 0) + probability);
        bySum.set(s.home + s.away, (bySum.get(s.home + s.away) ?? 0) + probability);
      }
      for (const [value, p] of byDifference) expect(differences.get(value) ?? 0, `difference ${value}`).toBeCloseTo(p, 9);
      for (const [value, p] of bySum) expect(sums.get(value) ?? 0, `sum ${value}`).toBeCloseTo(p, 9);
    }
    // Level with a minute to go, overtime is likely but not certain: the home side's chance stays near even,
    // and a one-point game is likelier than any difference of 10 or more.
    const { differences } = basketballMarginals(47, { home: 104, away: 104 }, points);
    const near = (differences.get(1) ?? 0) + (differences.get(-1) ?? 0);
    const far = [...differences].filter(([d]) => Math.abs(d) >= 10).reduce((sum, [, p]) => sum + p, 0);
    expect(near).toBeGreaterThan(far);
  });

  it('priced from the distributions merged between the lines, every market has the prices of the full distributions', () => {
    const { differences, sums } = basketballMarginals(30, { home: 60, away: 57 }, points);
    const asResults = (byValue: Map<number, number>, asScore: (n: number) => { home: number; away: number }) =>
      [...byValue].map(([value, probability]) => ({
        result: { sport: 'basketball' as const, final: asScore(value) },
        probability,
      }));
    const full = {
      differences: asResults(differences, (d) => ({ home: Math.max(d, 0), away: Math.max(-d, 0) })),
      sums: asResults(sums, (t) => ({ home: t, away: 0 })),
    };
    for (const market of priceBasketball(30, { home: 60, away: 57 }, points, 0)) {
      const fairFull = fairProbabilities(
        market.type === 'total_incl_overtime' ? full.sums : full.differences,
        market.type,
        market.specifiers,
      );
      for (const outcome of market.outcomes)
        expect(outcome.fairProbability, `${market.key} ${outcome.id}`).toBeCloseTo(fairFull[outcome.id]!, 12);
    }
  });

  it('a home basket makes the home side likelier to win', () => {
    const before = fair(priceBasketball(40, { home: 90, away: 90 }, points, 0)[0]!, '1');
    const after = fair(priceBasketball(40, { home: 93, away: 90 }, points, 0)[0]!, '1');
    expect(after).toBeGreaterThan(before);
  });
});
