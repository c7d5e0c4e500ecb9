/**
 * Our end of the payment providers' notifications: `POST /psp/{provider}/webhook`. The site is
 * the one the Host names (the provider was given that address), the provider's adapter verifies
 * and parses the raw body, and the cashier applies the event. The answer tells the provider
 * whether to try again: 2xx once the event is applied or known (a duplicate), 4xx for a
 * notification that will never be acceptable, 5xx when we could not apply it now.
 */
import { Hono } from 'hono';
import type { Logger } from 'pino';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '#common/errors';
import type { AppEnv } from './app-env';
import type { Services } from '../services';
import { WebhookRejectedError, type ProviderEvent } from '../modules/payments';

/** What applies a verified provider event to our books (the cashier). */
export interface ProviderEventSink {
  /** Idempotent by (provider, event id); resolves once the event is durably applied or known. */
  applyProviderEvent(siteId: string, providerName: string, event: ProviderEvent): Promise<unknown>;
}

/** Notifications are small; anything larger is not one. */
const MAX_WEBHOOK_BYTES = 64 * 1024;

export function createPspWebhookRoutes(
  getSink: (services: Services) => ProviderEventSink | undefined,
  logger?: Pick<Logger, 'error'>,
) {
  const routes = new Hono<AppEnv>();
  const errorAnswer = (error: ApiError) => ({ error: error.toBody() });

  routes.post(
    '/:provider/webhook',
    bodyLimit({
      maxSize: MAX_WEBHOOK_BYTES,
      onError: (c) => c.json(errorAnswer(new ApiError('InvalidRequestException', 'The notification is too large')), 413),
    }),
    async (c) => {
      const services = c.get('services');
      const providerName = c.req.param('provider');
      const provider = services.payments.providerFor(providerName);
      if (!provider) return c.json(errorAnswer(new ApiError('MethodNotFoundException', 'Unknown payment provider')), 404);
      const site = c.get('site');
      const rawBody = await c.req.text();

      let event: ProviderEvent;
      try {
        event = await provider.parseWebhook({ headers: c.req.raw.headers, rawBody, siteId: site.id });
      } catch (error) {
        if (!(error instanceof WebhookRejectedError)) throw error;
        return c.json(
          errorAnswer(new ApiError('InvalidRequestException', 'The notification was rejected', { reason: error.message })),
          400,
        );
      }

      const sink = getSink(services);
      // Without a sink the provider keeps the notification and retries: nothing is lost.
      if (!sink) return c.json(errorAnswer(new ApiError('BillingUnavailableException', 'Payments are not available')), 503);
      try {
        const outcome = await sink.applyProviderEvent(site.id, provider.name, event);
        return c.json({ data: { event_id: event.eventId, outcome: typeof outcome === 'string' ? outcome : 'applied' } });
      } catch (error) {
        logger?.error({ err: error, provider: provider.name, eventId: event.eventId }, 'provider event not applied');
        const status = error instanceof ApiError && error.status >= 500 ? error.status : 500;
        return c.json(
          errorAnswer(new ApiError('UnknownErrorException', 'The notification could not be applied; try again later')),
          status as 500,
        );
      }
    },
  );

  return routes;
}
