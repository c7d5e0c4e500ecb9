/** responsibleGaming.* (behind /profile/responsible-game): limits, reality check, time-out and self-exclusion. */
import { z } from 'zod';
import type { Money } from '../money';
import { method, type Done } from './method';

export const TIMEOUT_OPTIONS = ['24h', '7d', '30d'] as const;
export const SELF_EXCLUSION_OPTIONS = ['6m', '1y', '5y', 'permanent'] as const;
export type TimeoutOption = (typeof TIMEOUT_OPTIONS)[number];
export type SelfExclusionOption = (typeof SELF_EXCLUSION_OPTIONS)[number];

export type LimitPeriod = 'day' | 'week' | 'month';

export interface PeriodLimitView {
  period: LimitPeriod;
  limit_amount: string | null;
  available_amount: string | null;
  /** Only while a raised or removed limit waits out its cooling-off period. */
  pending_amount?: string | null;
  pending_effective_at: string | null;
  expired_at: string;
}

export interface ResponsibleGamingView {
  currency: string;
  limits: PeriodLimitView[];
  reality_check_minutes: number;
  reality_check_options: number[];
  cooling_off_hours: number;
  is_deposit_limit_required: boolean;
  is_deposit_limit_missing: boolean;
  timeout_options: TimeoutOption[];
  self_exclusion_options: SelfExclusionOption[];
}

export interface DepositLimitChange {
  /** False when a raise waits for the cooling-off period. */
  applied: boolean;
  pending_effective_at: string | null;
}

/** Elapsed session time and net position shown while playing. */
export interface PlaySessionSummary {
  session_started_at: string;
  elapsed_seconds: number;
  staked: Money;
  returned: Money;
  net_position: Money;
  game_transfers: number;
}

const signedIn = { requiresUser: true } as const;

export const responsibleGamingContract = {
  'responsibleGaming.get': method<ResponsibleGamingView>()({ params: z.object({}), ...signedIn }),
  'responsibleGaming.setDepositLimit': method<DepositLimitChange>()({
    params: z.object({ period: z.enum(['day', 'week', 'month']), amount: z.string().max(20) }),
    ...signedIn,
  }),
  'responsibleGaming.setRealityCheck': method<Done>()({ params: z.object({ minutes: z.coerce.number().int() }), ...signedIn }),
  'responsibleGaming.takeTimeout': method<Done>()({ params: z.object({ duration: z.enum(TIMEOUT_OPTIONS) }), ...signedIn }),
  'responsibleGaming.selfExclude': method<Done>()({
    params: z.object({ duration: z.enum(SELF_EXCLUSION_OPTIONS), password: z.string().max(200) }),
    ...signedIn,
  }),
  'responsibleGaming.getSessionSummary': method<PlaySessionSummary>()({ params: z.object({}), ...signedIn }),
};
