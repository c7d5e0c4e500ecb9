/**
 * For tests: a merchant endpoint that records what the sandbox delivers, verifying each
 * notification the way our webhook does, and answering with whatever status the test wants.
 */
import type { PaymentProvider, ProviderEvent } from '../provider';

export interface Delivery {
  url: string;
  host: string | null;
  rawBody: string;
  headers: Headers;
  answeredStatus: number;
  event?: ProviderEvent;
  rejection?: string;
}

export function createTestReceiver(provider: Pick<PaymentProvider, 'parseWebhook'>, siteId: string) {
  const deliveries: Delivery[] = [];
  let answer: (attempt: number) => number = () => 200;

  return {
    deliveries,
    /** What the receiver answers to its n-th request (from 1). */
    answerWith(fn: (attempt: number) => number) {
      answer = fn;
    },
    async fetch(request: Request): Promise<Response> {
      const rawBody = await request.text();
      const answeredStatus = answer(deliveries.length + 1);
      const delivery: Delivery = {
        url: request.url,
        host: request.headers.get('host'),
        rawBody,
        headers: request.headers,
        answeredStatus,
      };
      try {
        delivery.event = await provider.parseWebhook({ headers: request.headers, rawBody, siteId });
      } catch (error) {
        delivery.rejection = error instanceof Error ? error.message : String(error);
      }
      deliveries.push(delivery);
      return new Response(null, { status: answeredStatus });
    },
    /** Accepted notifications of one payment, as `status` strings in arrival order. */
    statusesOf(providerRef: string): string[] {
      return deliveries
        .filter((d) => d.answeredStatus < 300 && d.event?.providerRef === providerRef)
        .map((d) => d.event?.status ?? '?');
    },
    eventsOf(providerRef: string): ProviderEvent[] {
      return deliveries
        .filter((d) => d.answeredStatus < 300 && d.event?.providerRef === providerRef)
        .map((d) => d.event as ProviderEvent);
    },
  };
}
