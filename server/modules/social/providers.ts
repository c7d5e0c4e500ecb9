/**
 * Social sign-in providers of a site, from the `social` block of its auth configuration
 * (content/…/auth-config.json). The configuration is public (the site draws its buttons from
 * it), so it never holds a secret: a provider's client secret is a site secret from the
 * environment (SECRET_{SITE}_OAUTH_{SERVICE}), and the built-in development provider has a
 * published demo value. A demo site offers the development provider only, any other site real
 * providers only (issue 11: demo values work only where the site is marked demo).
 */
import { z } from 'zod';
import { DEMO_OAUTH_CLIENT_SECRET, isDemoSite, oauthSecretName, type Site, type SiteSecrets } from '../sites';

/** The client secret of the built-in development provider: a published demo value, not a secret. */
export const DEV_CLIENT_SECRET = DEMO_OAUTH_CLIENT_SECRET;

/** An endpoint is a path on our own server (called in-process) or an https address. */
const endpoint = z
  .string()
  .min(1)
  .refine(
    (value) => (value.startsWith('/') && !value.startsWith('//')) || value.startsWith('https://'),
    'must be a path or an https:// address',
  );

const providerSchema = z.object({
  name: z.string().min(1),
  /** 'dev' is the built-in development identity provider under /oauth/dev. */
  type: z.enum(['oauth2', 'dev']).default('oauth2'),
  isEnabled: z.boolean().default(true),
  authorizeUrl: endpoint,
  tokenUrl: endpoint,
  userinfoUrl: endpoint,
  clientId: z.string().min(1),
  scope: z.string().default(''),
});

export type SocialProvider = z.infer<typeof providerSchema> & { service: string };

const SERVICE_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** The providers a site may use: the development one on a demo site, real ones anywhere else. */
export function siteSocialProviders(
  site: Pick<Site, 'settings'>,
  authConfig: Record<string, unknown>,
): Map<string, SocialProvider> {
  const isDemo = isDemoSite(site);
  const all = socialProviders(authConfig);
  return new Map([...all].filter(([, provider]) => (provider.type === 'dev') === isDemo));
}

/** Enabled, well-formed providers by service name; a malformed entry is left out, not fatal. */
export function socialProviders(authConfig: Record<string, unknown>): Map<string, SocialProvider> {
  const social = authConfig.social as { providers?: Record<string, unknown> } | undefined;
  const providers = new Map<string, SocialProvider>();
  for (const [service, raw] of Object.entries(social?.providers ?? {})) {
    if (!SERVICE_NAME.test(service)) continue;
    const parsed = providerSchema.safeParse(raw);
    if (parsed.success && parsed.data.isEnabled) providers.set(service, { ...parsed.data, service });
  }
  return providers;
}

/** The client secret for a provider of a site, or undefined when it has none (or may not use it). */
export function clientSecretOf(site: Site, provider: SocialProvider, secrets: SiteSecrets): string | undefined {
  if (provider.type === 'dev') return isDemoSite(site) ? DEV_CLIENT_SECRET : undefined;
  return isDemoSite(site) ? undefined : secrets.secretOf(site, oauthSecretName(provider.service));
}
