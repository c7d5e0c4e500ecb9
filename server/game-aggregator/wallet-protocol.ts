/**
 * The one door from the aggregator into our code base: the seamless wallet's wire protocol and
 * its signing (pure code, no database), as any provider would implement them from
 * docs/provider-wallet.md. eslint.config.js lets this file, and only it, reach inside the
 * provider-wallet module for them.
 */
export { SIGNATURE_HEADER, signBody, isSignatureValid, DEMO_PROVIDER } from '../modules/provider-wallet/providers';
export type { ProviderAction, ProviderErrorCode } from '../modules/provider-wallet/protocol';
export { providerClient, type ProviderReply, type Send } from '../modules/provider-wallet/provider-client';
