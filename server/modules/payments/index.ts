/**
 * Payment providers behind one interface, and the built-in sandbox PSP (its pages and webhooks
 * are served by server/web/psp-sandbox.ts and psp-webhooks.ts).
 */
export { createPaymentProviders, type PaymentProviderDeps, type PaymentProviders } from './registry';
export {
  FINAL_PROVIDER_STATUSES,
  WebhookRejectedError,
  type CreatedPayment,
  type CreatedPayout,
  type CreatePaymentInput,
  type CreatePayoutInput,
  type IncomingWebhook,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderStatus,
  type ReturnUrls,
} from './provider';
export { SANDBOX_PAGES_PATH, isFinalSandboxStatus, toProviderStatus, type SandboxPayment } from './sandbox/service';
// Pure helpers of the sandbox's hosted pages: the Pix payload and the documented test cards.
export { pixPayload } from './sandbox/pix';
export { CHALLENGE_CODE, TEST_CARDS, type CardField, type CardInput, type CardProblem } from './sandbox/test-cards';
