/**
 * Process configuration from the environment, parsed once at start-up; a bad value refuses to
 * boot with a message naming the variable.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseAddressRange, type AddressRange, type ProxyTrust } from './web/client-address';

const phaseMs = z.coerce.number().int().min(0).max(600_000).optional();

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** postgres://… to use PostgreSQL; unset means embedded PGlite under DATA_DIR. */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    DATA_DIR: z.string().min(1).default('./var/db'),
    /**
     * PGlite's buffer pool (PostgreSQL's shared_buffers, e.g. 64MB): it lives in WASM memory, which
     * never shrinks, and PGlite touches all of it when it starts, so it is what an idle embedded
     * server holds; smaller saves memory, larger keeps more pages without a copy from the file
     * system. Unset: db/client.ts DEFAULT_PGLITE_SHARED_BUFFERS (issue 12, docs/performance.md).
     */
    PGLITE_SHARED_BUFFERS: z
      .string()
      .regex(/^[1-9][0-9]*(kB|MB|GB)$/, 'must be a size such as 64MB')
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Largest accepted request body. */
    MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    /** `1`: one load balancer in front of us (as PROXY_HOPS=1), unless TRUSTED_PROXIES or PROXY_HOPS say more. */
    TRUST_PROXY: z
      .enum(['0', '1'])
      .default('0')
      .transform((value) => value === '1'),
    /**
     * Proxies whose X-Forwarded-For entries are believed, as addresses or CIDR ranges separated by
     * commas (`10.0.0.0/8,127.0.0.1`); the client is the rightmost address not among them.
     */
    TRUSTED_PROXIES: z
      .string()
      .transform((value, ctx) => {
        const ranges = value.split(',').map(parseAddressRange);
        if (ranges.every((range) => range !== undefined)) return ranges as AddressRange[];
        ctx.issues.push({ code: 'custom', message: 'must be IP addresses or CIDR ranges separated by commas', input: value });
        return z.NEVER;
      })
      .optional(),
    /** Or: how many proxies stand in front of us; the client is that many X-Forwarded-For entries from the right. */
    PROXY_HOPS: z.coerce.number().int().min(1).max(10).optional(),
    /** The header the load balancer sets to the visitor's country (e.g. cf-ipcountry); the only one read. */
    COUNTRY_HEADER: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/, 'must be a header name')
      .transform((value) => value.toLowerCase())
      .optional(),
    /** smtp(s)://user:pass@host:port to deliver e-mail; unset keeps e-mail in the outbox only. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().default('no-reply@casino.local'),
    /** Bearer token a scraper sends to read /metrics on the site's listener (issue 11: no token, no metrics there). */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** A separate listener that serves /metrics without a token; unset: none. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** Where that listener binds: a loopback or private address only, as it asks for no token. */
    METRICS_HOST: z
      .string()
      .regex(
        /^(localhost|127\.\d+\.\d+\.\d+|::1|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+)$/,
        'must be a loopback or private address (the metrics listener asks for no token)',
      )
      .default('127.0.0.1'),
    /**
     * Operators allowed on the back-office API, as `name:token` pairs separated by commas; each
     * token at least 24 characters. Unset: the back-office API answers no one.
     */
    BACKOFFICE_TOKENS: z
      .string()
      .regex(
        /^[\w.-]+:[^,\s]{24,}(,[\w.-]+:[^,\s]{24,})*$/,
        'must be name:token pairs (tokens of 24+ characters) separated by commas',
      )
      .optional(),
    /**
     * External game providers allowed on the seamless wallet (docs/provider-wallet.md), as
     * `name:secret` pairs separated by commas; each secret at least 24 characters. Unset: no
     * provider is served in production (development and tests serve the demo provider only).
     */
    PROVIDER_SECRETS: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9-]*:[^,\s]{24,}(,[a-z0-9][a-z0-9-]*:[^,\s]{24,})*$/,
        'must be name:secret pairs (secrets of 24+ characters) separated by commas',
      )
      .optional(),
    /** Currencies of configured providers, `name:EUR|USD` pairs separated by commas (default EUR, USD, BRL, GBP). */
    PROVIDER_CURRENCIES: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9-]*:[A-Z]{3}(\|[A-Z]{3})*(,[a-z0-9][a-z0-9-]*:[A-Z]{3}(\|[A-Z]{3})*)*$/,
        'must be name:EUR|USD pairs separated by commas',
      )
      .optional(),
    /** Serve /dev/outbox: on in development, off in production unless set to 1 (test runs). */
    OUTBOX_PAGE: z.enum(['0', '1']).optional(),
    /** Serve the demo game aggregator (published secret, demo sites only): on in development, off in production unless 1. */
    DEMO_GAME_PROVIDER: z.enum(['0', '1']).optional(),
    /**
     * The longest the job worker sleeps (webhook deliveries, settlements, …): it wakes when the next
     * known job is due and when a job is enqueued (NOTIFY), so this only bounds how late it notices
     * a job whose signal was lost.
     */
    JOBS_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(60_000),
    /** A mines or blackjack round without an action for this long is settled by the open-round rule (default 24 h). */
    OPEN_ROUND_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(60_000)
      .max(30 * 24 * 3_600_000)
      .default(24 * 3_600_000),
    /** Phases of the shared crash and live-roulette rounds (docs/live-games.md); unset keeps the module's defaults. */
    LIVE_GAMES_BETTING_MS: phaseMs,
    LIVE_GAMES_SPIN_MS: phaseMs,
    LIVE_GAMES_RESULT_MS: phaseMs,
    /** How long a process holds the live tables' scheduler lease without renewing it. */
    LIVE_GAMES_LEASE_MS: phaseMs,
    /**
     * With nobody at any live table of a process for this long, the tables finish their rounds and
     * open no new ones until someone comes (issue 12, an idle server's cost); 0 keeps them running.
     */
    LIVE_GAMES_IDLE_AFTER_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
    /** A JSON file of secrets (same names as these variables); the environment wins over it. */
    SECRETS_FILE: z.string().min(1).optional(),
    /**
     * The odds feed (issue 14): the provider's base URL (http:// or https://). Unset: the site
     * starts the built-in feed simulator beside itself (demo sites only, see demo-trust-check.ts).
     */
    FEED_URL: z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL')
      .transform((url) => url.replace(/\/$/, ''))
      .optional(),
    /** The token the odds feed asks for; required with FEED_URL. */
    FEED_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** `0`: no odds feed at all (no simulator is started when FEED_URL is unset). */
    FEED_SIMULATOR: z.enum(['0', '1']).default('1'),
    /** How many times faster than real time the built-in simulator plays its matches. */
    FEED_SPEED: z.coerce.number().positive().max(100_000).default(1),
    /** A producer silent for longer than this is down and its markets suspended. */
    FEED_LIVENESS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
    /** How long an in-play sports bet waits before its prices are checked again (issue 14). */
    SPORTSBOOK_IN_PLAY_DELAY_MS: z.coerce.number().int().min(0).max(30_000).default(3_000),
    /**
     * The game aggregator that serves the external studios' titles (docs/game-aggregator.md): its
     * base URL. Unset: the site starts the built-in demo aggregator beside itself (GAME_AGGREGATOR).
     */
    AGGREGATOR_URL: z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL')
      .transform((url) => url.replace(/\/$/, ''))
      .optional(),
    /** The provider name (of PROVIDER_SECRETS, or the demo provider) the aggregator calls the wallet as; its secret signs launches. */
    AGGREGATOR_PROVIDER: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/)
      .default('demo-aggregator'),
    /** `0`: no built-in demo aggregator when AGGREGATOR_URL is unset (the external titles are then hidden). */
    GAME_AGGREGATOR: z.enum(['0', '1']).default('1'),
    /** Live-event streams one client address may hold open (issue 11); unset keeps the module's default (16). */
    LIVE_STREAMS_PER_CLIENT: z.coerce.number().int().min(1).max(10_000).optional(),
    /** Live-event streams the process holds open in all (default 2000). */
    LIVE_STREAMS_TOTAL: z.coerce.number().int().min(1).max(1_000_000).optional(),
    /** Bytes of events a slow reader may leave unsent before its stream is dropped (default 65536). */
    LIVE_STREAM_BUFFER_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .optional(),
  })
  .superRefine((config, ctx) => {
    if (config.FEED_URL && !config.FEED_TOKEN)
      ctx.addIssue({ code: 'custom', path: ['FEED_TOKEN'], message: "set it to the odds feed's token (FEED_URL is set)" });
    if (config.TRUSTED_PROXIES && config.PROXY_HOPS) {
      ctx.addIssue({ code: 'custom', path: ['PROXY_HOPS'], message: 'set TRUSTED_PROXIES or PROXY_HOPS, not both' });
    }
    if (config.COUNTRY_HEADER && !config.TRUSTED_PROXIES && !config.PROXY_HOPS && !config.TRUST_PROXY) {
      // Without a proxy in front, the header could only come from the client.
      ctx.addIssue({ code: 'custom', path: ['COUNTRY_HEADER'], message: 'needs TRUSTED_PROXIES, PROXY_HOPS or TRUST_PROXY=1' });
    }
  });

