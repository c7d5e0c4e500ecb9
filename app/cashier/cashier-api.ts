/**
 * The cashier's calls of the product API (spec §7 cashier.*, account.getBalance,
 * getcurrencyrates, setCurrency, getDepositLimit, campaigns.getoffers), typed by the contract,
 * over the same client in loaders (in-process) and in the browser.
 */
import type { AccountInfo } from '#common/api-contract';
import type {
  Bank,
  CurrencyRates,
  DepositDetail,
  DepositLimitView,
  DepositSettings,
  DepositStart,
  HistoryPage,
  HistoryTab,
  PaymentDirection,
  PaymentFlow,
  PaymentMethodView,
  WithdrawSettings,
  WithdrawalView,
} from '#common/cashier-contract';
import { isApiError } from '#common/errors';
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
    paymentMethods: (type: PaymentDirection) => call<PaymentMethodView[]>('GET', 'cashier.getpaymentmethods', { type }),
    depositSettings: () => call<DepositSettings>('GET', 'cashier.getdepositsettings'),
    depositLimit: () => call<DepositLimitView>('GET', 'account.getDepositLimit'),
    makeDeposit: (input: {
      method: string;
      amount: string;
      currency: string;
      campaignOfferId: number;
      flow: PaymentFlow;
      requisites: Record<string, string>;
    }) =>
      call<DepositStart>('POST', 'cashier.makedeposit', {
        method: input.method,
        amount: input.amount,
        currency: input.currency,
        campaign_offer_id: input.campaignOfferId,
        flow: input.flow,
        ...requisiteParams(input.requisites),
      }),
    depositInfo: (id: string) => call<DepositDetail>('GET', 'cashier.getdepositinfo', { id }),
    history: (type: HistoryTab, offset: number, count: number, statuses?: string[]) =>
      call<HistoryPage>('GET', 'cashier.gethistory', {
        type,
        offset,
        count,
        statuses: statuses?.length ? statuses.join(',') : undefined,
      }),
    withdrawSettings: () => call<WithdrawSettings>('GET', 'cashier.getwithdrawsettings'),
    banks: () => call<Bank[]>('GET', 'cashier.getbanks'),
    makeWithdrawal: (input: { method: string; amount: string; requisites: Record<string, string> }) =>
      call<WithdrawalView>('POST', 'cashier.makewithdrawal', {
        method: input.method,
        amount: input.amount,
        ...requisiteParams(input.requisites),
      }),
    cancelWithdrawal: (id: string) => call<1>('POST', 'cashier.cancelwithdrawal', { id }),
    balances: () => call<AccountInfo['balances']>('GET', 'account.getBalance'),
    currencyRates: () => call<CurrencyRates>('GET', 'account.getcurrencyrates'),
    setCurrency: (currency: string) => call<1>('POST', 'account.setCurrency', { currency }),
    /** Deposit offers (spec §7: offset 0, fields trigger,description,promotions); none while the method does not exist. */
    depositOffers: async (): Promise<DepositOffer[]> => {
      try {
        const answer = await call<DepositOffer[] | { items?: DepositOffer[] }>('GET', 'campaigns.getoffers', {
          offset: 0,
          fields: 'trigger,description,promotions',
        });
        return Array.isArray(answer) ? answer : (answer?.items ?? []);
      } catch (error) {
        if (isApiError(error) && error.type === 'MethodNotFoundException') return [];
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
