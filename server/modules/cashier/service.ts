/**
 * The cashier: deposits and withdrawals as state machines over the payments table, with every
 * movement of money made through the wallet ledger in the same database transaction as the
 * state change. Provider notifications are absorbed three times over: the event id, the
 * payment's final state, and the ledger's idempotency key.
 *
 * The use cases live in their own files, each a function given the dependencies
 * (cashier-deps.ts): deposits, withdrawals, provider events (webhooks, reconciliation), the back
 * office and the payment history. This file composes them into the service.
 */
import type { HistoryTab } from '#common/cashier-contract';
import type { Executor } from '../../db/retry';
import type { UserRow } from '../account';
import type { ProviderEvent } from '../payments';
import type { Site } from '../sites';
import { approveWithdrawal, declineWithdrawal, listWithdrawals } from './back-office';
import { listMethods, type CashierDeps, type PlayerRequest } from './cashier-deps';
import { depositCount, depositedSince, depositInfo, startDeposit } from './deposits';
import { findPayment, paymentHistory } from './payment-history';
import { applyProviderEvent, reconcileStale } from './provider-events';
import { cashierSettings } from './settings';
import { cancelWithdrawal, makeWithdrawal, withdrawSettings } from './withdrawals';

export type { CashierDeps, PlayerRequest } from './cashier-deps';

type DepositInput = Parameters<typeof startDeposit>[2];
type WithdrawalInput = Parameters<typeof makeWithdrawal>[2];

export function createCashierService(deps: CashierDeps) {
  return {
    listMethods: (request: PlayerRequest, direction: 'deposit' | 'withdrawal') => listMethods(deps, request, direction),
    /** Successful deposits so far (the registration hint shows only without any, spec §4). */
    depositCount: (userId: number) => depositCount(deps, userId),
    /** Deposits that count against responsible-gaming limits since a moment: credited and still in flight. */
    depositedSince: (userId: number, since: Date, executor?: Executor) => depositedSince(deps, userId, since, executor),
    startDeposit: (request: PlayerRequest, input: DepositInput) => startDeposit(deps, request, input),
    depositInfo: (request: { site: Site; user: UserRow }, id: string) => depositInfo(deps, request, id),
    /** A verified provider notification: safe to receive twice, late or out of order. */
    applyProviderEvent: (siteId: string, providerName: string, event: ProviderEvent) =>
      applyProviderEvent(deps, siteId, providerName, event),
    history: (
      request: { site: Site; user: UserRow },
      tab: HistoryTab,
      offset: number,
      countPerPage: number,
      statuses: string[],
    ) => paymentHistory(deps, request, tab, offset, countPerPage, statuses),
    withdrawSettings: (request: PlayerRequest) => withdrawSettings(deps, request),
    /** Reserves the amount at once: it leaves the main balance for the pending account until the operator decides. */
    makeWithdrawal: (request: PlayerRequest, input: WithdrawalInput) => makeWithdrawal(deps, request, input),
    cancelWithdrawal: (request: { site: Site; user: UserRow }, id: string) => cancelWithdrawal(deps, request, id),
    /** Back office: withdrawals by status, oldest first (the review queue). */
    listWithdrawals: (status: string, limit?: number) => listWithdrawals(deps, status, limit),
    /** Back office: approve → the payout is sent to the provider; its notification settles it. */
    approveWithdrawal: (operator: string, id: string) => approveWithdrawal(deps, operator, id),
    /** Back office: decline → the reserved amount goes back to the player's main balance. */
    declineWithdrawal: (operator: string, id: string, reason: string) => declineWithdrawal(deps, operator, id, reason),
    /** Applies what providers say of payments whose notifications never came. */
    reconcileStale: (olderThanMs?: number, now?: Date) => reconcileStale(deps, olderThanMs, now),
    currencyRates(site: Site) {
      const { currencyRates } = cashierSettings(site.settings);
      return { base: currencyRates.base, rates: currencyRates.rates, updated_at: currencyRates.updatedAt };
    },
    findPayment: (id: string) => findPayment(deps, id),
  };
}

export type CashierService = ReturnType<typeof createCashierService>;
