import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bettingBetCounts,
  bonusTemplateSchema,
  BonusRuleError,
  checkMaxStake,
  contributionPercent,
  conversionOf,
  effectiveMultiplier,
  grantAmountMinor,
  jurisdictionSchema,
  splitPayout,
  splitStake,
  wageringContributionMinor,
  wageringRequirementMinor,
  windowEnd,
  type BonusTemplate,
} from './rules';

/** A welcome-style template: 100 % of the deposit up to 500, 35× the bonus, slots count fully. */
function template(overrides: Partial<BonusTemplate> = {}): BonusTemplate {
  return bonusTemplateSchema.parse({
    id: 'welcome',
    type: 'casino',
    amount: { kind: 'deposit_percent', percent: 100, caps: { EUR: '500.00' } },
    min_deposit: { EUR: '20.00' },
    wagering: { multiplier: 35, base: 'bonus' },
    contributions: { types: { slot: 100, casino: 10, live: 10, fast: 50 }, games: { 'blackjack-classic': 5 } },
    max_stake: { EUR: '5.00' },
    max_conversion: { EUR: '1000.00' },
    claim_hours: 72,
    wagering_hours: 720,
    ...overrides,
  });
}

const noJurisdiction = jurisdictionSchema.parse({});

function ruleError(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof BonusRuleError) return error.code;
    throw error;
  }
  return undefined;
}

describe('issue 13 bonus model: amount granted', () => {
  it('a deposit-percentage bonus matches the deposit and stops at the cap', () => {
    const welcome = template();
    expect(grantAmountMinor(welcome, 'EUR', 10_000n)).toBe(10_000n);
    expect(grantAmountMinor(welcome, 'EUR', 80_000n)).toBe(50_000n);
  });

  it('a fractional percentage rounds down to the cent', () => {
    const half = template({ amount: { kind: 'deposit_percent', percent: 12.5, caps: { EUR: '500.00' } } });
    expect(grantAmountMinor(half, 'EUR', 3_333n)).toBe((3_333n * 1_250n) / 10_000n);
  });

  it('a fixed bonus pays its amount in the player currency, and nothing in another', () => {
    const fixed = template({ amount: { kind: 'fixed', amounts: { EUR: '10.00' } }, min_deposit: undefined });
    expect(grantAmountMinor(fixed, 'EUR')).toBe(1_000n);
    expect(ruleError(() => grantAmountMinor(fixed, 'USD'))).toBe('NOT_AVAILABLE_IN_CURRENCY');
  });

  it('a deposit under the minimum deposit grants nothing', () => {
    expect(ruleError(() => grantAmountMinor(template(), 'EUR', 1_999n))).toBe('DEPOSIT_TOO_SMALL');
    expect(grantAmountMinor(template(), 'EUR', 2_000n)).toBe(2_000n);
  });
});

describe('issue 13 bonus model: wagering requirement and the jurisdiction cap', () => {
  it('multiplies the bonus, or the bonus plus the deposit', () => {
    expect(wageringRequirementMinor(template(), noJurisdiction, 10_000n, 10_000n)).toBe(350_000n);
    const both = template({ wagering: { multiplier: 20, base: 'bonus_plus_deposit' } });
    expect(wageringRequirementMinor(both, noJurisdiction, 10_000n, 5_000n)).toBe(300_000n);
  });

  it('a UK-style site caps the multiplier at its maximum, never raises it', () => {
    const capped = jurisdictionSchema.parse({ max_wagering_multiplier: 10 });
    expect(effectiveMultiplier(template(), capped)).toBe(10);
    expect(wageringRequirementMinor(template(), capped, 10_000n, 0n)).toBe(100_000n);
    expect(effectiveMultiplier(template({ wagering: { multiplier: 5, base: 'bonus' } }), capped)).toBe(5);
  });

  it('a fractional multiplier rounds the requirement up to the cent', () => {
    const odd = template({ wagering: { multiplier: 2.5, base: 'bonus' } });
    expect(wageringRequirementMinor(odd, noJurisdiction, 1n, 0n)).toBe(3n);
  });
});

describe('issue 13 bonus model: contribution per game category', () => {
  it('a game counts by its type, a configured game by its own figure, an unlisted type not at all', () => {
    const welcome = template();
    expect(contributionPercent(welcome, { sysname: 'fruit-slot', type: 'slot' })).toBe(100);
    expect(contributionPercent(welcome, { sysname: 'roulette', type: 'casino' })).toBe(10);
    expect(contributionPercent(welcome, { sysname: 'blackjack-classic', type: 'casino' })).toBe(5);
    expect(contributionPercent(welcome, { sysname: 'mystery', type: 'virtual' })).toBe(0);
  });

  it('the counted part of a stake is its percentage, rounded down to the cent', () => {
    expect(wageringContributionMinor(1_000n, 100)).toBe(1_000n);
    expect(wageringContributionMinor(1_005n, 10)).toBe(100n);
    expect(wageringContributionMinor(999n, 50)).toBe(499n);
  });
});

