/** Spec §3 loyalty progress helper: minValue, maxValue, expCount (percentage of experience). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { levelOf, levelProgress, type LoyaltyLevel } from './loyalty-contract';

/** Levels as a programme has them: numbered from 1, the first at 0, thresholds rising. */
const levelsArbitrary = fc
  .uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 6 })
  .map((thresholds): LoyaltyLevel[] =>
    [0, ...thresholds.sort((a, b) => a - b)].map((min_points, index) => ({
      level: index + 1,
      sysname: `level-${index + 1}`,
      min_points,
    })),
  );

describe('loyalty levels and progress (spec §3 progress helper)', () => {
  it('the level reached is the highest whose threshold the experience meets', () => {
    fc.assert(
      fc.property(levelsArbitrary, fc.integer({ min: 0, max: 2_000_000 }), (levels, experience) => {
        const level = levelOf(levels, experience);
        expect(experience).toBeGreaterThanOrEqual(level.min_points);
        const next = levels[level.level];
        if (next) expect(experience).toBeLessThan(next.min_points);
      }),
    );
  });

  it('minValue and maxValue are the thresholds around the experience; expCount is the share done, 0 to 100', () => {
    fc.assert(
      fc.property(levelsArbitrary, fc.integer({ min: 0, max: 2_000_000 }), (levels, experience) => {
        const { minValue, maxValue, expCount } = levelProgress(levels, experience);
        const current = levelOf(levels, experience);
        expect(minValue).toBe(current.min_points);
        expect(expCount).toBeGreaterThanOrEqual(0);
        expect(expCount).toBeLessThanOrEqual(100);
        if (current === levels.at(-1)) {
          expect({ maxValue, expCount }).toEqual({ maxValue: minValue, expCount: 100 });
        } else {
          expect(maxValue).toBe(levels[current.level]?.min_points);
          expect(expCount).toBe(Math.floor(((experience - minValue) / (maxValue - minValue)) * 100));
        }
      }),
    );
  });

  it('halfway between two thresholds is 50 %', () => {
    const levels: LoyaltyLevel[] = [
      { level: 1, sysname: 'bronze', min_points: 0 },
      { level: 2, sysname: 'silver', min_points: 500 },
    ];
    expect(levelProgress(levels, 250)).toEqual({ minValue: 0, maxValue: 500, expCount: 50 });
    expect(levelProgress(levels, 500)).toEqual({ minValue: 500, maxValue: 500, expCount: 100 });
  });
});