/**
 * A site's secret (server/modules/sites/demo-trust.ts names them): `SECRET_{SITE}_{NAME}`, e.g.
 * SECRET_LAGOON_KYC, SECRET_LAGOON_MESSENGER_BOT_TOKEN, SECRET_LAGOON_OAUTH_GOOGLE.
 */
const SITE_SECRET_VARIABLE = /^SECRET_[A-Z0-9_]+$/;
const siteSecretValue = z.string().min(16, 'must be at least 16 characters').max(4096);

/** What a secrets file may set: site secrets and the other settings that are secrets. */
const FILE_VARIABLES = new Set([
  'FEED_TOKEN',
  'PROVIDER_SECRETS',
  'BACKOFFICE_TOKENS',
  'METRICS_TOKEN',
  'SMTP_URL',
  'DATABASE_URL',
]);

export type AppConfig = z.infer<typeof envSchema> & {
  /** Every SECRET_* variable of the environment and the secrets file, by name. */
  siteSecrets: Readonly<Record<string, string>>;
};

/** Parses the environment with a schema; a bad value throws naming the variable. */
function parseEnvironment<Schema extends z.ZodType>(schema: Schema, env: NodeJS.ProcessEnv): z.infer<Schema> {
  // An empty variable means unset, as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** The secrets file named by SECRETS_FILE: a JSON object of string values under names it may set. */
function readSecretsFile(path: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`Invalid environment: SECRETS_FILE: cannot read a JSON object from it (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('Invalid environment: SECRETS_FILE: must hold a JSON object of names and string values');
  for (const [name, value] of Object.entries(parsed)) {
    if (!SITE_SECRET_VARIABLE.test(name) && !FILE_VARIABLES.has(name))
      throw new Error(`Invalid environment: SECRETS_FILE: ${name} is not a secret this file may set`);
    if (typeof value !== 'string') throw new Error(`Invalid environment: SECRETS_FILE: ${name} must be a string`);
  }
  return parsed as Record<string, string>;
}

/** The SECRET_* variables, each checked; a bad one throws naming it. */
function siteSecretsOf(env: NodeJS.ProcessEnv): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('SECRET_') || value === undefined || value === '') continue;
    if (!SITE_SECRET_VARIABLE.test(name))
      throw new Error(`Invalid environment: ${name}: must be SECRET_{SITE}_{NAME} in capitals`);
    const parsed = siteSecretValue.safeParse(value);
    if (!parsed.success) throw new Error(`Invalid environment: ${name}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    secrets[name] = parsed.data;
  }
  return secrets;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const secretsFile = env.SECRETS_FILE ? readSecretsFile(env.SECRETS_FILE) : {};
  // The environment wins over the file, as a deployment tool's override should.
  const merged = { ...secretsFile, ...Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')) };
  return { ...parseEnvironment(envSchema, merged), siteSecrets: siteSecretsOf(merged) };
}

const backofficeClientSchema = z.object({
  /** The running server the back-office CLI talks to. */
  BACKOFFICE_URL: z
    .string()
    .regex(/^https?:\/\//, 'must be an http:// or https:// URL')
    .default('http://127.0.0.1:3000')
    .transform((url) => url.replace(/\/$/, '')),
  /** One operator's token from the server's BACKOFFICE_TOKENS. */
  BACKOFFICE_TOKEN: z.string({ error: 'set it to your operator token' }).min(24, 'must be an operator token (24+ characters)'),
});

/** The back-office CLI's settings (npm run backoffice): where the server is and who the operator is. */
export function loadBackofficeClientConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseEnvironment(backofficeClientSchema, env);
}

/** The live tables' phase lengths that the environment sets; the others keep the module's defaults. */
export function liveGamesPhases(config: AppConfig) {
  const phases = {
    bettingMs: config.LIVE_GAMES_BETTING_MS,
    spinMs: config.LIVE_GAMES_SPIN_MS,
    resultMs: config.LIVE_GAMES_RESULT_MS,
    leaseMs: config.LIVE_GAMES_LEASE_MS,
    idleAfterMs: config.LIVE_GAMES_IDLE_AFTER_MS,
  };
  return Object.fromEntries(Object.entries(phases).filter(([, value]) => value !== undefined)) as Partial<typeof phases>;
}

/** How far forwarded headers are believed: listed proxies, a number of hops, or (TRUST_PROXY=1) one hop. */
export function proxyTrust(config: AppConfig): ProxyTrust {
  const countryHeader = config.COUNTRY_HEADER;
  if (config.TRUSTED_PROXIES) return { mode: 'ranges', ranges: config.TRUSTED_PROXIES, countryHeader };
  if (config.PROXY_HOPS) return { mode: 'hops', hops: config.PROXY_HOPS, countryHeader };
  if (config.TRUST_PROXY) return { mode: 'hops', hops: 1, countryHeader };
  return { mode: 'none' };
}

/** The caps on live-event streams that the environment sets; the others keep the module's defaults. */
export function liveStreamLimits(config: AppConfig) {
  const limits = {
    perClient: config.LIVE_STREAMS_PER_CLIENT,
    total: config.LIVE_STREAMS_TOTAL,
    maxBufferBytes: config.LIVE_STREAM_BUFFER_BYTES,
  };
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) as Partial<typeof limits>;
}

