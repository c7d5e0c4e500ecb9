/** A site's loyalty programme read from its settings, and points from a wager total (loyalty/programme.ts). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loyaltyProgramme, pointsForWagered } from './programme';

describe('loyalty programme settings', () => {
  it('a site that sets none has a disabled programme with one level from 0 and no characters', () => {
    expect(loyaltyProgramme({})).toEqual({
      isEnabled: false,
      wagerMinorPerPoint: {},
      levels: [{ level: 1, sysname: 'member', min_points: 0 }],
      characters: [],
    });
  });

  it('sorts levels by threshold, numbers them from 1, starts the first at 0 and drops malformed or repeated ones', () => {
    const programme = loyaltyProgramme({
      loyalty: {
        is_enabled: true,
        levels: [
          { sysname: 'gold', min_points: 900 },
          { sysname: 'silver', min_points: 100 },
          { sysname: 'bronze', min_points: 10 },
          { sysname: 'copy', min_points: 100 },
          { sysname: 'Bad Name', min_points: 50 },
          { sysname: 'negative', min_points: -5 },
        ],
      },
    });
    expect(programme.levels).toEqual([
      { level: 1, sysname: 'bronze', min_points: 0 },
      { level: 2, sysname: 'silver', min_points: 100 },
      { level: 3, sysname: 'gold', min_points: 900 },
    ]);
  });

  it('keeps characters with a unique positive id, a sysname and a same-site image; rates per ISO currency above 0', () => {
    const programme = loyaltyProgramme({
      loyalty: {
        wager_minor_per_point: { EUR: 100, usd: 5, BRL: 0, GBP: 1.5 },
        characters: [
          { id: 1, sysname: 'fox', image: '/platform/art/loyalty-fox.svg' },
          { id: 1, sysname: 'copy', image: '/x.svg' },
          { id: 0, sysname: 'zero', image: '/x.svg' },
          { id: 2, sysname: 'far', image: 'https://elsewhere.example/x.svg' },
          { id: 3, sysname: 'owl', image: '/platform/art/loyalty-owl.svg' },
        ],
      },
    });
    expect(programme.wagerMinorPerPoint).toEqual({ EUR: 100n });
    expect(programme.characters.map((character) => character.sysname)).toEqual(['fox', 'owl']);
  });

  it('points from a wager total: every whole rate is a point, none for a total at or below 0 or without a rate', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -10_000_000n, max: 10_000_000_000n }),
        fc.bigInt({ min: 1n, max: 100_000n }),
        (total, rate) => {
          const points = pointsForWagered(total, rate);
          if (total <= 0n) {
            expect(points).toBe(0n);
          } else {
            expect(points * rate).toBeLessThanOrEqual(total);
            expect((points + 1n) * rate).toBeGreaterThan(total);
          }
        },
      ),
    );
    expect(pointsForWagered(1_000n, undefined)).toBe(0n);
  });
});
