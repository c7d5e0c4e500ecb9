/** `npm run dev`: Vite serves the app with hot reload; tsx restarts this process on server edits. */
import { createServer as createHttpServer } from 'node:http';
import { join, resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createServer as createViteServer } from 'vite';
import type { ServerBuild } from 'react-router';
import { gameAggregatorSource, liveGamesPhases, liveStreamLimits, loadConfig, proxyTrust, sportsbookFeedSource } from './config';
import { boot, startGameAggregator, startOddsFeed } from './boot';
import { createHttpApp } from './http';
import { createMetrics, startPrivateMetricsListener } from './web/metrics';
import { projectRoot } from './project-root';
import { withForwardedOrigin } from './web/forwarded';
import { isFromTrustedProxy, peerAddress } from './web/client-address';
import { createJobHandlers } from './job-handlers';
import { startSchedules } from './schedules';
import { startLiveScheduler } from './modules/live-games';
import { checkDemoTrustAtStart } from './demo-trust-check';
import { parseOperatorTokens } from './web/backoffice';
import { providerConfigs } from './modules/provider-wallet';

const config = loadConfig();
const root = projectRoot();
const { database, services, logger } = await boot({
  databaseUrl: config.DATABASE_URL,
  dataDir: resolve(root, config.DATA_DIR),
  pgliteSharedBuffers: config.PGLITE_SHARED_BUFFERS,
  logLevel: config.LOG_LEVEL,
  services: {
    messaging: { smtpUrl: config.SMTP_URL, mailFrom: config.MAIL_FROM },
    providers: providerConfigs({
      secrets: config.PROVIDER_SECRETS,
      currencies: config.PROVIDER_CURRENCIES,
      isDemoEnabled: config.DEMO_GAME_PROVIDER !== '0',
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
const vite = await createViteServer({ root, server: { middlewareMode: true }, appType: 'custom' });

const metrics = createMetrics();
const proxy = proxyTrust(config);
const app = createHttpApp({
  services,
  logger,
  mode: 'development',
  maxBodyBytes: config.MAX_BODY_BYTES,
  proxy,
  metricsToken: config.METRICS_TOKEN,
  metrics,
  liveStreams: liveStreamLimits(config),
  isOutboxPageEnabled: config.OUTBOX_PAGE ? config.OUTBOX_PAGE === '1' : true,
  backofficeTokens: parseOperatorTokens(config.BACKOFFICE_TOKENS),
  buildVersion: `dev-${Date.now()}`,
  getBuild: () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>,
});
const stopMetricsListener = startPrivateMetricsListener(
  metrics,
  { port: config.METRICS_PORT, host: config.METRICS_HOST },
  logger,
);
const stopSchedules = startSchedules(services, logger);
const liveScheduler = startLiveScheduler(services.liveGames, logger);
const stopJobs = services.jobs.startWorker(
  createJobHandlers(services, (request) => app.fetch(request)),
  { intervalMs: config.JOBS_POLL_INTERVAL_MS, logger },
);
// The odds feed: FEED_URL's provider, or the simulator's source run by tsx as a child process.
const feedSource = sportsbookFeedSource(config, {
  entry: join(root, 'server', 'feed-simulator', 'main.ts'),
  execArgv: ['--import', 'tsx'],
});
const feed = await startOddsFeed(services, feedSource, logger);
// External titles: AGGREGATOR_URL's aggregator, or the demo aggregator's source run by tsx as a child process.
const aggregator = await startGameAggregator(
  services,
  gameAggregatorSource(config, { entry: join(root, 'server', 'game-aggregator', 'main.ts'), execArgv: ['--import', 'tsx'] }),
  logger,
);
// tsx restarts this process on every server edit: let the current job round finish and the database close first.
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    stopSchedules();
    stopMetricsListener();
    void Promise.all([stopJobs(), liveScheduler.stop(), feed?.stop(), aggregator?.stop()])
      .then(() => database.close())
      .finally(() => process.exit(0));
  });
const listener = getRequestListener((request, env) =>
  app.fetch(withForwardedOrigin(request, isFromTrustedProxy(proxy, peerAddress(env))), env),
);

createHttpServer((req, res) => vite.middlewares(req, res, () => void listener(req, res))).listen(config.PORT, config.HOST, () => {
  logger.info({ url: `http://${config.HOST}:${config.PORT}` }, 'dev site is up');
});
