/**
 * Which external providers may call the seamless wallet, and how their requests are signed
 * (docs/provider-wallet.md). A provider has a name (its address segment), an HMAC secret, the
 * currencies it plays in and the catalogue providers (studios) whose games it serves.
 *
 * Secrets come from the environment (PROVIDER_SECRETS, parsed in server/config.ts as
 * BACKOFFICE_TOKENS is): in production, a provider without a configured secret is simply not
 * served, and the demo provider below is off. Development and tests run the demo provider with
 * its documented, not-secret key.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface ProviderConfig {
  /** The `/provider-api/{name}/…` segment. */
  name: string;
  /** HMAC-SHA256 key of the request signature. */
  secret: string;
  /** Currencies it plays in (ISO codes); a session in another currency is refused. */
  currencies: readonly string[];
  /** Catalogue providers (the games' `provider`) whose games it launches. */
  studios: readonly string[];
  /** The demo provider with its published key: it serves demo sites only (issue 11). */
  isDemo?: boolean;
}

export const SIGNATURE_HEADER = 'x-signature';

/** The demo aggregator of development and tests. Its key is published: never use it for money. */
export const DEMO_PROVIDER: ProviderConfig = {
  name: 'demo-aggregator',
  secret: 'provider-only-not-a-secret-demo-aggregator',
  currencies: ['EUR', 'USD', 'BRL', 'GBP'],
  studios: ['redfox', 'northlight', 'livewave'],
  isDemo: true,
};

/** The catalogue's external studios, served by a provider of the same name unless configured otherwise. */
const KNOWN_STUDIOS = new Set(['redfox', 'northlight', 'livewave']);

/** Parses `name:secret,name:secret` (format checked by server/config.ts). */
export function parseProviderSecrets(value: string | undefined): Map<string, string> {
  const secrets = new Map<string, string>();
  for (const pair of (value ?? '').split(',').filter(Boolean)) {
    const at = pair.indexOf(':');
    secrets.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return secrets;
}

/** Parses `name:EUR|USD,name:BRL`: a provider's currencies when they are not the demo's. */
export function parseProviderCurrencies(value: string | undefined): Map<string, string[]> {
  const currencies = new Map<string, string[]>();
  for (const pair of (value ?? '').split(',').filter(Boolean)) {
    const at = pair.indexOf(':');
    currencies.set(
      pair.slice(0, at),
      pair
        .slice(at + 1)
        .split('|')
        .filter(Boolean),
    );
  }
  return currencies;
}

/**
 * The providers of a process: one per configured secret (a name the demo uses keeps the demo's
 * studios and currencies but takes the configured secret), plus the demo provider when asked.
 */
export function providerConfigs(options: { secrets?: string; currencies?: string; isDemoEnabled: boolean }): ProviderConfig[] {
  const configured = parseProviderSecrets(options.secrets);
  const currencies = parseProviderCurrencies(options.currencies);
  const list: ProviderConfig[] = [];
  for (const [name, secret] of configured) {
    const base =
      name === DEMO_PROVIDER.name
        ? DEMO_PROVIDER
        : { currencies: DEMO_PROVIDER.currencies, studios: KNOWN_STUDIOS.has(name) ? [name] : [] };
    list.push({ name, secret, currencies: currencies.get(name) ?? base.currencies, studios: base.studios });
  }
  if (options.isDemoEnabled && !configured.has(DEMO_PROVIDER.name)) list.push(DEMO_PROVIDER);
  return list;
}

/** Hex HMAC-SHA256 of the raw body: what a provider puts in X-Signature. */
export function signBody(secret: string, rawBody: string): string {
  return createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');
}

/** True when the header is the body's signature with this secret, compared in constant time. */
export function isSignatureValid(secret: string, rawBody: string, header: string | undefined | null): boolean {
  if (!header || !/^[0-9a-fA-F]{64}$/.test(header.trim())) return false;
  const presented = Buffer.from(header.trim().toLowerCase(), 'hex');
  const expected = Buffer.from(signBody(secret, rawBody), 'hex');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
