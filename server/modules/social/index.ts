/** Sign-in through social networks (OAuth with PKCE) and messenger entry. */
export { createSocialService, type ExternalIdentity, type SocialService, type TypeAuth } from './service';
export { socialMethods } from './methods';
export { clientSecretOf, siteSocialProviders, socialProviders, type SocialProvider } from './providers';
// The built-in development identity provider (/oauth/dev) answers with these.
export { DEV_ACCESS_TOKEN_TTL_MS, devSubject } from './dev-provider-store';
// Pure helpers of the OAuth protocol, used by the development identity provider.
export { isCodeVerifier, pkceChallenge, safeEqual } from './pkce';
