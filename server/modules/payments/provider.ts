/**
 * The one interface every payment provider (PSP) adapter implements. The cashier only speaks
 * this; a provider's own protocol (hosted pages, signatures, status names) stays in its adapter.
 */
import type { PaymentMethodType } from '#common/cashier-contract';

/** Where the provider sends the player back after its hosted page, per outcome. */
export interface ReturnUrls {
  success: string;
  fail: string;
  pending: string;
  cancel: string;
}

export interface CreatePaymentInput {
  /** Our deposit id: the provider echoes it in every webhook, so it is the idempotency key's root. */
  reference: string;
  amountMinor: bigint;
  currency: string;
  method: PaymentMethodType;
  /** Absolute URLs on the player's site origin. */
  returnUrls: ReturnUrls;
  /** Where the provider posts its signed notifications. */
  notificationUrl: string;
  customer: { id: number; email: string | null; country: string | null };
  locale: string;
  siteId: string;
}

export interface CreatedPayment {
  providerRef: string;
  /** The hosted page the player continues on. */
  redirectUrl: string;
}

export interface CreatePayoutInput {
  /** Our withdrawal id. */
  reference: string;
  amountMinor: bigint;
  currency: string;
  method: PaymentMethodType;
  requisites: Record<string, string>;
  notificationUrl: string;
  siteId: string;
}

export interface CreatedPayout {
  providerRef: string;
  status: ProviderStatus;
}

/** A provider's statuses, mapped to ours. Final ones never change again. */
export type ProviderStatus = 'pending' | 'success' | 'fail' | 'cancel';

export const FINAL_PROVIDER_STATUSES: ReadonlySet<ProviderStatus> = new Set(['success', 'fail', 'cancel']);

/** A verified notification. */
export interface ProviderEvent {
  /** Unique per notification; a duplicate delivery repeats it. */
  eventId: string;
  kind: 'payment' | 'payout';
  /** Our deposit or withdrawal id. */
  reference: string;
  providerRef: string;
  status: ProviderStatus;
  amountMinor: bigint;
  currency: string;
  occurredAt: Date;
}

export interface IncomingWebhook {
  headers: Headers;
  /** The body exactly as received: signatures cover bytes, not parsed JSON. */
  rawBody: string;
  siteId: string;
}

export interface PaymentProvider {
  readonly name: string;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /** Verifies the signature and parses; throws WebhookRejectedError when forged or malformed. */
  parseWebhook(webhook: IncomingWebhook): Promise<ProviderEvent>;
  createPayout(input: CreatePayoutInput): Promise<CreatedPayout>;
  /** Asks the provider directly, for reconciling a payment whose notifications never came. */
  queryStatus(
    kind: 'payment' | 'payout',
    providerRef: string,
    siteId: string,
  ): Promise<{ status: ProviderStatus; amountMinor: bigint; currency: string }>;
}

export class WebhookRejectedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'WebhookRejectedError';
  }
}
