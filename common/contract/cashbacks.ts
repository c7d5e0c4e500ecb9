/**
 * cashbacks.* (spec §7: GET get (offset, count, sort, order, statuses, fields); POST payout;
 * POST remove (no body); spec §3 Cashback: id, status active or paid_out, description,
 * receiving_expired_at, paid_out_at, end_date). Issue 13 adds what the profile page shows: the
 * amount, the loss it pays back and the period it covers.
 */
import { z } from 'zod';
import type { Money } from '../money';
import { statusList } from './list-params';
import { method, type Done } from './method';

export const CASHBACKS_PAGE_MAX = 100;

/**
 * active and paid_out are the spec's; an unpaid cashback ends expired (its receiving window
 * closed) or removed (the player dismissed it).
 */
export const CASHBACK_STATUS_VIEWS = ['active', 'paid_out', 'expired', 'removed'] as const;
export type CashbackStatusView = (typeof CASHBACK_STATUS_VIEWS)[number];

export const CASHBACK_SORTS = ['end_date', 'id', 'amount', 'receiving_expired_at', 'paid_out_at'] as const;
export type CashbackSort = (typeof CASHBACK_SORTS)[number];

export interface CashbackView {
  id: number;
  status: CashbackStatusView;
  description: { title: string; text: string };
  amount: Money;
  /** The period's real-money stakes minus real-money returns. */
  net_loss: Money;
  percent: number;
  /** Paid as real money (main) or as a bonus of the bonus engine. */
  payout: 'main' | 'bonus';
  period: 'daily' | 'weekly';
  start_date: string;
  /** The end of the period it pays back (exclusive). */
  end_date: string;
  receiving_expired_at: string;
  paid_out_at: string | null;
  created_at: string;
}

export interface CashbackPage {
  items: CashbackView[];
  total: number;
}

const statusesFilter = statusList(CASHBACK_STATUS_VIEWS);

const getParams = z.object({
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  count: z.coerce.number().int().min(1).max(CASHBACKS_PAGE_MAX).default(10),
  sort: z.enum(CASHBACK_SORTS).default('end_date'),
  order: z.enum(['asc', 'desc']).default('desc'),
  /** Comma-joined statuses; empty means every status. */
  statuses: statusesFilter,
  /** Comma-joined extra fields; every field is always present, so this only documents the call. */
  fields: z.string().max(200).optional(),
});

/** payout names the cashback; without one it pays the player's newest active cashback. */
const payoutParams = z.object({
  cashback_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
});

export const cashbacksContract = {
  'cashbacks.get': method<CashbackPage>()({ params: getParams, requiresUser: true }),
  'cashbacks.payout': method<CashbackView>()({ params: payoutParams, requiresUser: true }),
  'cashbacks.remove': method<Done>()({ params: z.object({}), requiresUser: true }),
};
