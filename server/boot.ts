/**
 * What every process does before it serves: open the database, apply migrations, seed content,
 * and build the services. Shared by the production entry, the dev server and the tests.
 */
import { spawn } from 'node:child_process';
import pino, { type Logger } from 'pino';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from './db/client';
import { runMigrations, SCHEMA_LOCK_KEY } from './db/migrate';
import { changedPlayersOf, invalidateCachesOnChange } from './db/cache-notifications';
import { seedContent } from './modules/content';
import { startSportsbookFeed, type FeedSource, type RunningFeed } from './modules/sportsbook';
import { createServices, type ServiceOptions, type Services } from './services';
import { startAggregatorProcess } from './game-aggregator/process';
import type { gameAggregatorSource } from './config';

export interface BootOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** PGlite's shared_buffers (PGLITE_SHARED_BUFFERS). */
  pgliteSharedBuffers?: string;
  logLevel?: string;
  contentDir?: string;
  services?: ServiceOptions;
  /** The database was migrated and seeded by prepareInChildProcess: open it and serve. */
  isPrepared?: boolean;
}

export interface Booted {
  database: DatabaseHandle;
  services: Services;
  logger: Logger;
}

export async function boot(options: BootOptions): Promise<Booted> {
  const logger = pino({ level: options.logLevel ?? 'info' });
  const database = await openDatabase({
    url: options.databaseUrl,
    dataDir: options.dataDir,
    pgliteSharedBuffers: options.pgliteSharedBuffers,
  });
  if (!options.isPrepared) await prepareDatabase(database, options.contentDir);
  logger.info({ database: database.kind }, 'database ready');
  const services = createServices(database.db, {
    ...options.services,
    jobs: { listen: database.listen },
    isOnlyProcess: database.kind === 'pglite',
    // Listened for below, before anything is served.
    hearsBalanceChanges: true,
    notify: database.notify,
  });
  await listenForCacheChanges(database, services);
  return { database, services, logger };
}

/** Brings a database to this build's schema and content: the migrations, then the content seed. */
export async function prepareDatabase(database: DatabaseHandle, contentDir?: string): Promise<void> {
  await runMigrations(database);
  // The embedded database's one process forgets the balances it writes as it writes them: told
  // again by notification (migration 0031), it would only pay for it on every bet.
  if (database.kind === 'pglite') {
    await database.db.execute(sql`ALTER TABLE ledger_accounts DISABLE TRIGGER ledger_accounts_balance_change`);
  }
  await database.withAdvisoryLock(SCHEMA_LOCK_KEY, (db) => seedContent(db, contentDir));
}

/**
 * Runs `entry` (prepare-database.ts, built) as a process of its own with this process's
 * environment and DATA_DIR set to `dataDir`, and waits for it to end: the embedded database's
 * initdb, migrations and seed then allocate in that process, which gives everything back to the
 * system when it ends (issue 12: the site's process kept 20-40 MB of the boot's freed memory in
 * glibc's main heap, below live blocks it cannot return). Rejects when the process fails; its
 * output is the site's.
 */
export function prepareInChildProcess(entry: string, dataDir: string, execArgv: string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, DATA_DIR: dataDir };
    const child = spawn(process.execPath, [...execArgv, entry], { env, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`preparing the database failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

/** An operator's edit of sites, content or a player's rows, and any process's transfer, shows at once in this process (issue 12). */
export function listenForCacheChanges(database: DatabaseHandle, services: Services): Promise<void> {
  return invalidateCachesOnChange(database, {
    sites: () => services.sites.invalidate(),
    content_entries: () => services.content.invalidate(),
    // The rows a signed-in request reads about its player (migration 0022).
    sessions: () => services.playerRows.invalidate(),
    users: () => services.playerRows.invalidate(),
    contacts: () => services.playerRows.invalidate(),
    loyalty_accounts: () => services.playerRows.invalidate(),
    game_likes: () => services.playerRows.invalidate(),
    rg_exclusions: () => services.playerRows.invalidate(),
    // Whose balances moved, in this process or another (migration 0031).
    ledger_accounts: (changed) => services.forgetBalances(changedPlayersOf(changed)),
  });
}

/**
 * Connects the sportsbook's store to its odds feed (FEED_URL's provider or the built-in simulator
 * as a child process). A feed that does not start is logged, and the casino serves without it.
 */
export async function startOddsFeed(
  services: Services,
  source: FeedSource | undefined,
  logger: Logger,
): Promise<RunningFeed | undefined> {
  if (!source) return undefined;
  try {
    return await startSportsbookFeed({
      store: services.sportsbook.feed,
      source,
      onError: (error, what) => logger.warn({ err: error, what }, 'odds feed'),
    });
  } catch (error) {
    logger.error({ err: error }, 'odds feed not started');
    return undefined;
  }
}

export interface RunningAggregator {
  url: string;
  /** The built-in aggregator's process id; undefined for a configured one. */
  pid?: number;
  stop(): Promise<void>;
}

/**
 * Connects the site's game launches to their aggregator (docs/game-aggregator.md): AGGREGATOR_URL's,
 * or the built-in demo aggregator started as a child process that signs in as the configured
 * provider. An aggregator that does not start is logged, and its titles stay hidden.
 */
export async function startGameAggregator(
  services: Services,
  source: ReturnType<typeof gameAggregatorSource>,
  logger: Logger,
): Promise<RunningAggregator | undefined> {
  if (!source) return undefined;
  const provider = services.providerWallet.providerFor(source.provider);
  if (!provider) {
    logger.warn(
      { provider: source.provider },
      'game aggregator: its provider has no secret (PROVIDER_SECRETS); external titles hidden',
    );
    return undefined;
  }
  if (source.kind === 'remote') {
    services.gameLaunch.connect({ url: source.url, provider });
    return { url: source.url, stop: async () => undefined };
  }
  try {
    const child = await startAggregatorProcess({
      entry: source.entry,
      execArgv: source.execArgv,
      env: { AGGREGATOR_OPERATORS: `${provider.name}:${provider.secret}`, LOG_LEVEL: logger.level },
    });
    services.gameLaunch.connect({ url: child.url, provider });
    return child;
  } catch (error) {
    logger.error({ err: error }, 'game aggregator not started; external titles hidden');
    return undefined;
  }
}
