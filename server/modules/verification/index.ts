/** Identity verification (KYC) through the sandbox provider and its signed webhooks. */
export { createVerificationService, type ReviewEvent, type VerificationService } from './service';
export { kycSandboxSecret, kycWebhookSecret, verificationMethods, verificationSecret } from './methods';
// Pure helpers of the provider protocol: the KYC sandbox pages sign and check with them.
export { isSignatureValid, readAccessToken, SIGNATURE_HEADER, signPayload } from './service';
