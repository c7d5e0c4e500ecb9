import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { marketTypesOf } from '#common/sportsbook/catalogue';
import { add, compare, mul, ONE, sub, ZERO, type Ratio } from '#common/sportsbook/ratio';
import { resolveMarket, type FootballResult, type MatchResult } from './resolve';
import type { OutcomeResult } from './settlement';

const goals = fc.integer({ min: 0, max: 7 });
const score = fc.record({ home: goals, away: goals });
const footballResult = fc.tuple(score, score).map(([half, second]): FootballResult => ({
  sport: 'football',
  halfTime: half,
  fullTime: { home: half.home + second.home, away: half.away + second.away },
}));
const line = (quarters: number) => String(quarters / 4);
const anyLine = fc.integer({ min: -20, max: 20 }).map(line);
const positiveLine = fc.integer({ min: 1, max: 40 }).map(line);

/** The share of the stake paid at the odds: (1 − void) × dead heat when won. */
const winningShare = (result: OutcomeResult): Ratio =>
  result.won ? mul(sub(ONE, result.voidFactor), result.deadHeatFactor) : ZERO;

function specifiersFor(type: string, hcp: string, total: string): Record<string, string> {
  if (['asian_handicap', 'set_handicap', 'spread'].includes(type)) return { hcp };
  if (['total', 'ht_total', 'total_games', 'total_incl_overtime'].includes(type)) return { total };
  return {};
}

/** For a market whose outcomes exclude one another, the winning shares and the common void share make one whole stake. */
function expectPartition(results: Record<string, OutcomeResult>): void {
  const all = Object.values(results);
  const voidShare = all[0]!.voidFactor;
  for (const result of all) expect(compare(result.voidFactor, voidShare)).toBe(0);
  expect(compare(all.map(winningShare).reduce(add, voidShare), ONE)).toBe(0);
}

const tennisResult = fc
  .array(fc.constantFrom([6, 4], [4, 6], [7, 6], [6, 7], [6, 0], [3, 6]), { minLength: 2, maxLength: 5 })
  .map((sets): MatchResult => ({ sport: 'tennis', sets: sets.map(([home, away]) => ({ home: home!, away: away! })) }))
  .filter(
    (r) => r.sport === 'tennis' && r.sets.filter((s) => s.home > s.away).length !== r.sets.filter((s) => s.away > s.home).length,
  );
const basketballResult = fc
  .record({ home: fc.integer({ min: 60, max: 130 }), away: fc.integer({ min: 60, max: 130 }) })
  .map((final): MatchResult => ({ sport: 'basketball', final }));
const hockeyResult = score.map((regularTime): MatchResult => ({ sport: 'ice_hockey', regularTime }));

describe('issue 14 outcome resolution: every market settles consistently from the final result', () => {
  it('every market but double chance pays exactly one whole stake across its outcomes (void shares included)', () => {
    const anyResult = fc.oneof(footballResult as fc.Arbitrary<MatchResult>, tennisResult, basketballResult, hockeyResult);
    fc.assert(
      fc.property(anyResult, anyLine, positiveLine, (result, hcp, total) => {
        for (const type of marketTypesOf(result.sport).filter((t) => t !== 'double_chance'))
          expectPartition(resolveMarket(result, type, specifiersFor(type, hcp, total)));
      }),
    );
  });

  it('double chance: the two pairs containing the 1X2 winner win, the third loses', () => {
    fc.assert(
      fc.property(footballResult, (result) => {
        const winner = Object.entries(resolveMarket(result, '1x2', {})).find(([, r]) => r.won)![0];
        for (const [pair, r] of Object.entries(resolveMarket(result, 'double_chance', {})))
          expect(r.won).toBe(pair.includes(winner));
      }),
    );
  });

  it('half-time 1X2 is decided by the half-time score alone', () => {
    fc.assert(
      fc.property(footballResult, score, (result, otherSecondHalf) => {
        const sameHalf: FootballResult = {
          ...result,
          fullTime: { home: result.halfTime.home + otherSecondHalf.home, away: result.halfTime.away + otherSecondHalf.away },
        };
        expect(resolveMarket(sameHalf, 'ht_1x2', {})).toEqual(resolveMarket(result, 'ht_1x2', {}));
      }),
    );
  });

  it('a half line total is won by over exactly when the goals exceed it', () => {
    fc.assert(
      fc.property(footballResult, fc.integer({ min: 0, max: 9 }), (result, whole) => {
        const total = `${whole}.5`;
        const goalsScored = result.fullTime.home + result.fullTime.away;
        expect(resolveMarket(result, 'total', { total }).over!.won).toBe(goalsScored > whole + 0.5);
      }),
    );
  });

  it('handicaps are symmetric: home at h on a:b is away at −h on b:a', () => {
    fc.assert(
      fc.property(footballResult, anyLine, (result, hcp) => {
        const swapped: FootballResult = {
          sport: 'football',
          halfTime: { home: result.halfTime.away, away: result.halfTime.home },
          fullTime: { home: result.fullTime.away, away: result.fullTime.home },
        };
        const negated = hcp.startsWith('-') ? hcp.slice(1) : hcp === '0' ? hcp : `-${hcp}`;
        expect(resolveMarket(result, 'asian_handicap', { hcp })['1']).toEqual(
          resolveMarket(swapped, 'asian_handicap', { hcp: negated })['2'],
        );
      }),
    );
  });

  it('draw no bet and a whole-line handicap push refund the stake', () => {
    const draw: FootballResult = { sport: 'football', halfTime: { home: 0, away: 0 }, fullTime: { home: 2, away: 2 } };
    for (const r of Object.values(resolveMarket(draw, 'draw_no_bet', {}))) expect(compare(r.voidFactor, ONE)).toBe(0);
    const homeByOne: FootballResult = { ...draw, fullTime: { home: 3, away: 2 } };
    for (const r of Object.values(resolveMarket(homeByOne, 'asian_handicap', { hcp: '-1' })))
      expect(compare(r.voidFactor, ONE)).toBe(0);
  });

  it('correct score: a listed score wins its outcome, a higher one wins "other"', () => {
    const listed: FootballResult = { sport: 'football', halfTime: { home: 0, away: 0 }, fullTime: { home: 2, away: 1 } };
    expect(resolveMarket(listed, 'correct_score', {})['2:1']!.won).toBe(true);
    expect(resolveMarket({ ...listed, fullTime: { home: 6, away: 1 } }, 'correct_score', {}).other!.won).toBe(true);
  });

  it('tennis: the winner has more sets, total games add every set, set handicap counts sets', () => {
    const match: MatchResult = {
      sport: 'tennis',
      sets: [
        { home: 6, away: 4 },
        { home: 3, away: 6 },
        { home: 7, away: 6 },
      ],
    };
    expect(resolveMarket(match, 'winner', {})['1']!.won).toBe(true);
    expect(resolveMarket(match, 'total_games', { total: '31.5' }).over!.won).toBe(true);
    expect(resolveMarket(match, 'total_games', { total: '32.5' }).under!.won).toBe(true);
    expect(resolveMarket(match, 'set_handicap', { hcp: '-1.5' })['2']!.won).toBe(true);
  });

  it('a market a sport does not offer is refused', () => {
    const match: MatchResult = { sport: 'ice_hockey', regularTime: { home: 1, away: 0 } };
    expect(() => resolveMarket(match, 'btts', {})).toThrow(RangeError);
  });
});
