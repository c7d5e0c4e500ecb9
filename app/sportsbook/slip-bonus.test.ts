/**
 * The slip's checks of a betting bonus before it asks the server (issue 14 "a free bet / betting
 * bonus through the bonus engine's service, minimum odds honoured"): the same combined odds and
 * minimum-odds comparison as the server's rule, and a free bet split evenly over the lines or not at all.
 */
import { describe, expect, it } from 'vitest';
import { combinedOdds, freeBetStakePerLine, meetsMinOdds } from './slip-bonus';

const bonus = (amount: string) => ({ balance: { amount, currency: 'EUR' } });

describe('betting bonus on the slip', () => {
  it('combined odds are the product of the selections’ prices; an unreadable price counts as 1.00', () => {
    expect(combinedOdds([{ odds: '1.50' }, { odds: '2.00' }])).toBeCloseTo(3, 10);
    expect(combinedOdds([{ odds: '1.25' }, { odds: 'x' }])).toBeCloseTo(1.25, 10);
    expect(combinedOdds([])).toBe(1);
  });

  it('minimum odds: met at or above the bonus’s minimum, as bonuses/rules.ts bettingBetCounts compares; no minimum takes any odds', () => {
    expect(meetsMinOdds({ min_odds: 1.5 }, 1.5)).toBe(true);
    expect(meetsMinOdds({ min_odds: 1.5 }, 1.49)).toBe(false);
    expect(meetsMinOdds({ min_odds: null }, 1.01)).toBe(true);
  });

  it('a free bet is staked whole: its amount over the lines when that is whole cents, else refused (null)', () => {
    expect(freeBetStakePerLine(bonus('5.00'), 1)).toBe('5.00');
    expect(freeBetStakePerLine(bonus('5.00'), 4)).toBe('1.25');
    expect(freeBetStakePerLine(bonus('5.00'), 3)).toBeNull();
    expect(freeBetStakePerLine(bonus('5.00'), 0)).toBeNull();
  });
});
