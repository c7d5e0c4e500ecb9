/**
 * The cashier's calls of the product API (spec §7 cashier.*, account.getBalance,
 * getcurrencyrates, setCurrency, getDepositLimit, campaigns.getoffers) in the cashier's terms:
 * requisites as `requisites[name]` fields, statuses comma-joined, offers optional.
 */
import type { HistoryTab, PaymentDirection, PaymentFlow } from '#common/contract';
import type { ApiClient } from '~/api/client';
import type { DepositOffer } from './offers';

/** `requisites[name]` form fields (spec §3 requisites), blanks left out. */
export function requisiteParams(requisites: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(requisites)
      .filter(([, value]) => value.trim() !== '')
      .map(([name, value]) => [`requisites[${name}]`, value.trim()]),
  );
}

export function cashierApi(api: ApiClient) {
  const { call } = api;
  return {
    paymentMethods: (type: PaymentDirection) => call('cashier.getpaymentmethods', { type }),
    depositSettings: () => call('cashier.getdepositsettings'),
    depositLimit: () => call('account.getDepositLimit'),
    makeDeposit: (input: {
      method: string;
      amount: string;
      currency: string;
      campaignOfferId: number;
      flow: PaymentFlow;
      requisites: Record<string, string>;
    }) =>
      call('cashier.makedeposit', {
        method: input.method,
        amount: input.amount,
        currency: input.currency,
        campaign_offer_id: input.campaignOfferId,
        flow: input.flow,
        ...requisiteParams(input.requisites),
      }),
    depositInfo: (id: string) => call('cashier.getdepositinfo', { id }),
    history: (type: HistoryTab, offset: number, count: number, statuses?: string[]) =>
      call('cashier.gethistory', {
        type,
        offset,
        count,
        statuses: statuses?.length ? statuses.join(',') : undefined,
      }),
    withdrawSettings: () => call('cashier.getwithdrawsettings'),
    banks: () => call('cashier.getbanks'),
    makeWithdrawal: (input: { method: string; amount: string; requisites: Record<string, string>; burnBonuses?: boolean }) =>
      call('cashier.makewithdrawal', {
        method: input.method,
        amount: input.amount,
        ...requisiteParams(input.requisites),
        // The player confirmed the burn-bonuses dialog: active bonuses are forfeited with this withdrawal.
        ...(input.burnBonuses ? { burn_bonuses: '1' as const } : {}),
      }),
    cancelWithdrawal: (id: string) => call('cashier.cancelwithdrawal', { id }),
    balances: () => call('account.getBalance'),
    currencyRates: () => call('account.getcurrencyrates'),
    setCurrency: (currency: string) => call('account.setCurrency', { currency }),
    /** Deposit offers (spec §7: offset 0, fields trigger,description,promotions); none when they cannot load. */
    depositOffers: async (): Promise<DepositOffer[]> => {
      try {
        return await call('campaigns.getoffers', { offset: 0, fields: 'trigger,description,promotions' });
      } catch {
        // Offers are optional on the deposit screen: a failure there must not close the cashier.
        return [];
      }
    },
  };
}

export type CashierApi = ReturnType<typeof cashierApi>;

/** Method names by sysname, deposit and withdrawal, for history rows; empty when the lists cannot load. */
export async function loadMethodNames(api: CashierApi): Promise<Record<string, string>> {
  const lists = await Promise.all((['deposit', 'withdrawal'] as const).map((type) => api.paymentMethods(type).catch(() => [])));
  return Object.fromEntries(lists.flat().map((method) => [method.sysname, method.name]));
}
