/**
 * The slip's quote (issue 14 "Bet slip": line count, total stake and potential return as the
 * server will compute them) and the bet types a slip offers.
 */
import { describe, expect, it } from 'vitest';
import { NAMED_SYSTEMS, expandLines } from '#common/sportsbook/bet-types';
import { betTypesFor, quote } from './slip';

const selection = (odds: string, index: number) => ({ event_id: `e${index}`, market_key: 'm', outcome_id: 'o', odds });

describe('bet slip quote', () => {
  it('issue 14 bet slip: a single of one selection is one line returning stake × odds', () => {
    expect(quote({ kind: 'single' }, [selection('2.50', 0)], '4')).toEqual({ lines: 1, totalMinor: 400n, returnMinor: 1000n });
  });

  it('issue 14 bet slip: a multiple multiplies the prices into one line', () => {
    const slip = [selection('2.00', 0), selection('1.50', 1)];
    expect(quote({ kind: 'multiple' }, slip, '10.00')).toEqual({ lines: 1, totalMinor: 1000n, returnMinor: 3000n });
  });

  it('issue 14 bet slip: a system stakes every line that expandLines counts and returns the sum of the lines', () => {
    const slip = [selection('2.00', 0), selection('3.00', 1), selection('4.00', 2)];
    const result = quote({ kind: 'system', size: 2 }, slip, '1');
    expect(result.lines).toBe(expandLines({ kind: 'system', size: 2 }, 3).length);
    expect(result.totalMinor).toBe(100n * BigInt(result.lines));
    // 2×3 + 2×4 + 3×4 = 26 per unit staked.
    expect(result.returnMinor).toBe(2600n);
  });

  it('issue 14 free bet: the slip quotes the winnings only, the free bet stake not returned, for every line of a system too', () => {
    const single = quote({ kind: 'single' }, [selection('2.50', 0)], '5.00', { freeBet: true });
    expect(single).toEqual({ lines: 1, totalMinor: 500n, returnMinor: 1250n - 500n });
    const slip = [selection('1.10', 0), selection('1.10', 1), selection('1.10', 2)];
    const paid = quote({ kind: 'system', size: 2 }, slip, '1.00');
    const free = quote({ kind: 'system', size: 2 }, slip, '1.00', { freeBet: true });
    expect(free.returnMinor).toBe(paid.returnMinor - paid.totalMinor);
  });

  it('issue 14 bet slip: a stake that is not an amount costs and returns nothing', () => {
    expect(quote({ kind: 'single' }, [selection('2.00', 0)], '1,5x')).toMatchObject({ totalMinor: 0n, returnMinor: 0n });
  });

  it('issue 14 bet slip: the bet types offered fit the selection count', () => {
    expect(betTypesFor(0)).toEqual([]);
    expect(betTypesFor(1)).toEqual([{ kind: 'single' }]);
    const four = betTypesFor(4);
    expect(four).toContainEqual({ kind: 'system', size: 3 });
    expect(four).not.toContainEqual({ kind: 'system', size: 4 });
    const named = four.filter((type) => type.kind === 'named');
    expect(named.map((type) => (type.kind === 'named' ? type.name : ''))).toEqual(
      Object.entries(NAMED_SYSTEMS)
        .filter(([, system]) => system.selections === 4)
        .map(([name]) => name),
    );
    for (const type of four) expect(expandLines(type, 4).length).toBeGreaterThan(0);
  });
});
