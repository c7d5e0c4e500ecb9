import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_ODDS, ODDS_SCALE } from '#common/sportsbook/odds';
import { ODDS_CHANGE_ACCEPTANCES } from '#common/sportsbook/types';
import { expandLines, type BetType } from '#common/sportsbook/bet-types';
import {
  acceptsOddsChange,
  limitBreaches,
  mostRestrictive,
  quoteSlip,
  validateSlip,
  type BetLimit,
  type SlipSelection,
} from './slip';

function selection(eventId: string, outcomeId = '1', oddsUnits = 20_000n, marketKey = '1x2'): SlipSelection {
  return { eventId, marketKey, outcomeId, oddsUnits };
}

const codes = (problems: { code: string }[]) => problems.map((problem) => problem.code);
const odds = fc.bigInt({ min: MIN_ODDS, max: 500_000n });

describe('issue 14 bet slip validation', () => {
  it('related selections (two from the same event) are refused in a multiple with a clear message', () => {
    const slip = [selection('match-1', '1'), selection('match-1', 'over', 18_000n, 'total|total=2.5'), selection('match-2')];
    const problems = validateSlip(slip, { kind: 'multiple' }, 100n);
    expect(codes(problems)).toEqual(['RELATED_SELECTIONS']);
    expect(problems[0]!.selections).toEqual([0, 1]);
    expect(problems[0]!.message).toMatch(/same event/);
  });

  it('related selections are allowed as singles, and refused in any system that combines them', () => {
    const slip = [selection('match-1', '1'), selection('match-1', 'over', 18_000n, 'total|total=2.5'), selection('match-2')];
    expect(validateSlip(slip, { kind: 'single' }, 100n)).toEqual([]);
    expect(codes(validateSlip(slip, { kind: 'system', size: 2 }, 100n))).toContain('RELATED_SELECTIONS');
  });

  it('the same selection twice is refused', () => {
    expect(codes(validateSlip([selection('a'), selection('a')], { kind: 'single' }, 100n))).toEqual(['DUPLICATE_SELECTION']);
  });

  it('a slip has at most the maximum of selections, and a named system exactly its own number', () => {
    const many = Array.from({ length: 5 }, (_, i) => selection(`e${i}`));
    expect(codes(validateSlip(many, { kind: 'multiple' }, 100n, 4))).toEqual(['TOO_MANY_SELECTIONS']);
    expect(codes(validateSlip(many, { kind: 'named', name: 'yankee' }, 100n))).toEqual(['WRONG_SELECTION_COUNT']);
    expect(validateSlip(many, { kind: 'named', name: 'canadian' }, 100n)).toEqual([]);
    expect(codes(validateSlip([], { kind: 'single' }, 100n))).toEqual(['NO_SELECTIONS']);
    expect(codes(validateSlip(many, { kind: 'single' }, 0n))).toEqual(['STAKE_NOT_POSITIVE']);
  });

  it('selections of distinct events pass for every bet type that fits their number', () => {
    const betTypes: BetType[] = [
      { kind: 'single' },
      { kind: 'multiple' },
      { kind: 'system', size: 3 },
      { kind: 'named', name: 'lucky31' },
    ];
    const slip = Array.from({ length: 5 }, (_, i) => selection(`e${i}`));
    for (const betType of betTypes) expect(validateSlip(slip, betType, 100n)).toEqual([]);
  });
});

describe('issue 14 bet slip: stake per line, total and potential return', () => {
  it('the total stake is the stake per line times the lines, and each line returns its odds’ product rounded down', () => {
    fc.assert(
      fc.property(fc.array(odds, { minLength: 4, maxLength: 4 }), fc.bigInt({ min: 1n, max: 10n ** 8n }), (prices, stake) => {
        const slip = prices.map((o, i) => selection(`e${i}`, '1', o));
        const quote = quoteSlip(slip, { kind: 'system', size: 2 }, stake);
        expect(quote.totalStakeMinor).toBe(stake * BigInt(expandLines({ kind: 'system', size: 2 }, 4).length));
        for (const line of quote.lines) {
          const [a, b] = line.selections.map((i) => prices[i]!);
          const exact = stake * a! * b!;
          const scale = ODDS_SCALE * ODDS_SCALE;
          expect(line.potentialReturnMinor * scale <= exact && (line.potentialReturnMinor + 1n) * scale > exact).toBe(true);
        }
        expect(quote.potentialReturnMinor).toBe(quote.lines.reduce((sum, line) => sum + line.potentialReturnMinor, 0n));
      }),
    );
  });
});

