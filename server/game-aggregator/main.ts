/**
 * The demo game aggregator as its own process (issue 15): `npm run game-aggregator`, or started
 * by the site when AGGREGATOR_URL is unset. It hosts the Red Fox, Northlight and LiveWave titles
 * and knows nothing of the site's database: the site launches games over HTTP and the aggregator
 * moves money only through the operator's seamless wallet. Started by another process through
 * fork(), it reports its URL over the IPC channel and exits when that parent goes away.
 */
import { serve } from '@hono/node-server';
import pino from 'pino';
import { loadGameAggregatorConfig } from '../config';
import { createAggregatorApp, type Operator } from './app';
import { loadClientAssets } from './client-assets';
import { cryptoRng } from './rng';
import { createSessionStore } from './sessions';
import { hostedTitleIds, LIVE_TABLES, PLAYER_TITLES } from './titles';
import { ABANDONED_ROUND_ACTIONS } from './tables';
import { createLiveRooms } from './tables/live-rooms';
import { DEMO_PROVIDER } from './wallet-protocol';
import { walletUrlRule } from './wallet-origins';

const config = loadGameAggregatorConfig();
const logger = pino({ level: config.LOG_LEVEL });

function operatorsOf(value: string | undefined): Operator[] {
  if (!value) return [{ name: DEMO_PROVIDER.name, secret: DEMO_PROVIDER.secret }];
  return value.split(',').map((pair) => {
    const at = pair.indexOf(':');
    return { name: pair.slice(0, at), secret: pair.slice(at + 1) };
  });
}

const store = createSessionStore({
  titles: PLAYER_TITLES,
  rng: cryptoRng,
  roundTimeoutMs: config.AGGREGATOR_ROUND_TIMEOUT_MS,
  sessionIdleMs: 4 * 60 * 60 * 1000,
  logger,
  abandonedRoundActions: ABANDONED_ROUND_ACTIONS,
});
const live = createLiveRooms({
  tables: LIVE_TABLES,
  rng: cryptoRng,
  logger,
  phases: { bettingMs: config.AGGREGATOR_LIVE_BETTING_MS, resultMs: config.AGGREGATOR_LIVE_RESULT_MS },
});
// The live tables' rounds move on by the clock, watched or not.
const liveClock = setInterval(() => live.tick(), 250);
let publicUrl = config.AGGREGATOR_PUBLIC_URL ?? '';
const app = createAggregatorApp({
  operators: operatorsOf(config.AGGREGATOR_OPERATORS),
  store,
  titles: PLAYER_TITLES,
  hostedTitles: hostedTitleIds(),
  publicUrl: () => publicUrl,
  isWalletUrlAllowed: walletUrlRule(config.AGGREGATOR_WALLET_ORIGINS),
  wallet: {
    timeoutMs: config.AGGREGATOR_WALLET_TIMEOUT_MS,
    attempts: config.AGGREGATOR_WALLET_ATTEMPTS,
    duplicateRate: config.AGGREGATOR_DUPLICATE_RATE,
    retryDelayMs: config.AGGREGATOR_RETRY_DELAY_MS,
  },
  client: await loadClientAssets(),
  logger,
  live,
});

let isSweeping = false;
const sweeper = setInterval(() => {
  if (isSweeping) return;
  isSweeping = true;
  Promise.all([store.sweep(), live.retryPending()])
    .catch((error: unknown) => logger.warn({ err: error }, 'aggregator sweep failed'))
    .finally(() => {
      isSweeping = false;
    });
}, config.AGGREGATOR_SWEEP_MS);

const server = serve({ fetch: app.fetch, port: config.AGGREGATOR_PORT, hostname: config.AGGREGATOR_HOST }, (info) => {
  const url = `http://${config.AGGREGATOR_HOST}:${info.port}`;
  publicUrl ||= url;
  logger.info({ url, publicUrl, titles: hostedTitleIds().length }, 'game aggregator is up');
  process.send?.({ type: 'listening', url: publicUrl });
});

function shutdown(signal: string) {
  logger.info({ signal }, 'game aggregator stopping');
  clearInterval(sweeper);
  clearInterval(liveClock);
  server.close();
  process.exit(0);
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('disconnect', () => shutdown('parent gone'));
