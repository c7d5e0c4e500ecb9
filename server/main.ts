/** Production entry: `npm start` builds, then runs this (bundled to build/server/main.js). */
import './start-tuned';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { gameAggregatorSource, liveGamesPhases, liveStreamLimits, loadConfig, proxyTrust, sportsbookFeedSource } from './config';
import { boot, prepareInChildProcess, startGameAggregator, startOddsFeed } from './boot';
import { apiOptionsOf, createHttpApp, type HttpAppOptions } from './http';
import { serveSite } from './web/api-lane';
import { createMetrics, startPrivateMetricsListener } from './web/metrics';
import { projectRoot } from './project-root';
import { serveBuiltAssets } from './web/static-assets';
import { parseOperatorTokens } from './web/backoffice';
import { DEMO_PROVIDER, providerConfigs } from './modules/provider-wallet';
import { createJobHandlers } from './job-handlers';
import { startSchedules } from './schedules';
import { startLiveScheduler } from './modules/live-games';
import { checkDemoTrustAtStart } from './demo-trust-check';

const config = loadConfig();
const root = projectRoot();
// External titles: AGGREGATOR_URL's aggregator, or the built-in demo aggregator beside the site.
const aggregatorSource = gameAggregatorSource(config, { entry: join(root, 'build', 'game-aggregator', 'main.js') });
const dataDir = resolve(root, config.DATA_DIR);
// The embedded database is prepared by a process of its own, whose boot memory ends with it (boot.ts).
const isPrepared = !config.DATABASE_URL;
if (isPrepared) await prepareInChildProcess(join(root, 'build', 'server', 'prepare-database.js'), dataDir);
const { database, services, logger } = await boot({
  databaseUrl: config.DATABASE_URL,
  dataDir,
  isPrepared,
  pgliteSharedBuffers: config.PGLITE_SHARED_BUFFERS,
  logLevel: config.LOG_LEVEL,
  services: {
    messaging: { smtpUrl: config.SMTP_URL, mailFrom: config.MAIL_FROM },
    providers: providerConfigs({
      secrets: config.PROVIDER_SECRETS,
      currencies: config.PROVIDER_CURRENCIES,
      // The built-in demo aggregator calls the wallet as the demo provider (demo sites only).
      isDemoEnabled:
        config.DEMO_GAME_PROVIDER === '1' ||
        (config.DEMO_GAME_PROVIDER !== '0' &&
          aggregatorSource?.kind === 'built-in' &&
          aggregatorSource.provider === DEMO_PROVIDER.name),
    }),
    openRoundTimeoutMs: config.OPEN_ROUND_TIMEOUT_MS,
    liveGames: { config: liveGamesPhases(config) },
    siteSecrets: config.siteSecrets,
    sportsbook: { livenessTimeoutMs: config.FEED_LIVENESS_TIMEOUT_MS, inPlayDelayMs: config.SPORTSBOOK_IN_PLAY_DELAY_MS },
  },
});
await checkDemoTrustAtStart(services, config, {
  warn: (problem) => logger.warn({ problem }, 'demo trust'),
  closeDatabase: () => database.close(),
});
const build = (await import(pathToFileURL(join(root, 'build', 'server', 'index.js')).href)) as ServerBuild;

const metrics = createMetrics();
const proxy = proxyTrust(config);
const appOptions: HttpAppOptions = {
  services,
  logger,
  mode: 'production',
  maxBodyBytes: config.MAX_BODY_BYTES,
  proxy,
  metricsToken: config.METRICS_TOKEN,
  metrics,
  liveStreams: liveStreamLimits(config),
  isOutboxPageEnabled: config.OUTBOX_PAGE ? config.OUTBOX_PAGE === '1' : false,
  backofficeTokens: parseOperatorTokens(config.BACKOFFICE_TOKENS),
  buildVersion: build.assets.version,
  getBuild: async () => build,
  serveAssets: serveBuiltAssets(join(root, 'build', 'client')),
};
const app = createHttpApp(appOptions);

const stopMetricsListener = startPrivateMetricsListener(
  metrics,
  { port: config.METRICS_PORT, host: config.METRICS_HOST },
  logger,
);
const stopSchedules = startSchedules(services, logger);
// The odds feed: FEED_URL's provider, or the built-in simulator as a child process beside the site.
const feedSource = sportsbookFeedSource(config, { entry: join(root, 'build', 'feed-simulator', 'main.js') });
const feed = await startOddsFeed(services, feedSource, logger);
if (feed) logger.info({ feed: feed.url, simulatorPid: feed.simulatorPid }, 'odds feed connected');
const aggregator = await startGameAggregator(services, aggregatorSource, logger);
if (aggregator) logger.info({ aggregator: aggregator.url, aggregatorPid: aggregator.pid }, 'game aggregator connected');
const liveScheduler = startLiveScheduler(services.liveGames, logger);
const stopJobs = services.jobs.startWorker(
  createJobHandlers(services, (request) => app.fetch(request)),
  { intervalMs: config.JOBS_POLL_INTERVAL_MS, logger },
);

// API calls take their own lane to the dispatcher (web/api-lane.ts); the rest go to the app.
const server = serveSite(app, { ...apiOptionsOf(appOptions), metrics }, { port: config.PORT, hostname: config.HOST }, (info) => {
  logger.info({ url: `http://${config.HOST}:${info.port}`, database: database.kind }, 'site is up');
});

async function shutdown(signal: string) {
  logger.info({ signal }, 'shutting down');
  server.close();
  stopMetricsListener();
  stopSchedules();
  await liveScheduler.stop();
  await feed?.stop();
  await aggregator?.stop();
  await stopJobs();
  // Other processes hear of the balances this one's last rounds wrote before its database goes.
  await services.balanceChanges?.close();
  await database.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
