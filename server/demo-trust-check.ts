/**
 * The start-up check of demo trust (issue 11, point 1): a production process refuses to serve
 * while a site not marked demo uses a sandbox provider, the development identity provider, a
 * secret written in content or a published demo value, or while a demo site is given real
 * secrets. Each problem names the setting to change. The demo sites of content/ are marked demo,
 * so `npm start` passes it with no set-up.
 */
import { DEFAULT_LOCALE } from '#common/locale';
import {
  isDemoSite,
  isPublishedDemoValue,
  oauthSecretName,
  SANDBOX_PROVIDER,
  siteSecretVariable,
  type Site,
} from './modules/sites';
import { socialProviders } from './modules/social';
import { parseProviderSecrets } from './modules/provider-wallet';
import type { Services } from './services';

export interface DemoTrustInput {
  sites: readonly Site[];
  /** The enabled social providers' types of a site's auth configuration ('dev' is the development one). */
  socialProviderTypes: (site: Site) => Promise<Map<string, string>>;
  /** SECRET_* variables of the environment and secrets file (server/config.ts). */
  siteSecrets: Readonly<Record<string, string>>;
  /** PROVIDER_SECRETS as configured. */
  providerSecrets?: string;
  /** The odds feed is the built-in simulator (no FEED_URL) or takes a published demo token: simulated prices. */
  isDemoFeed?: boolean;
}

/** Secrets content used to carry, each with where a real site keeps it instead. */
function secretsInContent(site: Site): Array<{ setting: string; instead: string }> {
  const settings = site.settings as {
    verification?: { secret?: unknown };
    payments?: Record<string, { secret?: unknown } | undefined>;
    messenger?: { botToken?: unknown };
    oauth_client_secrets?: Record<string, unknown>;
  };
  const variable = (name: string) => `set ${name} in the environment or SECRETS_FILE`;
  const found: Array<{ setting: string; instead: string }> = [];
  if (settings.verification?.secret !== undefined)
    found.push({ setting: 'settings.verification.secret', instead: variable(siteSecretVariable(site.id, 'KYC')) });
  for (const [provider, block] of Object.entries(settings.payments ?? {}))
    if (block?.secret !== undefined)
      found.push({ setting: `settings.payments.${provider}.secret`, instead: 'no payment secret is read from content' });
  if (settings.messenger?.botToken !== undefined)
    found.push({
      setting: 'settings.messenger.botToken',
      instead: variable(siteSecretVariable(site.id, 'MESSENGER_BOT_TOKEN')),
    });
  for (const service of Object.keys(settings.oauth_client_secrets ?? {}))
    found.push({
      setting: `settings.oauth_client_secrets.${service}`,
      instead: variable(siteSecretVariable(site.id, oauthSecretName(service))),
    });
  return found;
}

/** What a site not marked demo may not have: the sandboxes, the development provider, secrets in content. */
async function realSiteProblems(site: Site, input: DemoTrustInput): Promise<string[]> {
  const where = `site "${site.id}"`;
  const demoHint = 'only a site marked demo (settings.is_demo: true) may use it';
  const problems: string[] = [];
  const verification = site.settings.verification as { provider?: unknown } | undefined;
  if (verification?.provider === SANDBOX_PROVIDER)
    problems.push(`${where}: settings.verification.provider is the KYC sandbox; ${demoHint}`);
  const payments = site.settings.payments as Record<string, unknown> | undefined;
  if (payments?.[SANDBOX_PROVIDER] !== undefined)
    problems.push(`${where}: settings.payments.${SANDBOX_PROVIDER} is the sandbox payment provider; ${demoHint}`);
  for (const [service, type] of await input.socialProviderTypes(site))
    if (type === 'dev')
      problems.push(`${where}: auth-config social.providers.${service} is the development identity provider; ${demoHint}`);
  for (const { setting, instead } of secretsInContent(site))
    problems.push(`${where}: ${setting} is a secret in content; remove it (${instead})`);
  return problems;
}

