/**
 * Social sign-in providers of a site, from the `social` block of its auth configuration
 * (content/…/auth-config.json). The configuration is public (the site draws its buttons from
 * it), so it never holds a secret: a provider's client secret is an operator setting of the
 * site (settings.oauth_client_secrets.{service}), and the built-in development provider uses a
 * fixed development value.
 */
import { z } from 'zod';
import type { Site } from '../sites';

/** The client secret of the built-in development provider: a development value, not a secret. */
export const DEV_CLIENT_SECRET = 'dev-only-client-secret-not-for-production';

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

/** The client secret for a provider of a site, or undefined when the operator has not set one. */
export function clientSecretOf(site: Site, provider: SocialProvider): string | undefined {
  const secrets = site.settings.oauth_client_secrets as Record<string, unknown> | undefined;
  const configured = secrets?.[provider.service];
  if (typeof configured === 'string' && configured) return configured;
  return provider.type === 'dev' ? DEV_CLIENT_SECRET : undefined;
}
