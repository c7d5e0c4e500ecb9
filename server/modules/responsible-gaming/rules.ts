/**
 * Responsible-gaming rules as pure functions: a deposit limit is cut at once and raised (or
 * removed) only after a cooling-off period; limit periods are calendar periods in UTC;
 * time-outs and self-exclusions last for fixed durations.
 */
import type { LimitPeriod } from './tables';

export const LIMIT_PERIODS: readonly LimitPeriod[] = ['day', 'week', 'month'];
export const DEFAULT_COOLING_OFF_HOURS = 24;

export interface LimitState {
  limitMinor: bigint | null;
  pendingLimitMinor: bigint | null;
  pendingEffectiveAt: Date | null;
}

export const NO_LIMIT: LimitState = { limitMinor: null, pendingLimitMinor: null, pendingEffectiveAt: null };

/** The limit in force now: a pending change whose cooling-off has passed has taken effect. */
export function effectiveLimit(state: LimitState, now: Date): LimitState {
  if (state.pendingEffectiveAt && state.pendingEffectiveAt <= now) {
    return { limitMinor: state.pendingLimitMinor, pendingLimitMinor: null, pendingEffectiveAt: null };
  }
  return state;
}

/** The state after the player asks for `requested` (null = no limit). */
export function changeLimit(
  current: LimitState,
  requested: bigint | null,
  now: Date,
  coolingOffHours = DEFAULT_COOLING_OFF_HOURS,
): LimitState {
  const state = effectiveLimit(current, now);
  if (requested === state.limitMinor) return { limitMinor: state.limitMinor, pendingLimitMinor: null, pendingEffectiveAt: null };
  const isTighter = requested !== null && (state.limitMinor === null || requested < state.limitMinor);
  if (isTighter) return { limitMinor: requested, pendingLimitMinor: null, pendingEffectiveAt: null };
  return {
    limitMinor: state.limitMinor,
    pendingLimitMinor: requested,
    pendingEffectiveAt: new Date(now.getTime() + coolingOffHours * 3_600_000),
  };
}

/** Start of the calendar period containing `now` (UTC): midnight, Monday, the 1st. */
export function periodStart(period: LimitPeriod, now: Date): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (period === 'day') return day;
  if (period === 'week') return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** End of the calendar period containing `now` (exclusive). */
export function periodEnd(period: LimitPeriod, now: Date): Date {
  const start = periodStart(period, now);
  if (period === 'day') return new Date(start.getTime() + 86_400_000);
  if (period === 'week') return new Date(start.getTime() + 7 * 86_400_000);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

export const TIMEOUT_DURATIONS = { '24h': 24, '7d': 7 * 24, '30d': 30 * 24 } as const;
export const SELF_EXCLUSION_DURATIONS = { '6m': 6, '1y': 12, '5y': 60, permanent: null } as const;
export type TimeoutDuration = keyof typeof TIMEOUT_DURATIONS;
export type SelfExclusionDuration = keyof typeof SELF_EXCLUSION_DURATIONS;

export function timeoutEnd(duration: TimeoutDuration, now: Date): Date {
  return new Date(now.getTime() + TIMEOUT_DURATIONS[duration] * 3_600_000);
}

/** Self-exclusion end by calendar months; null for permanent. */
export function selfExclusionEnd(duration: SelfExclusionDuration, now: Date): Date | null {
  const months = SELF_EXCLUSION_DURATIONS[duration];
  if (months === null) return null;
  const end = new Date(now);
  end.setUTCMonth(end.getUTCMonth() + months);
  return end;
}
