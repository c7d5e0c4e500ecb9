/**
 * The bet slip's rules (issue 14): which slips may be placed, what they cost and what they may
 * return, whether a moved price is taken, and which stake and payout limits apply.
 */
import { freeBetReturnMinor } from '#common/sportsbook/free-bet';
import { oddsRatio } from '#common/sportsbook/odds';
import { floorTimes, product, type Ratio } from '#common/sportsbook/ratio';
import type { OddsChangeAcceptance, SlipProblemCode } from '#common/sportsbook/types';
import { expandLines, selectionRange, type BetType, type Line } from '#common/sportsbook/bet-types';

export interface SlipSelection {
  eventId: string;
  /** catalogue.marketKey: type and specifiers. */
  marketKey: string;
  outcomeId: string;
  /** The price on the slip, in ten-thousandths. */
  oddsUnits: bigint;
}

/** The most selections a slip takes (Goliath's 8 fit well under it). */
export const DEFAULT_MAX_SELECTIONS = 20;

export interface SlipProblem {
  code: SlipProblemCode;
  message: string;
  /** The slip indices concerned, for the slip to mark. */
  selections: number[];
}

const selectionId = (selection: SlipSelection) => `${selection.eventId}/${selection.marketKey}/${selection.outcomeId}`;

function countProblems(count: number, betType: BetType, maxSelections: number): SlipProblem[] {
  if (count === 0) return [{ code: 'NO_SELECTIONS', message: 'Add a selection to the bet slip.', selections: [] }];
  if (count > maxSelections)
    return [{ code: 'TOO_MANY_SELECTIONS', message: `A bet slip takes at most ${maxSelections} selections.`, selections: [] }];
  const { min, max } = selectionRange(betType);
  if (count < min || count > max || expandLines(betType, count).length === 0) {
    const needed = min === max ? `${min}` : `at least ${min}`;
    return [{ code: 'WRONG_SELECTION_COUNT', message: `This bet type needs ${needed} selections.`, selections: [] }];
  }
  return [];
}

function duplicateProblems(selections: readonly SlipSelection[]): SlipProblem[] {
  const firstIndex = new Map<string, number>();
  const problems: SlipProblem[] = [];
  selections.forEach((selection, index) => {
    const first = firstIndex.get(selectionId(selection));
    if (first === undefined) firstIndex.set(selectionId(selection), index);
    else
      problems.push({
        code: 'DUPLICATE_SELECTION',
        message: 'This selection is already on the bet slip.',
        selections: [first, index],
      });
  });
  return problems;
}

/** Two selections of one event in one line would price correlated results as independent. */
function relatedProblems(selections: readonly SlipSelection[], lines: readonly Line[]): SlipProblem[] {
  const reported = new Set<string>();
  const problems: SlipProblem[] = [];
  for (const line of lines)
    for (let i = 0; i < line.length; i++)
      for (let j = i + 1; j < line.length; j++) {
        const [a, b] = [line[i]!, line[j]!];
        if (selections[a]!.eventId !== selections[b]!.eventId || reported.has(`${a}-${b}`)) continue;
        reported.add(`${a}-${b}`);
        problems.push({
          code: 'RELATED_SELECTIONS',
          message: 'Selections from the same event cannot be combined in a multiple or system bet: place them as singles.',
          selections: [a, b],
        });
      }
  return problems;
}

/** Everything wrong with a slip, for the player to correct; empty when it can be placed. */
export function validateSlip(
  selections: readonly SlipSelection[],
  betType: BetType,
  stakePerLineMinor: bigint,
  maxSelections = DEFAULT_MAX_SELECTIONS,
): SlipProblem[] {
  const problems = [...countProblems(selections.length, betType, maxSelections), ...duplicateProblems(selections)];
  if (stakePerLineMinor <= 0n) problems.push({ code: 'STAKE_NOT_POSITIVE', message: 'Enter a stake.', selections: [] });
  if (problems.some((problem) => problem.code !== 'STAKE_NOT_POSITIVE')) return problems;
  return [...problems, ...relatedProblems(selections, expandLines(betType, selections.length))];
}

export interface LineQuote {
  selections: Line;
  /** The product of the line's prices, exact. */
  odds: Ratio;
  potentialReturnMinor: bigint;
}

export interface SlipQuote {
  lines: LineQuote[];
  totalStakeMinor: bigint;
  /** What the slip returns if every selection wins. */
  potentialReturnMinor: bigint;
}