describe('issue 14 odds change acceptance (none / higher only / any)', () => {
  it('none takes only the same price, higher takes the same or a better one, any takes every price', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ODDS_CHANGE_ACCEPTANCES), odds, odds, (setting, slipOdds, current) => {
        const expected = { none: current === slipOdds, higher: current >= slipOdds, any: true }[setting];
        expect(acceptsOddsChange(setting, slipOdds, current)).toBe(expected);
      }),
    );
  });
});

describe('issue 14 limits: the most restrictive of player, market, league and site applies', () => {
  const limit = fc.record(
    {
      scope: fc.constantFrom('player', 'market', 'league', 'site') as fc.Arbitrary<BetLimit['scope']>,
      maxStakeMinor: fc.bigInt({ min: 1n, max: 10n ** 7n }),
      maxPayoutMinor: fc.bigInt({ min: 1n, max: 10n ** 9n }),
    },
    { requiredKeys: ['scope'] },
  );

  it('the effective limit is no higher than any given limit and is one of them', () => {
    fc.assert(
      fc.property(fc.array(limit, { maxLength: 4 }), (limits) => {
        const effective = mostRestrictive(limits);
        const stakes = limits.flatMap((l) => (l.maxStakeMinor === undefined ? [] : [l]));
        if (stakes.length === 0) expect(effective.maxStake).toBeUndefined();
        else {
          for (const l of stakes) expect(effective.maxStake!.minor <= l.maxStakeMinor!).toBe(true);
          expect(stakes.some((l) => l.maxStakeMinor === effective.maxStake!.minor && l.scope === effective.maxStake!.scope)).toBe(
            true,
          );
        }
      }),
    );
  });

  it('a slip above the effective stake or payout limit is refused, naming the limit that refused it', () => {
    const quote = quoteSlip([selection('a', '1', 30_000n)], { kind: 'single' }, 1_000n);
    const limits = mostRestrictive([
      { scope: 'site', maxStakeMinor: 100_000n, maxPayoutMinor: 2_000n },
      { scope: 'player', maxStakeMinor: 500n },
    ]);
    expect(limitBreaches(quote, limits)).toEqual([
      { kind: 'stake', scope: 'player', limitMinor: 500n },
      { kind: 'payout', scope: 'site', limitMinor: 2_000n },
    ]);
    expect(limitBreaches(quote, mostRestrictive([{ scope: 'site', maxStakeMinor: 1_000n, maxPayoutMinor: 3_000n }]))).toEqual([]);
  });

  it('the highest minimum stake and the lowest exposure limit win; a stake per line below the minimum is refused with it', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record(
            {
              scope: fc.constantFrom('player', 'market', 'league', 'site') as fc.Arbitrary<BetLimit['scope']>,
              minStakeMinor: fc.bigInt({ min: 1n, max: 10n ** 5n }),
              maxExposureMinor: fc.bigInt({ min: 1n, max: 10n ** 9n }),
            },
            { requiredKeys: ['scope'] },
          ),
          { maxLength: 4 },
        ),
        fc.bigInt({ min: 1n, max: 10n ** 5n }),
        (limits, stake) => {
          const effective = mostRestrictive(limits);
          for (const l of limits) {
            if (l.minStakeMinor !== undefined) expect(effective.minStake!.minor >= l.minStakeMinor).toBe(true);
            if (l.maxExposureMinor !== undefined) expect(effective.maxExposure!.minor <= l.maxExposureMinor).toBe(true);
          }
          const quote = quoteSlip([selection('a', '1', 20_000n)], { kind: 'single' }, stake);
          const refused = limitBreaches(quote, effective, stake).some((breach) => breach.kind === 'min_stake');
          expect(refused).toBe(effective.minStake !== undefined && stake < effective.minStake.minor);
        },
      ),
    );
  });
});
