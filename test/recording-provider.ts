/**
 * A payment provider for cashier tests: it records what the cashier asks of it and builds the
 * notifications a test then plays, in any order and any number of times. The real protocol
 * (hosted pages, signatures, deliveries) is the sandbox provider's, tested on its own.
 */
import type {
  CreatePaymentInput,
  CreatePayoutInput,
  PaymentProvider,
  ProviderEvent,
  ProviderStatus,
} from '../server/modules/payments';

export class RecordingProvider implements PaymentProvider {
  readonly name = 'sandbox';
  payments: CreatePaymentInput[] = [];
  payouts: CreatePayoutInput[] = [];
  isDown = false;
  private sequence = 0;

  async createPayment(input: CreatePaymentInput) {
    if (this.isDown) throw new Error('provider down');
    this.payments.push(input);
    return { providerRef: `ref-${input.reference}`, redirectUrl: `/psp/sandbox/pay/ref-${input.reference}` };
  }
  async parseWebhook(): Promise<ProviderEvent> {
    throw new Error('not used: the test applies events directly');
  }
  async createPayout(input: CreatePayoutInput) {
    this.payouts.push(input);
    return { providerRef: `ref-${input.reference}`, status: 'pending' as const };
  }
  /** What queryStatus answers per provider reference (default: still pending). */
  statuses = new Map<string, ProviderStatus>();
  async queryStatus(_kind: 'payment' | 'payout', providerRef: string) {
    const known = [...this.payments, ...this.payouts].find((item) => `ref-${item.reference}` === providerRef);
    return {
      status: this.statuses.get(providerRef) ?? ('pending' as const),
      amountMinor: known?.amountMinor ?? 0n,
      currency: known?.currency ?? 'EUR',
    };
  }
  event(
    reference: string,
    status: ProviderStatus,
    amountMinor: bigint,
    kind: 'payment' | 'payout' = 'payment',
    eventId = `evt-${this.sequence++}`,
  ): ProviderEvent {
    return {
      eventId,
      kind,
      reference,
      providerRef: `ref-${reference}`,
      status,
      amountMinor,
      currency: 'EUR',
      occurredAt: new Date(),
    };
  }
}
