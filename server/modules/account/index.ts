/**
 * Accounts: players, their contacts and one-time secrets. The only module that writes the
 * `users` and `contacts` tables; others ask this service.
 */
export {
  createAccountService,
  type AccountService,
  type AccountServiceDeps,
  type ContactRow,
  type UserRow,
  type VerificationFlags,
} from './service';
export { createOneTimeSecrets, type OneTimeSecrets, type SecretPurpose } from './one-time-secrets';
export type { AccountStatus } from './tables';
export { accountMethods } from './methods';
export { profileMethods } from './profile-methods';
export { unsubscribeMethods } from './unsubscribe-methods';
// Pure helpers: how a login or contact is written and typed, shared by every way of signing in.
export { anonymousAccountInfo, canonicalContact, contactTypeOf } from './service';