describe('issue 13 spending: maximum stake while wagering', () => {
  it('a stake above the maximum is refused, one at the maximum is taken', () => {
    expect(ruleError(() => checkMaxStake(template(), 'EUR', 501n))).toBe('STAKE_ABOVE_MAX');
    expect(ruleError(() => checkMaxStake(template(), 'EUR', 500n))).toBeUndefined();
    expect(ruleError(() => checkMaxStake(template({ max_stake: undefined }), 'EUR', 10n ** 9n))).toBeUndefined();
  });
});

describe('issue 13 spending: real money first, then the bonus; isolation', () => {
  it('takes real money first and the bonus only for the rest', () => {
    expect(splitStake(500n, { mainMinor: 1_000n, bonusMinor: 5_000n }, false)).toEqual({ fromMain: 500n, fromBonus: 0n });
    expect(splitStake(500n, { mainMinor: 200n, bonusMinor: 5_000n }, false)).toEqual({ fromMain: 200n, fromBonus: 300n });
    expect(splitStake(500n, { mainMinor: 0n, bonusMinor: 5_000n }, false)).toEqual({ fromMain: 0n, fromBonus: 500n });
    expect(splitStake(500n, { mainMinor: 100n, bonusMinor: 100n }, false)).toBeUndefined();
  });

  it('with isolation the bonus is frozen while real money remains', () => {
    expect(ruleError(() => splitStake(500n, { mainMinor: 200n, bonusMinor: 5_000n }, true))).toBe('BONUS_FROZEN');
    expect(splitStake(500n, { mainMinor: 0n, bonusMinor: 5_000n }, true)).toEqual({ fromMain: 0n, fromBonus: 500n });
    expect(splitStake(500n, { mainMinor: 600n, bonusMinor: 5_000n }, true)).toEqual({ fromMain: 500n, fromBonus: 0n });
  });

  it('property: a split pays exactly the stake and never more than either balance holds', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 8n }),
        fc.bigInt({ min: 0n, max: 10n ** 8n }),
        fc.bigInt({ min: 0n, max: 10n ** 8n }),
        (stake, main, bonus) => {
          const split = splitStake(stake, { mainMinor: main, bonusMinor: bonus }, false);
          if (!split) return stake > main + bonus;
          return split.fromMain + split.fromBonus === stake && split.fromMain <= main && split.fromBonus <= bonus;
        },
      ),
    );
  });

  it('winnings follow the stake: the bonus share of a payout goes back to the bonus balance', () => {
    expect(splitPayout(2_000n, { fromMain: 500n, fromBonus: 500n })).toEqual({ toMain: 1_000n, toBonus: 1_000n });
    expect(splitPayout(2_000n, { fromMain: 1_000n, fromBonus: 0n })).toEqual({ toMain: 2_000n, toBonus: 0n });
    expect(splitPayout(1_001n, { fromMain: 1n, fromBonus: 2n })).toEqual({ toMain: 334n, toBonus: 667n });
  });

  it('property: a payout is split whole, and the bonus never gets more than its share of the stake', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        fc.bigInt({ min: 0n, max: 10n ** 6n }),
        fc.bigInt({ min: 0n, max: 10n ** 6n }),
        (payout, fromMain, fromBonus) => {
          const { toMain, toBonus } = splitPayout(payout, { fromMain, fromBonus });
          const stake = fromMain + fromBonus;
          const fair = stake === 0n ? toBonus === 0n : toBonus * stake <= payout * fromBonus;
          return toMain + toBonus === payout && toMain >= 0n && toBonus >= 0n && fair;
        },
      ),
    );
  });
});

describe('issue 13 conversion: capped, the rest to the house', () => {
  it('converts the whole balance under the cap, and only the cap above it', () => {
    expect(conversionOf(template(), 'EUR', 40_000n)).toEqual({ toMain: 40_000n, toHouse: 0n });
    expect(conversionOf(template(), 'EUR', 150_000n)).toEqual({ toMain: 100_000n, toHouse: 50_000n });
    expect(conversionOf(template({ max_conversion: undefined }), 'EUR', 150_000n)).toEqual({ toMain: 150_000n, toHouse: 0n });
  });
});

describe('issue 13 betting bonuses: minimum odds', () => {
  it('a settled bet counts only at or above the minimum odds', () => {
    const freeBet = template({ type: 'betting', min_odds: 1.5, free_bet: true });
    expect(bettingBetCounts(freeBet, 1.49)).toBe(false);
    expect(bettingBetCounts(freeBet, 1.5)).toBe(true);
    expect(bettingBetCounts(template({ type: 'betting' }), 1.01)).toBe(true);
  });
});

describe('issue 13 windows: claim and wagering expiry', () => {
  it('a window ends the given hours after it opens', () => {
    const from = new Date('2026-11-24T10:00:00Z');
    expect(windowEnd(from, 72).toISOString()).toBe(new Date(from.getTime() + 72 * 3_600_000).toISOString());
  });

  it('the template schema refuses a template without windows or with a negative multiplier', () => {
    const { claim_hours: _unused, ...withoutClaim } = template();
    expect(bonusTemplateSchema.safeParse(withoutClaim).success).toBe(false);
    expect(bonusTemplateSchema.safeParse({ ...template(), wagering: { multiplier: -1, base: 'bonus' } }).success).toBe(false);
  });
});
