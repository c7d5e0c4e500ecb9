/**
 * Sportsbook limits (issue 14: "minimum and maximum stake, maximum payout per bet and exposure
 * per market (the most restrictive of player, market, league and site limits applies)").
 *
 * - Site: `settings.sportsbook.limits` per currency,
 *   `{"EUR": {"min_stake": "0.10", "max_stake": "500.00", "max_payout": "50000.00", "max_exposure": "250000.00"}}`;
 *   a currency the site names none for gets the house defaults below, so no bet is ever unlimited.
 * - Player, market type and league: rows the operator sets from the back office (sport_bet_limits).
 *
 * The minimum is per line (what the player types as the stake); the maximum stake is the ticket's
 * total; the maximum payout is the ticket's potential return; the exposure is what the open
 * tickets on one market may return together (exposure.ts), checked per market against the site's,
 * the market type's and the market's league's limits (a player has no market of their own).
 */
import { and, eq, inArray, or } from 'drizzle-orm';
import { amountToMinor } from '#common/money';
import { parseMarketKey } from '#common/sportsbook/catalogue';
import type { Executor } from '../../../db/retry';
import type { BetLimit, SlipSelection } from '../rules/slip';
import { sportBetLimits, type OperatorLimitScope } from './tables';

const DEFAULT_MIN_STAKE = '0.10';
const DEFAULT_MAX_STAKE = '1000.00';
const DEFAULT_MAX_PAYOUT = '100000.00';
const DEFAULT_MAX_EXPOSURE = '500000.00';
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

function amountOr(value: unknown, fallback: string): bigint {
  return amountToMinor(typeof value === 'string' && AMOUNT.test(value) ? value : fallback);
}

type LimitBlock = { min_stake?: unknown; max_stake?: unknown; max_payout?: unknown; max_exposure?: unknown };

export function sportsbookLimits(settings: Record<string, unknown> | undefined, currency: string): BetLimit[] {
  const block = (settings?.sportsbook as { limits?: Record<string, LimitBlock> } | undefined)?.limits?.[currency];
  return [
    {
      scope: 'site',
      minStakeMinor: amountOr(block?.min_stake, DEFAULT_MIN_STAKE),
      maxStakeMinor: amountOr(block?.max_stake, DEFAULT_MAX_STAKE),
      maxPayoutMinor: amountOr(block?.max_payout, DEFAULT_MAX_PAYOUT),
      maxExposureMinor: amountOr(block?.max_exposure, DEFAULT_MAX_EXPOSURE),
    },
  ];
}

/** An operator's limit row as the slip's rules read it; an empty amount sets no limit of its kind. */
export interface OperatorLimit extends BetLimit {
  scope: OperatorLimitScope;
  target: string;
}

/** What a slip's limits depend on besides the site: its player, its markets' types and its events' leagues. */
export interface LimitSubjects {
  siteId: string;
  userId: number;
  currency: string;
  selections: readonly SlipSelection[];
  /** Each selection's league (tournament id), when the market store knows it. */
  leagues: readonly (string | null | undefined)[];
}

const marketTypeOf = (marketKey: string) => parseMarketKey(marketKey).type;

/** The player's, the slip's market types' and leagues' limits the operator set, in the slip's currency. */
export async function operatorLimits(executor: Executor, subjects: LimitSubjects): Promise<OperatorLimit[]> {
  const types = [...new Set(subjects.selections.map((item) => marketTypeOf(item.marketKey)))];
  const leagues = [...new Set(subjects.leagues.filter((item): item is string => typeof item === 'string'))];
  const rows = await executor
    .select()
    .from(sportBetLimits)
    .where(
      and(
        eq(sportBetLimits.siteId, subjects.siteId),
        eq(sportBetLimits.currency, subjects.currency),
        or(
          and(eq(sportBetLimits.scope, 'player'), eq(sportBetLimits.target, String(subjects.userId))),
          types.length > 0 ? and(eq(sportBetLimits.scope, 'market'), inArray(sportBetLimits.target, types)) : undefined,
          leagues.length > 0 ? and(eq(sportBetLimits.scope, 'league'), inArray(sportBetLimits.target, leagues)) : undefined,
        ),
      ),
    );
  return rows.map((row) => ({
    scope: row.scope,
    target: row.target,
    minStakeMinor: row.minStakeMinor ?? undefined,
    maxStakeMinor: row.maxStakeMinor ?? undefined,
    maxPayoutMinor: row.maxPayoutMinor ?? undefined,
    maxExposureMinor: row.maxExposureMinor ?? undefined,
  }));
}

/**
 * The limits that bound one market's exposure: the site's, its market type's and its league's
 * (the player's own limits bound their bets, not the house's book on a market).
 */
export function exposureLimitsOf(
  site: readonly BetLimit[],
  operator: readonly OperatorLimit[],
  selection: Pick<SlipSelection, 'marketKey'>,
  league: string | null | undefined,
): BetLimit[] {
  const type = marketTypeOf(selection.marketKey);
  return [
    ...site,
    ...operator.filter(
      (limit) => (limit.scope === 'market' && limit.target === type) || (limit.scope === 'league' && limit.target === league),
    ),
  ];
}

/** The operator's limits on one target (back office). */
export async function setOperatorLimit(
  executor: Executor,
  limit: {
    siteId: string;
    scope: OperatorLimitScope;
    target: string;
    currency: string;
    minStakeMinor: bigint | null;
    maxStakeMinor: bigint | null;
    maxPayoutMinor: bigint | null;
    maxExposureMinor: bigint | null;
    operator: string;
  },
) {
  const values = {
    minStakeMinor: limit.minStakeMinor,
    maxStakeMinor: limit.maxStakeMinor,
    maxPayoutMinor: limit.maxPayoutMinor,
    maxExposureMinor: limit.maxExposureMinor,
    updatedBy: limit.operator,
    updatedAt: new Date(),
  };
  const [row] = await executor
    .insert(sportBetLimits)
    .values({ siteId: limit.siteId, scope: limit.scope, target: limit.target, currency: limit.currency, ...values })
    .onConflictDoUpdate({
      target: [sportBetLimits.siteId, sportBetLimits.scope, sportBetLimits.target, sportBetLimits.currency],
      set: values,
    })
    .returning();
  return row;
}

/** The operator's limits of a site, of one scope or all (back office). */
export function listOperatorLimits(executor: Executor, siteId: string, scope?: OperatorLimitScope) {
  return executor
    .select()
    .from(sportBetLimits)
    .where(and(eq(sportBetLimits.siteId, siteId), scope ? eq(sportBetLimits.scope, scope) : undefined));
}
