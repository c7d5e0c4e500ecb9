/** Sign-up, sign-in, sessions, password and two-factor changes. */
export {
  createAuthService,
  SESSION_TTL_MS,
  TWO_FACTOR_EXPIRED_MESSAGE,
  TWO_FACTOR_INVALID_MESSAGE,
  TWO_FACTOR_REQUIRED_MESSAGE,
  type AuthService,
  type SessionUser,
} from './service';
export { authMethods, registrationRules } from './methods';
// The web layer sets the trusted-device cookie for as long as the auth module trusts a device.
export { TRUSTED_DEVICE_TTL_MS } from './sign-in-guard';
export { recoveryMethods, RESTORE_JOB, sendRestoreLinkJob } from './recovery-methods';
// Public helpers: fixtures and tools create accounts with a password hash of the house's cost,
// and tests answer a two-factor step as an authenticator app would.
export { hashPassword } from './passwords';
export { generateTotpSecret, totpCode } from './totp';