/**
 * Stake per line times the lines, and each line's return if all of it wins (rounded down per
 * line). A free bet's potential return is its winnings only: the stake is not returned.
 */
export function quoteSlip(
  selections: readonly SlipSelection[],
  betType: BetType,
  stakePerLineMinor: bigint,
  options: { freeBet?: boolean } = {},
): SlipQuote {
  const lines = expandLines(betType, selections.length).map((line) => {
    const odds = product(line.map((index) => oddsRatio(selections[index]!.oddsUnits)));
    return { selections: line, odds, potentialReturnMinor: floorTimes(stakePerLineMinor, odds) };
  });
  const totalStakeMinor = stakePerLineMinor * BigInt(lines.length);
  const returnMinor = lines.reduce((sum, line) => sum + line.potentialReturnMinor, 0n);
  return {
    lines,
    totalStakeMinor,
    potentialReturnMinor: options.freeBet ? freeBetReturnMinor(returnMinor, totalStakeMinor) : returnMinor,
  };
}

/** The player's setting decides whether a bet is placed at a price that moved since the slip showed it. */
export function acceptsOddsChange(setting: OddsChangeAcceptance, slipOddsUnits: bigint, currentOddsUnits: bigint): boolean {
  if (currentOddsUnits === slipOddsUnits) return true;
  if (setting === 'any') return true;
  return setting === 'higher' && currentOddsUnits > slipOddsUnits;
}

export type LimitScope = 'player' | 'market' | 'league' | 'site';

export interface BetLimit {
  scope: LimitScope;
  /** The least stake per line. */
  minStakeMinor?: bigint;
  /** The most a ticket stakes in all (every line). */
  maxStakeMinor?: bigint;
  /** The most a ticket may return. */
  maxPayoutMinor?: bigint;
  /** The most the open tickets on one market may return together (checked per market when placing). */
  maxExposureMinor?: bigint;
}

export interface EffectiveLimits {
  minStake?: { minor: bigint; scope: LimitScope };
  maxStake?: { minor: bigint; scope: LimitScope };
  maxPayout?: { minor: bigint; scope: LimitScope };
  maxExposure?: { minor: bigint; scope: LimitScope };
}

type Bound = { minor: bigint; scope: LimitScope } | undefined;

const lower = (current: Bound, minor: bigint | undefined, scope: LimitScope): Bound =>
  minor !== undefined && (current === undefined || minor < current.minor) ? { minor, scope } : current;
const higher = (current: Bound, minor: bigint | undefined, scope: LimitScope): Bound =>
  minor !== undefined && (current === undefined || minor > current.minor) ? { minor, scope } : current;

/**
 * Of several limits (player, market, league, site) the most restrictive of each kind wins, with
 * the scope that set it: the lowest maximum, the highest minimum.
 */
export function mostRestrictive(limits: readonly BetLimit[]): EffectiveLimits {
  let result: EffectiveLimits = {};
  for (const limit of limits)
    result = {
      minStake: higher(result.minStake, limit.minStakeMinor, limit.scope),
      maxStake: lower(result.maxStake, limit.maxStakeMinor, limit.scope),
      maxPayout: lower(result.maxPayout, limit.maxPayoutMinor, limit.scope),
      maxExposure: lower(result.maxExposure, limit.maxExposureMinor, limit.scope),
    };
  return Object.fromEntries(Object.entries(result).filter(([, value]) => value !== undefined)) as EffectiveLimits;
}

export type LimitBreach = { kind: 'min_stake' | 'stake' | 'payout'; scope: LimitScope; limitMinor: bigint };

/**
 * Whether a quoted slip stays within the effective limits: its stake per line above the minimum,
 * its total stake and its potential return below the maxima.
 */
export function limitBreaches(quote: SlipQuote, limits: EffectiveLimits, stakePerLineMinor?: bigint): LimitBreach[] {
  const breaches: LimitBreach[] = [];
  if (limits.minStake && stakePerLineMinor !== undefined && stakePerLineMinor < limits.minStake.minor)
    breaches.push({ kind: 'min_stake', scope: limits.minStake.scope, limitMinor: limits.minStake.minor });
  if (limits.maxStake && quote.totalStakeMinor > limits.maxStake.minor)
    breaches.push({ kind: 'stake', scope: limits.maxStake.scope, limitMinor: limits.maxStake.minor });
  if (limits.maxPayout && quote.potentialReturnMinor > limits.maxPayout.minor)
    breaches.push({ kind: 'payout', scope: limits.maxPayout.scope, limitMinor: limits.maxPayout.minor });
  return breaches;
}
