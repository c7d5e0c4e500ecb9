/**
 * Which sites are demos, and where a site's secrets come from (issue 11, point 1).
 *
 * A site is a demo only when content says so (`settings.is_demo: true`). A demo site runs on the
 * built-in sandbox providers with their published demo values, written here on purpose: they are
 * public by design, and a demo site takes no real provider. Every other site gets its secrets
 * from the environment or the secrets file (server/config.ts), under names built by
 * `siteSecretVariable`, and never from content: content is seeded into the database and edited
 * by operators, so it is no place for a key that moves money or signs players in.
 */
import type { Site } from './service';

/** What a site may need a secret for; OAUTH_{SERVICE} is the client secret of one social provider. */
export type SiteSecretName = 'KYC' | 'PSP_SANDBOX' | 'MESSENGER_BOT_TOKEN' | `OAUTH_${string}`;

/** The client secret of the built-in development identity provider (/oauth/dev): published, demo only. */
export const DEMO_OAUTH_CLIENT_SECRET = 'dev-only-client-secret-not-for-production';

/** The sandbox and development provider names of content that only a demo site may use. */
export const SANDBOX_PROVIDER = 'sandbox';

/** Any value shaped like one of the published demo values (ours, for any site id): never a real secret. */
const PUBLISHED_DEMO_VALUE = /not-a-secret|not-a-real|dev-only|not-for-production/i;

type SiteLike = Pick<Site, 'id' | 'settings'>;

export function isDemoSite(site: Pick<Site, 'settings'>): boolean {
  return site.settings.is_demo === true;
}

/** The published demo value of a setting on a demo site (undefined where the demo has none). */
export function demoSecret(siteId: string, name: SiteSecretName): string | undefined {
  if (name === 'KYC') return `sandbox-only-not-a-secret-${siteId}`;
  if (name === 'PSP_SANDBOX') return `sandbox-only-not-a-secret-psp-${siteId}`;
  if (name === 'MESSENGER_BOT_TOKEN') return `000000000:DEV-ONLY-not-a-real-bot-token-${siteId}`;
  return undefined;
}

/** True for a value any reader of this repository knows: refused as a real secret. */
export function isPublishedDemoValue(value: string): boolean {
  return PUBLISHED_DEMO_VALUE.test(value);
}

/** `SECRET_{SITE}_{NAME}`, the site id upper-cased with anything but letters and digits as `_`. */
export function siteSecretVariable(siteId: string, name: SiteSecretName): string {
  const part = (value: string) => value.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  return `SECRET_${part(siteId)}_${part(name)}`;
}

/** The OAuth secret name of a social provider's service (`google` → `OAUTH_GOOGLE`). */
export function oauthSecretName(service: string): SiteSecretName {
  return `OAUTH_${service.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}

/**
 * The secrets of every site: a demo site's are the published demo values and nothing else (a
 * demo takes no real provider); another site's are what the environment or secrets file set.
 */
export function createSiteSecrets(configured: Readonly<Record<string, string>>) {
  return {
    /** The secret, or undefined when the site has none (the feature then answers "not available"). */
    secretOf(site: SiteLike, name: SiteSecretName): string | undefined {
      if (isDemoSite(site)) return demoSecret(site.id, name);
      return configured[siteSecretVariable(site.id, name)];
    },
    /** The configured variable names (the start-up check looks for ones set on demo sites). */
    configuredNames(): string[] {
      return Object.keys(configured);
    },
  };
}

export type SiteSecrets = ReturnType<typeof createSiteSecrets>;

/** A site whose identity verification is the built-in sandbox and may use it (a demo site). */
export function isKycSandboxSite(site: Pick<Site, 'settings'>): boolean {
  const verification = site.settings.verification as { provider?: unknown } | undefined;
  return isDemoSite(site) && verification?.provider === SANDBOX_PROVIDER;
}

/** A site that takes payments through the built-in sandbox PSP and may use it (a demo site). */
export function isPspSandboxSite(site: Pick<Site, 'settings'>): boolean {
  const payments = site.settings.payments as Record<string, unknown> | undefined;
  return isDemoSite(site) && typeof payments?.[SANDBOX_PROVIDER] === 'object' && payments[SANDBOX_PROVIDER] !== null;
}
