/**
 * The bonus engine's rules, pure (issue 13): what a template grants, what wagering it asks,
 * how much of a stake counts, how a stake is split between real and bonus money, where winnings
 * go, and what converts. No database, no clock of its own: the service passes amounts in minor
 * units (bigint) and times as Date, so every rule is unit-tested on its own.
 */
import { amountToMinor } from '#common/money';
import { z } from 'zod';

/** Amounts per currency, as operators write them in configuration ("500.00"). */
const amountsByCurrency = z.record(z.string().regex(/^[A-Z]{3}$/), z.string().regex(/^\d+(\.\d{1,2})?$/));

const percent = z.number().min(0).max(100);

/** A bonus template of a site's configuration: the operator's offer, before any player has it. */
export const bonusTemplateSchema = z.object({
  id: z.string().regex(/^[a-z0-9_-]{1,64}$/),
  type: z.enum(['casino', 'betting']),
  amount: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('fixed'), amounts: amountsByCurrency }),
    z.object({ kind: z.literal('deposit_percent'), percent: z.number().positive().max(1000), caps: amountsByCurrency }),
  ]),
  min_deposit: amountsByCurrency.optional(),
  wagering: z.object({
    multiplier: z.number().min(0).max(200),
    /** What the multiplier multiplies: the bonus alone, or the bonus plus the qualifying deposit. */
    base: z.enum(['bonus', 'bonus_plus_deposit']),
  }),
  /** Percent of a stake that counts, per game type, and per game where a game differs from its type. */
  contributions: z
    .object({ types: z.record(z.string(), percent).default({}), games: z.record(z.string(), percent).default({}) })
    .default({ types: {}, games: {} }),
  max_stake: amountsByCurrency.optional(),
  /** The most bonus money that becomes real money on completion; the rest goes back to the house. */
  max_conversion: amountsByCurrency.optional(),
  claim_hours: z
    .number()
    .int()
    .positive()
    .max(24 * 365),
  wagering_hours: z
    .number()
    .int()
    .positive()
    .max(24 * 365),
  /** Betting bonuses only: a settled bet counts only at or above these odds. */
  min_odds: z.number().min(1).optional(),
  /** A free bet: its stake is never paid out, only what a winning bet returns above it. */
  free_bet: z.boolean().optional(),
  /** The player-facing title and terms per language (en is the fallback). */
  texts: z.record(z.string(), z.object({ title: z.string().max(200), text: z.string().max(5000).default('') })).optional(),
});

export type BonusTemplate = z.infer<typeof bonusTemplateSchema>;

/** Per-site rules of the jurisdiction the site is licensed in. */
export const jurisdictionSchema = z
  .object({
    /** The highest wagering multiplier a bonus may carry on this site (e.g. 10 on a UK-style site). */
    max_wagering_multiplier: z.number().positive().optional(),
    /** Casino and betting bonuses may not be combined: only one kind may be active or available. */
    forbid_mixed_bonuses: z.boolean().default(false),
  })
  .default({ forbid_mixed_bonuses: false });

export type Jurisdiction = z.infer<typeof jurisdictionSchema>;

export class BonusRuleError extends Error {
  constructor(
    readonly code: 'NOT_AVAILABLE_IN_CURRENCY' | 'DEPOSIT_TOO_SMALL' | 'ZERO_AMOUNT' | 'STAKE_ABOVE_MAX' | 'BONUS_FROZEN',
    message: string,
  ) {
    super(message);
  }
}

function amountIn(amounts: Record<string, string> | undefined, currency: string): bigint | undefined {
  const amount = amounts?.[currency];
  return amount === undefined ? undefined : amountToMinor(amount);
}

/** How much a template grants in a currency, given the qualifying deposit when it matches one. */
export function grantAmountMinor(template: BonusTemplate, currency: string, depositMinor = 0n): bigint {
  const minimum = amountIn(template.min_deposit, currency);
  if (minimum !== undefined && depositMinor < minimum) {
    throw new BonusRuleError(
      'DEPOSIT_TOO_SMALL',
      `the deposit is below the offer's minimum of ${template.min_deposit?.[currency]}`,
    );
  }
  const granted =
    template.amount.kind === 'fixed'
      ? amountIn(template.amount.amounts, currency)
      : depositPercentGrant(depositMinor, template.amount.percent, amountIn(template.amount.caps, currency));
  if (granted === undefined) throw new BonusRuleError('NOT_AVAILABLE_IN_CURRENCY', `the bonus is not offered in ${currency}`);
  if (granted <= 0n) throw new BonusRuleError('ZERO_AMOUNT', 'the bonus would be worth nothing');
  return granted;
}

