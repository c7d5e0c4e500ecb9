import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combinations, expandLines, NAMED_SYSTEMS, type NamedSystem } from './bet-types';

/** n choose k by the multiplicative formula, independent of the enumeration under test. */
function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

describe('issue 14 bet slip: singles, multiples and systems expand into lines', () => {
  it('the named systems have the line counts the issue gives', () => {
    const issueCounts: Record<NamedSystem, number> = {
      trixie: 4,
      patent: 7,
      yankee: 11,
      lucky15: 15,
      canadian: 26,
      lucky31: 31,
      heinz: 57,
      lucky63: 63,
      super_heinz: 120,
      goliath: 247,
    };
    for (const name of Object.keys(NAMED_SYSTEMS) as NamedSystem[])
      expect(expandLines({ kind: 'named', name }, NAMED_SYSTEMS[name].selections), name).toHaveLength(issueCounts[name]);
  });

  it('a k/n system is every distinct k-fold of the n selections', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 10 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 2, max: n - 1 }))),
        ([n, k]) => {
          const lines = expandLines({ kind: 'system', size: k }, n);
          expect(lines).toHaveLength(binomial(n, k));
          expect(new Set(lines.map((line) => line.join())).size).toBe(lines.length);
          for (const line of lines) {
            expect(line).toHaveLength(k);
            expect(new Set(line).size).toBe(k);
            expect(line.every((index) => index >= 0 && index < n)).toBe(true);
          }
        },
      ),
    );
  });

  it('singles are one line per selection, a multiple one line of all', () => {
    expect(expandLines({ kind: 'single' }, 3)).toEqual([[0], [1], [2]]);
    expect(expandLines({ kind: 'multiple' }, 4)).toEqual([[0, 1, 2, 3]]);
  });

  it('a bet type that does not fit the number of selections has no lines', () => {
    expect(expandLines({ kind: 'multiple' }, 1)).toEqual([]);
    expect(expandLines({ kind: 'system', size: 3 }, 3)).toEqual([]);
    expect(expandLines({ kind: 'named', name: 'yankee' }, 5)).toEqual([]);
  });

  it('combinations enumerate exactly n choose k subsets', () => {
    for (let n = 0; n <= 8; n++) for (let k = 0; k <= n; k++) expect(combinations(n, k)).toHaveLength(binomial(n, k));
  });
});
