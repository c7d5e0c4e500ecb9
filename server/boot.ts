/**
 * What every process does before it serves: open the database, apply migrations, seed content,
 * and build the services. Shared by the production entry, the dev server and the tests.
 */
import pino, { type Logger } from 'pino';
import { openDatabase, type DatabaseHandle } from './db/client';
import { runMigrations, SCHEMA_LOCK_KEY } from './db/migrate';
import { invalidateCachesOnChange } from './db/cache-notifications';
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
  await runMigrations(database);
  await database.withAdvisoryLock(SCHEMA_LOCK_KEY, (db) => seedContent(db, options.contentDir));
  logger.info({ database: database.kind }, 'database ready');
  const services = createServices(database.db, {
    ...options.services,
    jobs: { listen: database.listen },
    isOnlyProcess: database.kind === 'pglite',
  });
  await listenForCacheChanges(database, services);
  return { database, services, logger };
}

/** An operator's edit of sites, content or a player's rows shows at once in this process (issue 12). */
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
