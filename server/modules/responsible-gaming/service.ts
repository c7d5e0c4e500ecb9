/**
 * Responsible gaming per player: deposit limits, reality-check interval, time-out and
 * self-exclusion. An exclusion ends every open session at once and keeps the player from
 * signing in until it ends.
 */
import { and, desc, eq, gt, isNull, lte, or } from 'drizzle-orm';
import type { DepositLimitView } from '#common/cashier-contract';
import { minorToAmount } from '#common/money';
import type { Database } from '../../db/client';
import type { PlayerRowsCache } from '../../db/player-rows-cache';
import type { Executor } from '../../db/retry';
import { depositLimits, exclusions, rgPreferences, type LimitPeriod } from './tables';
import { LIMIT_PERIODS, NO_LIMIT, changeLimit, effectiveLimit, periodEnd, periodStart, type LimitState } from './rules';

export interface Jurisdiction {
  coolingOffHours: number;
  isDepositLimitRequired: boolean;
  realityCheckOptions: number[];
}

export function jurisdictionOf(settings: Record<string, unknown>): Jurisdiction {
  const rg = (settings.responsible_gaming ?? {}) as Partial<{
    cooling_off_hours: number;
    is_deposit_limit_required: boolean;
    reality_check_options: number[];
  }>;
  return {
    coolingOffHours: rg.cooling_off_hours ?? 24,
    isDepositLimitRequired: rg.is_deposit_limit_required ?? false,
    realityCheckOptions: rg.reality_check_options ?? [0, 15, 30, 60, 120],
  };
}

export interface PeriodLimit extends LimitState {
  period: LimitPeriod;
  depositedMinor: bigint;
  resetsAt: Date;
}

interface Deps {
  revokeAllSessions: (userId: number) => Promise<void>;
  /** Deposits made since a moment, in minor units; the cashier supplies them. */
  depositedSince: (userId: number, since: Date, executor: Executor) => Promise<bigint>;
  /** Where a player's exclusions are kept for the bet paths between changes (issue 12). */
  playerRows?: PlayerRowsCache;
}

type ExclusionRow = typeof exclusions.$inferSelect;

/** The exclusion in force at `now` among rows not yet ended, the longest first (as activeExclusion orders). */
function inForce(rows: readonly ExclusionRow[], now: Date): ExclusionRow | undefined {
  const current = rows.filter((row) => row.startsAt <= now && (row.endsAt === null || row.endsAt > now));
  return current.sort((a, b) => (a.endsAt === null ? -1 : b.endsAt === null ? 1 : b.endsAt.getTime() - a.endsAt.getTime()))[0];
}

export function createResponsibleGamingService(db: Database, deps: Deps) {
  async function limitStates(userId: number, executor: Executor): Promise<Map<LimitPeriod, LimitState>> {
    const rows = await executor.select().from(depositLimits).where(eq(depositLimits.userId, userId));
    return new Map(
      rows.map((row) => [
        row.period,
        { limitMinor: row.limitMinor, pendingLimitMinor: row.pendingLimitMinor, pendingEffectiveAt: row.pendingEffectiveAt },
      ]),
    );
  }

  return {
    /**
     * Each period's limit and what was deposited in it; inside a caller's transaction when given one.
     * The queries run one after another: a transaction is one connection, and parallel queries on
     * it (Promise.all) are not allowed by the driver (issue 11: no parallel queries on one transaction).
     */
    async limits(userId: number, now = new Date(), executor: Executor = db): Promise<PeriodLimit[]> {
      const states = await limitStates(userId, executor);
      const limits: PeriodLimit[] = [];
      for (const period of LIMIT_PERIODS) {
        limits.push({
          period,
          ...effectiveLimit(states.get(period) ?? NO_LIMIT, now),
          depositedMinor: await deps.depositedSince(userId, periodStart(period, now), executor),
          resetsAt: periodEnd(period, now),
        });
      }
      return limits;
    },

    /** account.getDepositLimit (spec §3 depositLimit): the limit that leaves the least to deposit. */
    async tightestLimitView(userId: number, currency: string): Promise<DepositLimitView> {
      const limits = (await this.limits(userId)).filter((limit) => limit.limitMinor !== null);
      const left = (limit: PeriodLimit) => (limit.limitMinor ?? 0n) - limit.depositedMinor;
      const tightest = limits.sort((a, b) => (left(a) < left(b) ? -1 : left(a) > left(b) ? 1 : 0))[0];
      if (!tightest)
        return { available_amount: null, can_edit: true, expired_at: null, limit_amount: null, period: 'none', currency };
      const available = left(tightest);
      return {
        available_amount: minorToAmount(available > 0n ? available : 0n),
        can_edit: true,
        expired_at: tightest.resetsAt.toISOString(),
        limit_amount: minorToAmount(tightest.limitMinor ?? 0n),
        period: tightest.period,
        currency,
      };
    },

    async setLimit(
      userId: number,
      period: LimitPeriod,
      requested: bigint | null,
      coolingOffHours: number,
      now = new Date(),
    ): Promise<LimitState> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(depositLimits)
          .where(and(eq(depositLimits.userId, userId), eq(depositLimits.period, period)))
          .for('update');
        const next = changeLimit(row ?? NO_LIMIT, requested, now, coolingOffHours);
        await tx
          .insert(depositLimits)
          .values({ userId, period, ...next, updatedAt: now })
          .onConflictDoUpdate({ target: [depositLimits.userId, depositLimits.period], set: { ...next, updatedAt: now } });
        return next;
      });
    },

    async activeExclusion(userId: number, now = new Date()) {
      const [row] = await db
        .select()
        .from(exclusions)
        .where(
          and(
            eq(exclusions.userId, userId),
            lte(exclusions.startsAt, now),
            or(isNull(exclusions.endsAt), gt(exclusions.endsAt, now)),
          ),
        )
        .orderBy(desc(exclusions.endsAt))
        .limit(1);
      return row;
    },

    /**
     * activeExclusion for every bet: the player's exclusions not yet ended are kept in memory until
     * the table changes, and which one is in force is decided at `now` (one may start or end later).
     */
    async activeExclusionForPlay(userId: number, now = new Date()): Promise<ExclusionRow | undefined> {
      const read = async () =>
        Object.freeze(
          await db
            .select()
            .from(exclusions)
            .where(and(eq(exclusions.userId, userId), or(isNull(exclusions.endsAt), gt(exclusions.endsAt, new Date())))),
        );
      const rows = deps.playerRows
        ? await deps.playerRows.get(`exclusions:${userId}`, read, { ownerOf: () => userId })
        : await read();
      return inForce(rows, now);
    },

    async exclude(userId: number, kind: 'timeout' | 'self_exclusion', endsAt: Date | null): Promise<void> {
      await db.insert(exclusions).values({ userId, kind, endsAt });
      deps.playerRows?.forgetPlayer(userId);
      await deps.revokeAllSessions(userId);
    },

    async realityCheckMinutes(userId: number): Promise<number> {
      const [row] = await db.select().from(rgPreferences).where(eq(rgPreferences.userId, userId)).limit(1);
      return row?.realityCheckMinutes ?? 0;
    },

    async setRealityCheck(userId: number, minutes: number): Promise<void> {
      await db
        .insert(rgPreferences)
        .values({ userId, realityCheckMinutes: minutes })
        .onConflictDoUpdate({ target: rgPreferences.userId, set: { realityCheckMinutes: minutes, updatedAt: new Date() } });
    },
  };
}

export type ResponsibleGamingService = ReturnType<typeof createResponsibleGamingService>;
