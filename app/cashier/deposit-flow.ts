/**
 * How a deposit continues after cashier.makedeposit (spec §2 payment result screens, §3
 * currentTransactionId): which flow to ask for, where the provider's page opens, and which
 * result screen a deposit status leads to.
 */
import type { DepositStatus, PaymentFlow } from '#common/cashier-contract';
import type { DeviceClass } from '#common/device';

/** The storage key of the deposit the result screens follow (spec §3 currentTransactionId). */
export const CURRENT_TRANSACTION_KEY = 'currentTransactionId';

/**
 * The flow to request: the mobile flow on phones when the method offers it, a new window when
 * the player asked for one and the method offers it, else this window (or what the method has).
 */
export function chooseDepositFlow(input: {
  flows: readonly PaymentFlow[];
  device: DeviceClass;
  wantsNewWindow: boolean;
}): PaymentFlow {
  const { flows } = input;
  if (input.device === 'mobile' && flows.includes('mobile')) return 'mobile';
  if (input.wantsNewWindow && input.device !== 'mobile' && flows.includes('new_window')) return 'new_window';
  if (flows.includes('same_window')) return 'same_window';
  return flows[0] ?? 'same_window';
}

/** Whether the player can be offered the new-window choice at all. */
export function canOpenNewWindow(flows: readonly PaymentFlow[], device: DeviceClass): boolean {
  return device !== 'mobile' && flows.includes('new_window');
}

const FINAL: ReadonlySet<DepositStatus> = new Set(['success', 'fail', 'cancel']);

export function isFinalDepositStatus(status: DepositStatus): boolean {
  return FINAL.has(status);
}

/** The result screen of a final status (locale-less path); undefined while the deposit is open. */
export function resultPath(status: DepositStatus, id: string): string | undefined {
  if (status === 'success') return `/cashier/paysuccess/${encodeURIComponent(id)}`;
  if (status === 'fail') return `/cashier/payfail/${encodeURIComponent(id)}`;
  if (status === 'cancel') return '/cashier/paycancel';
  return undefined;
}

/** Where this window goes once the deposit has started (locale-less for the result screens). */
export function nextStep(start: {
  id: string;
  flow: PaymentFlow;
  redirect_url: string;
}): { kind: 'provider'; href: string } | { kind: 'screen'; path: string; providerHref: string } {
  if (start.flow === 'new_window')
    return { kind: 'screen', path: `/cashier/paynewwindow?id=${encodeURIComponent(start.id)}`, providerHref: start.redirect_url };
  return { kind: 'provider', href: start.redirect_url };
}

/** The deposit a result screen follows: the address's id (route parameter or ?id=), else the stored one. */
export function followedTransactionId(input: {
  param?: string;
  query?: string | null;
  stored?: string | null;
  isFlowScreen: boolean;
}): string | undefined {
  if (input.param) return input.param;
  if (input.query) return input.query;
  // Only the mobile and new-window screens fall back to the stored id: the others name theirs.
  return input.isFlowScreen ? (input.stored ?? undefined) : undefined;
}

/** Poll every 2 s for the first minute, then every 10 s: a bank transfer may take long. */
export function pollDelayMs(attempt: number): number {
  return attempt < 30 ? 2_000 : 10_000;
}