/** A demo site uses the published demo values only: a real secret for it would make it a real site. */
function demoSiteProblems(site: Site, input: DemoTrustInput): string[] {
  const named = new Set(['KYC', 'PSP_SANDBOX', 'MESSENGER_BOT_TOKEN'].map((name) => siteSecretVariable(site.id, name as 'KYC')));
  const oauthPrefix = siteSecretVariable(site.id, 'OAUTH_');
  return Object.keys(input.siteSecrets)
    .filter((name) => named.has(name) || name.startsWith(oauthPrefix))
    .map(
      (name) =>
        `${name} is set for the demo site "${site.id}", which takes no real provider; unset it, or remove settings.is_demo from the site`,
    );
}

/** Every problem of demo trust, each naming its setting; empty when the process may serve. */
export async function demoTrustProblems(input: DemoTrustInput): Promise<string[]> {
  const problems: string[] = [];
  for (const site of input.sites)
    problems.push(...(isDemoSite(site) ? demoSiteProblems(site, input) : await realSiteProblems(site, input)));
  // One feed prices every site's sportsbook: simulated prices are for demo sites only.
  const realSites = input.sites.filter((site) => !isDemoSite(site));
  if (input.isDemoFeed && realSites.length > 0)
    problems.push(
      `the odds feed is the demo simulator (FEED_URL unset, or FEED_TOKEN a published demo value) while site "${realSites[0]!.id}" is not a demo: set FEED_URL and FEED_TOKEN to a real feed, or FEED_SIMULATOR=0`,
    );
  for (const [name, value] of Object.entries(input.siteSecrets))
    if (isPublishedDemoValue(value)) problems.push(`${name} is a published demo value, never a secret: set the real one`);
  for (const [name, secret] of parseProviderSecrets(input.providerSecrets))
    if (isPublishedDemoValue(secret))
      problems.push(`PROVIDER_SECRETS: the secret of "${name}" is a published demo value, never a secret: set the real one`);
  return problems;
}

/** The check's input from a booted process's services and configuration. */
export async function demoTrustProblemsOf(
  services: Services,
  config: {
    siteSecrets: Readonly<Record<string, string>>;
    PROVIDER_SECRETS?: string;
    FEED_URL?: string;
    FEED_TOKEN?: string;
    FEED_SIMULATOR?: '0' | '1';
  },
): Promise<string[]> {
  return demoTrustProblems({
    sites: await services.sites.listSites(),
    socialProviderTypes: async (site) => {
      const config = await services.content.getConfig(site.id, site.locales[0] ?? DEFAULT_LOCALE);
      return new Map([...socialProviders(config['auth-config'])].map(([service, provider]) => [service, provider.type]));
    },
    siteSecrets: config.siteSecrets,
    providerSecrets: config.PROVIDER_SECRETS,
    isDemoFeed: config.FEED_URL
      ? isPublishedDemoValue(config.FEED_TOKEN ?? '')
      : config.FEED_SIMULATOR !== undefined && config.FEED_SIMULATOR !== '0',
  });
}

/**
 * Applies the check at start-up: in production each problem goes to stderr and the process
 * stops (exit 1) before it listens; elsewhere the problems are logged as warnings.
 */
export async function enforceDemoTrust(
  problems: readonly string[],
  options: { isProduction: boolean; warn: (problem: string) => void; stop: () => Promise<never> },
): Promise<void> {
  if (problems.length === 0) return;
  if (!options.isProduction) {
    for (const problem of problems) options.warn(problem);
    return;
  }
  for (const problem of problems) process.stderr.write(`Refusing to start in production: ${problem}\n`);
  await options.stop();
}

/** The start-up step of server/main.ts and server/dev.ts: check, then warn or stop (closing the database first). */
export async function checkDemoTrustAtStart(
  services: Services,
  config: Parameters<typeof demoTrustProblemsOf>[1] & { NODE_ENV: string },
  options: { warn: (problem: string) => void; closeDatabase: () => Promise<void> },
): Promise<void> {
  await enforceDemoTrust(await demoTrustProblemsOf(services, config), {
    isProduction: config.NODE_ENV === 'production',
    warn: options.warn,
    stop: async () => {
      await options.closeDatabase();
      process.exit(1);
    },
  });
}
