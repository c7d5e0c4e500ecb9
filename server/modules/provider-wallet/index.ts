/** The seamless wallet's public face (architecture §3): the service, its protocol, its providers. */
export {
  createProviderWalletService,
  PROVIDER_SESSION_TTL_MS,
  type ProviderSession,
  type ProviderWalletDeps,
  type ProviderWalletService,
} from './service';
export {
  amountJson,
  PROVIDER_ACTIONS,
  PROVIDER_ERROR_STATUS,
  ProviderRefusal,
  requestSchemas,
  type ProviderAction,
  type ProviderAnswer,
  type ProviderErrorAnswer,
  type ProviderErrorCode,
  type ProviderOkAnswer,
  type ProviderRequest,
} from './protocol';
export {
  DEMO_PROVIDER,
  isSignatureValid,
  parseProviderCurrencies,
  parseProviderSecrets,
  providerConfigs,
  signBody,
  SIGNATURE_HEADER,
  type ProviderConfig,
} from './providers';
// A signed client of the protocol, as a provider would call us (simulator, benchmark).
export { providerClient, type ProviderClient, type Send } from './provider-client';
// Its rounds as game-history rows (game-history pages them with the in-house rounds and live bets).
export { playerProviderRoundsHistory } from './player-history';
// Its big wins (game history lists them with the in-house ones on the home page).
export { bigProviderRoundsQuery } from './big-rounds';
