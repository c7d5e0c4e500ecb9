/**
 * bonuses.* and BettingBonuses.* (spec §7: bonuses POST activate, deactivate, remove (bonus_id),
 * GET get (count, offset, fields, status); BettingBonuses POST activate, remove (bonus_id), GET
 * get; spec §3 Bonus: id, type betting or casino, status, description). Issue 13 adds what the
 * profile page shows: amounts, wagering progress and the time left.
 */
import { z } from 'zod';
import type { Money } from '../money';
import { statusList } from './list-params';
import { method, type Done } from './method';

export const BONUSES_PAGE_MAX = 100;

export type BonusStatusView = 'available' | 'active' | 'converted' | 'expired' | 'forfeited' | 'removed';

export interface BonusView {
  id: number;
  type: 'casino' | 'betting';
  status: BonusStatusView;
  description: { title: string; text: string };
  /** What the bonus grants (paid when activated). */
  amount: Money;
  /** Its money now (0 unless active). */
  balance: Money;
  wagering: {
    required: Money;
    wagered: Money;
    /** 0–100, rounded down: 100 only when complete. */
    percent: number;
    multiplier: number;
  };
  max_stake: Money | null;
  max_conversion: Money | null;
  /** What became real money, once converted. */
  converted: Money | null;
  /** Betting bonuses: the lowest odds a bet counts at; a free bet pays only its winnings. */
  min_odds: number | null;
  is_free_bet: boolean;
  claim_expires_at: string;
  wagering_expires_at: string | null;
  created_at: string;
  ended_at: string | null;
}

export interface BonusPage {
  items: BonusView[];
  total: number;
}

const statusFilter = statusList(['available', 'active', 'converted', 'expired', 'forfeited', 'removed']);

const pageParams = {
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  count: z.coerce.number().int().min(1).max(BONUSES_PAGE_MAX).default(20),
  /** Comma-joined extra fields; every field is always present, so this only documents the call. */
  fields: z.string().max(200).optional(),
  /** Comma-joined statuses; empty means every status. */
  status: statusFilter,
};

const bonusId = z.object({ bonus_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

export const bonusesContract = {
  'bonuses.get': method<BonusPage>()({ params: z.object(pageParams), requiresUser: true }),
  'bonuses.activate': method<BonusView>()({ params: bonusId, requiresUser: true }),
  'bonuses.deactivate': method<BonusView>()({ params: bonusId, requiresUser: true }),
  'bonuses.remove': method<Done>()({ params: bonusId, requiresUser: true }),
  'BettingBonuses.get': method<BonusPage>()({ params: z.object(pageParams), requiresUser: true }),
  'BettingBonuses.activate': method<BonusView>()({ params: bonusId, requiresUser: true }),
  'BettingBonuses.remove': method<Done>()({ params: bonusId, requiresUser: true }),
};