function depositPercentGrant(depositMinor: bigint, percentage: number, capMinor: bigint | undefined): bigint | undefined {
  if (capMinor === undefined) return undefined;
  // Percent in hundredths so 12.5 % stays exact; rounded down: the house never grants a fraction of a cent more.
  const matched = (depositMinor * BigInt(Math.round(percentage * 100))) / 10_000n;
  return matched < capMinor ? matched : capMinor;
}

/** The multiplier that applies on a site: the template's, capped by the jurisdiction. */
export function effectiveMultiplier(template: BonusTemplate, jurisdiction: Jurisdiction): number {
  const cap = jurisdiction.max_wagering_multiplier;
  return cap === undefined ? template.wagering.multiplier : Math.min(template.wagering.multiplier, cap);
}

/** How much must be wagered to complete a bonus, rounded up to the cent. */
export function wageringRequirementMinor(
  template: BonusTemplate,
  jurisdiction: Jurisdiction,
  bonusMinor: bigint,
  depositMinor: bigint,
): bigint {
  const base = template.wagering.base === 'bonus' ? bonusMinor : bonusMinor + depositMinor;
  const multiplierHundredths = BigInt(Math.round(effectiveMultiplier(template, jurisdiction) * 100));
  return (base * multiplierHundredths + 99n) / 100n;
}

/** The percent of a stake on this game that counts toward wagering (a game's own figure wins over its type's). */
export function contributionPercent(template: BonusTemplate, game: { sysname: string; type: string }): number {
  return template.contributions.games[game.sysname] ?? template.contributions.types[game.type] ?? 0;
}

/** What a settled stake adds to wagering progress, rounded down to the cent. */
export function wageringContributionMinor(stakeMinor: bigint, percentage: number): bigint {
  return (stakeMinor * BigInt(Math.round(percentage * 100))) / 10_000n;
}

/** Refuses a stake above the bonus's maximum while it is being wagered. */
export function checkMaxStake(template: BonusTemplate, currency: string, stakeMinor: bigint): void {
  const maximum = amountIn(template.max_stake, currency);
  if (maximum !== undefined && stakeMinor > maximum) {
    throw new BonusRuleError(
      'STAKE_ABOVE_MAX',
      `the stake is above the ${template.max_stake?.[currency]} allowed while a bonus is wagered`,
    );
  }
}

export interface StakeSplit {
  fromMain: bigint;
  fromBonus: bigint;
}

/**
 * Where a casino stake comes from: real money first, then the active bonus. With isolation the
 * bonus is frozen while real money remains, so a stake is paid wholly by one or the other: a stake
 * the real balance cannot cover while it is not empty is refused rather than topped up with bonus.
 * Returns undefined when the two together cannot pay it (the ledger's insufficient-funds answer).
 */
export function splitStake(
  stakeMinor: bigint,
  balances: { mainMinor: bigint; bonusMinor: bigint },
  isolation: boolean,
): StakeSplit | undefined {
  const { mainMinor, bonusMinor } = balances;
  if (stakeMinor <= mainMinor) return { fromMain: stakeMinor, fromBonus: 0n };
  if (isolation && mainMinor > 0n) {
    throw new BonusRuleError('BONUS_FROZEN', 'bonus money is used only once the real balance is spent');
  }
  const fromMain = mainMinor > 0n ? mainMinor : 0n;
  const fromBonus = stakeMinor - fromMain;
  return fromBonus <= bonusMinor ? { fromMain, fromBonus } : undefined;
}

/**
 * Where a payout goes while a bonus is wagered: the share the bonus paid of the stake goes back
 * to the bonus balance, the rest to real money. The bonus share is rounded down: an odd cent of
 * rounding is the player's real money, never held back by wagering.
 */
export function splitPayout(payoutMinor: bigint, split: StakeSplit): { toMain: bigint; toBonus: bigint } {
  const stake = split.fromMain + split.fromBonus;
  if (stake === 0n || split.fromBonus === 0n) return { toMain: payoutMinor, toBonus: 0n };
  const toBonus = (payoutMinor * split.fromBonus) / stake;
  return { toMain: payoutMinor - toBonus, toBonus };
}

/** On completion: the bonus balance becomes real money up to the cap; the rest returns to the house. */
export function conversionOf(
  template: BonusTemplate,
  currency: string,
  bonusBalanceMinor: bigint,
): { toMain: bigint; toHouse: bigint } {
  const cap = amountIn(template.max_conversion, currency);
  const toMain = cap !== undefined && bonusBalanceMinor > cap ? cap : bonusBalanceMinor;
  return { toMain, toHouse: bonusBalanceMinor - toMain };
}

/** A betting bonus counts a settled bet only at or above its minimum odds. */
export function bettingBetCounts(template: BonusTemplate, odds: number): boolean {
  return template.min_odds === undefined || odds >= template.min_odds;
}

/** The end of a window that opens at `from` and lasts `hours`. */
export function windowEnd(from: Date, hours: number): Date {
  return new Date(from.getTime() + hours * 3_600_000);
}