const feedSimulatorSchema = z.object({
  FEED_HOST: z.string().min(1).default('127.0.0.1'),
  /** 0 picks a free port (the site that starts the simulator is told which). */
  FEED_PORT: z.coerce.number().int().min(0).max(65535).default(3100),
  /** The token consumers send; unset: the published demo token (the simulator is a demo provider). */
  FEED_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** How many times faster than real time matches play (600: a match in 9 seconds). */
  FEED_SPEED: z.coerce.number().positive().max(100_000).default(1),
  /** The seed of the schedule and every match: one seed replays the same days. */
  FEED_SEED: z.string().min(1).max(64).default('demo'),
  FEED_DAYS: z.coerce.number().int().min(1).max(14).default(3),
  /** Wall-clock heartbeat interval. */
  FEED_ALIVE_MS: z.coerce.number().int().min(50).max(60_000).default(5_000),
  /** Chance per heartbeat of a producer outage, and its length. */
  FEED_OUTAGE_RATE: z.coerce.number().min(0).max(1).default(0.002),
  FEED_OUTAGE_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** Chances per match of a late correction and of a settlement rollback; per message of a duplicate and a swap. */
  FEED_CORRECTION_RATE: z.coerce.number().min(0).max(1).default(0.1),
  FEED_ROLLBACK_RATE: z.coerce.number().min(0).max(1).default(0.05),
  FEED_DUPLICATE_RATE: z.coerce.number().min(0).max(1).default(0.02),
  FEED_SWAP_RATE: z.coerce.number().min(0).max(1).default(0.02),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type FeedSimulatorConfig = z.infer<typeof feedSimulatorSchema>;

const gameAggregatorSchema = z.object({
  AGGREGATOR_HOST: z.string().min(1).default('127.0.0.1'),
  /** 0 picks a free port (the site that starts the aggregator is told which). */
  AGGREGATOR_PORT: z.coerce.number().int().min(0).max(65535).default(3200),
  /** Where players reach it, when not http://{host}:{port}. */
  AGGREGATOR_PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL')
    .transform((url) => url.replace(/\/$/, ''))
    .optional(),
  /** Operators, `name:secret` pairs (the provider name their wallet knows us by); unset: the demo operator with its published key. */
  AGGREGATOR_OPERATORS: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*:[^,\s]{24,}(,[a-z0-9][a-z0-9-]*:[^,\s]{24,})*$/, 'must be name:secret pairs separated by commas')
    .optional(),
  /** Origins whose wallet a launch may name, separated by commas; unset: loopback addresses only (the demo). */
  AGGREGATOR_WALLET_ORIGINS: z.string().optional(),
  /** How long a wallet request may take before it is sent again (same transaction id). */
  AGGREGATOR_WALLET_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3_000),
  AGGREGATOR_WALLET_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(4),
  AGGREGATOR_RETRY_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(100),
  /** Share of bets and wins sent twice on purpose, to keep the operator's idempotency honest. */
  AGGREGATOR_DUPLICATE_RATE: z.coerce.number().min(0).max(1).default(0.02),
  /** A round without an action for this long has its bets rolled back. */
  AGGREGATOR_ROUND_TIMEOUT_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
  /** The live tables' betting and result phases for every table, instead of each table's own (15 s and 8 s). */
  AGGREGATOR_LIVE_BETTING_MS: z.coerce.number().int().min(1_000).max(600_000).optional(),
  AGGREGATOR_LIVE_RESULT_MS: z.coerce.number().int().min(500).max(600_000).optional(),
  /** How often pending wallet requests are sent again and open rounds checked. */
  AGGREGATOR_SWEEP_MS: z.coerce.number().int().min(20).max(600_000).default(5_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type GameAggregatorConfig = z.infer<typeof gameAggregatorSchema>;

/** The demo game aggregator process's settings (npm run game-aggregator). */
export function loadGameAggregatorConfig(env: NodeJS.ProcessEnv = process.env): GameAggregatorConfig {
  return parseEnvironment(gameAggregatorSchema, env);
}

/** Where the site's external titles are launched (docs/game-aggregator.md): a configured aggregator, the built-in one, or none. */
export function gameAggregatorSource(
  config: AppConfig,
  builtIn: { entry: string; execArgv?: string[] },
):
  | { kind: 'remote'; url: string; provider: string }
  | { kind: 'built-in'; entry: string; provider: string; execArgv?: string[] }
  | undefined {
  if (config.AGGREGATOR_URL) return { kind: 'remote', url: config.AGGREGATOR_URL, provider: config.AGGREGATOR_PROVIDER };
  if (config.GAME_AGGREGATOR === '1') return { kind: 'built-in', provider: config.AGGREGATOR_PROVIDER, ...builtIn };
  return undefined;
}

/** The feed simulator process's settings (npm run feed-simulator). */
export function loadFeedSimulatorConfig(env: NodeJS.ProcessEnv = process.env): FeedSimulatorConfig {
  return parseEnvironment(feedSimulatorSchema, env);
}

/** Where the site's odds feed comes from (issue 14): the configured provider, the built-in simulator, or none. */
export function sportsbookFeedSource(
  config: AppConfig,
  simulator: { entry: string; execArgv?: string[] },
):
  | { kind: 'provider'; url: string; token: string }
  | { kind: 'simulator'; entry: string; speed: number; execArgv?: string[] }
  | undefined {
  // loadConfig refuses FEED_URL without FEED_TOKEN.
  if (config.FEED_URL) return { kind: 'provider', url: config.FEED_URL, token: config.FEED_TOKEN ?? '' };
  if (config.FEED_SIMULATOR === '1') return { kind: 'simulator', speed: config.FEED_SPEED, ...simulator };
  return undefined;
}
