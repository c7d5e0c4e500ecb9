/**
 * cashier.* (spec §7): payment methods, deposits, withdrawals and the payment history. Amounts
 * travel as 2-decimal strings (docs/decisions/0003).
 */
import { z } from 'zod';
import type {
  Bank,
  DepositDetail,
  DepositSettings,
  DepositStart,
  HistoryPage,
  PaymentMethodView,
  WithdrawSettings,
  WithdrawalView,
} from '../cashier-contract';
import { method, type Done } from './method';

export type * from '../cashier-contract';

const amount = z.string().max(32);
const id = z.string().min(1).max(64);
const signedIn = { requiresUser: true } as const;

export const cashierContract = {
  'cashier.getpaymentmethods': method<PaymentMethodView[]>()({
    params: z.object({ type: z.enum(['deposit', 'withdrawal']).default('deposit') }),
    ...signedIn,
  }),
  'cashier.getdepositsettings': method<DepositSettings>()({ params: z.object({}), ...signedIn }),
  /** Requisites come as `requisites[name]` form fields or a `requisites` object, hence the catchall. */
  'cashier.makedeposit': method<DepositStart>()({
    params: z
      .object({
        method: z.string().min(1).max(64),
        amount,
        currency: z.string().max(8).optional(),
        campaign_offer_id: z.coerce.number().int().default(-1),
        flow: z.enum(['same_window', 'new_window', 'mobile']).default('same_window'),
      })
      .catchall(z.unknown()),
    ...signedIn,
  }),
  'cashier.getdepositinfo': method<DepositDetail>()({ params: z.object({ id }), ...signedIn }),
  'cashier.gethistory': method<HistoryPage>()({
    params: z.object({
      offset: z.coerce.number().int().min(0).max(100_000).default(0),
      count: z.coerce.number().int().min(1).max(100).default(4),
      type: z.enum(['deposit', 'withdrawal', 'bonuses', 'cashbacks']).default('deposit'),
      /** Comma-joined statuses to keep. */
      statuses: z.string().max(200).optional(),
    }),
    ...signedIn,
  }),
  'cashier.getwithdrawsettings': method<WithdrawSettings>()({ params: z.object({}), ...signedIn }),
  'cashier.getbanks': method<Bank[]>()({ params: z.object({}), ...signedIn }),
  'cashier.makewithdrawal': method<WithdrawalView>()({
    /** burn_bonuses=1: the player confirmed forfeiting active bonuses (issue 13, the burn-bonuses dialog). */
    params: z
      .object({ method: z.string().min(1).max(64), amount, burn_bonuses: z.enum(['0', '1']).optional() })
      .catchall(z.unknown()),
    ...signedIn,
  }),
  'cashier.cancelwithdrawal': method<Done>()({ params: z.object({ id }), ...signedIn }),
};
