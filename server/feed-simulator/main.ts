/**
 * The odds feed simulator as its own process (issue 14: the feed is separate in real life, so it
 * speaks HTTP to the site even in the demo): `npm run feed-simulator`, or started by the site when
 * FEED_URL is unset. Started by another process through fork(), it reports its URL over the IPC
 * channel and exits when that parent goes away, so no simulator outlives its site.
 */
import { serve } from '@hono/node-server';
import pino from 'pino';
import { loadFeedSimulatorConfig } from '../config';
import { DEMO_FEED_TOKEN, createFeedProvider, createFeedSimulatorApp } from '../modules/sportsbook';

/** How often due messages are sent (wall clock): at 600× a match minute is 100 ms. */
const TICK_MS = 100;
const PRODUCER = 'sim';
const MARGIN_BP = 600;

const config = loadFeedSimulatorConfig();
const logger = pino({ level: config.LOG_LEVEL });
const provider = createFeedProvider({
  seed: config.FEED_SEED,
  producer: PRODUCER,
  speed: config.FEED_SPEED,
  days: config.FEED_DAYS,
  marginBp: MARGIN_BP,
  disorder: { duplicateRate: config.FEED_DUPLICATE_RATE, swapRate: config.FEED_SWAP_RATE },
  correctionRate: config.FEED_CORRECTION_RATE,
  rollbackRate: config.FEED_ROLLBACK_RATE,
  outageRate: config.FEED_OUTAGE_RATE,
  outageMs: config.FEED_OUTAGE_MS,
});
const ticker = setInterval(() => provider.tick(), TICK_MS);
const heartbeat = setInterval(() => provider.heartbeat(), config.FEED_ALIVE_MS);

const server = serve(
  {
    fetch: createFeedSimulatorApp(provider, config.FEED_TOKEN ?? DEMO_FEED_TOKEN).fetch,
    port: config.FEED_PORT,
    hostname: config.FEED_HOST,
  },
  (info) => {
    const url = `http://${config.FEED_HOST}:${info.port}`;
    logger.info({ url, speed: config.FEED_SPEED, fixtures: provider.fixtures().length }, 'feed simulator is up');
    process.send?.({ type: 'listening', url });
  },
);

function shutdown(signal: string) {
  logger.info({ signal }, 'feed simulator stopping');
  clearInterval(ticker);
  clearInterval(heartbeat);
  server.close();
  process.exit(0);
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('disconnect', () => shutdown('parent gone'));
