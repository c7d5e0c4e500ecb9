/**
 * Shapes of the cashier's product API answers (spec §3 deposit state, deposit detail, payment
 * method info, balances; §7 cashier.*, account.getBalance, getcurrencyrates, setCurrency).
 * Amounts travel as 2-decimal strings (docs/decisions/0003).
 */
import type { Money } from './money';

export type PaymentDirection = 'deposit' | 'withdrawal';

/** How the provider's page is shown: in this window, a new window, or the mobile flow. */
export type PaymentFlow = 'same_window' | 'new_window' | 'mobile';

/** The sandbox provider's three kinds of payment page. */
export type PaymentMethodType = 'card' | 'instant' | 'bank_transfer';

/** A field the player fills before paying or withdrawing (spec §3 requisites). */
export interface RequisiteField {
  name: string;
  /** Validator type of spec §5 (text, iban, cardHolder, …) used by form and server alike. */
  validator: string;
  isRequired: boolean;
  /** Choices for a select (withdrawal bank list comes from cashier.getbanks instead). */
  options?: string[];
}

/** cashier.getpaymentmethods (spec §3 payment method info, merged with its content entry). */
export interface PaymentMethodView {
  id: number;
  sysname: string;
  name: string;
  description: string;
  type: PaymentMethodType;
  provider: string;
  icons: { default: string; dark?: string };
  currency: string;
  min_amount: string;
  max_amount: string;
  requisites: RequisiteField[];
  /** Flows this method offers; the site picks mobile on phones, new window when asked. */
  flows: PaymentFlow[];
}

/** cashier.getdepositsettings: the server-side half of the deposit state (presets come from cashier-config). */
export interface DepositSettings {
  currency: string;
  available_currencies: string[];
  /** Successful deposits so far: the registration hint shows only with none (spec §4). */
  deposit_count: number;
  /** The tightest deposit limit, as account.getDepositLimit answers it. */
  deposit_limit: DepositLimitView;
  /** The site requires a deposit limit (a strict jurisdiction) and the player has none: no deposit until one is set. */
  is_deposit_limit_required: boolean;
}

/** account.getDepositLimit (spec §3 depositLimit). */
export interface DepositLimitView {
  available_amount: string | null;
  can_edit: boolean;
  expired_at: string | null;
  limit_amount: string | null;
  period: 'none' | 'day' | 'week' | 'month';
  currency: string;
}

export type DepositStatus = 'new' | 'pending' | 'success' | 'fail' | 'cancel';
export type WithdrawalStatus = 'pending' | 'processing' | 'success' | 'declined' | 'cancelled' | 'fail';

/** cashier.makedeposit's answer: where to send the player next. */
export interface DepositStart {
  id: string;
  status: DepositStatus;
  flow: PaymentFlow;
  /** The provider's hosted page (absolute path on this origin for the sandbox). */
  redirect_url: string;
}

/** cashier.getdepositinfo (spec §3 deposit detail). */
export interface DepositDetail {
  id: string;
  requisites: Record<string, string>;
  method: string;
  type: PaymentDirection;
  created_at: string;
  updated_at: string;
  amount: Money;
  status: DepositStatus;
  domain: string;
  campaign_offer_id: number;
}

/** A withdrawal request as the player sees it. */
export interface WithdrawalView {
  id: string;
  method: string;
  amount: Money;
  status: WithdrawalStatus;
  requisites: Record<string, string>;
  created_at: string;
  updated_at: string;
  /** The operator's reason when declined. */
  reason: string | null;
}

/** cashier.getwithdrawsettings. */
export interface WithdrawSettings {
  currency: string;
  /** What can be withdrawn now: the main balance. */
  available_amount: string;
  min_amount: string;
  max_amount: string;
  period_limit: { period: 'day'; limit_amount: string; used_amount: string; resets_at: string };
  is_kyc_required: boolean;
  is_verified: boolean;
  has_confirmed_contact: boolean;
  pending: WithdrawalView[];
}

/** cashier.getbanks. */
export interface Bank {
  code: string;
  name: string;
}

export type HistoryTab = 'deposit' | 'withdrawal' | 'bonuses' | 'cashbacks';

/** One row of cashier.gethistory: a payment, or a bonus or cashback movement of the ledger. */
export interface HistoryItem {
  id: string;
  type: HistoryTab;
  method: string | null;
  amount: Money;
  status: string;
  created_at: string;
  /** What happened, in English (the payment's or the ledger's reason): for logs and API clients. */
  description: string;
  /**
   * The ledger transfer's kind of a bonus or cashback row (bonus_grant, bonus_removed,
   * cashback_payout, …), which the page shows as a label in its own language; null for payments.
   */
  kind: string | null;
}

export interface HistoryPage {
  items: HistoryItem[];
  total: number;
}

/** account.getcurrencyrates: how much one unit of base buys of each currency. */
export interface CurrencyRates {
  base: string;
  rates: Record<string, string>;
  updated_at: string;
}
