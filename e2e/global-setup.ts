/**
 * Starts the production build (npm run build) once for the e2e suite: its own PGlite data folder,
 * a free port on 127.0.0.1, short live-table phases, stopped when the suite ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../test/free-port';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    port: number;
    /** Bearer token of the back-office operator `e2e` on the test server. */
    backofficeToken: string;
  }
}

/**
 * Live-table phases shorter than the defaults (betting 8 s, spin 4 s, result 3 s), so the live
 * tests wait out fewer seconds. A betting window still leaves the tests' click sequences their
 * seconds: e2e/live-games.test.ts waits for a window with 4 or 5 seconds left.
 */
const LIVE_PHASES = { LIVE_GAMES_BETTING_MS: '6000', LIVE_GAMES_SPIN_MS: '2000', LIVE_GAMES_RESULT_MS: '3000' };
/**
 * The game aggregator's live tables (a child of the site, which passes its environment on) the
 * same way: betting 8 s instead of 15, the result 3 s instead of 8; e2e/aggregator-play.ts waits
 * for a betting window with more than 5 seconds left.
 */
const AGGREGATOR_LIVE_PHASES = { AGGREGATOR_LIVE_BETTING_MS: '8000', AGGREGATOR_LIVE_RESULT_MS: '3000' };
/**
 * The demo odds feed (a child of the site) without its random producer outages: one comes with a
 * chance of 0.2 % a heartbeat and suspends every market for 30 s, so over a whole suite run about
 * one in three shared sites had one, and a betting test that met it waited in vain for an open
 * price. Outages and their recovery are tested where they are made to happen (the sportsbook
 * feed, store and simulator tests); e2e/sportsbook-live.test.ts turns them off on its own site too.
 */
const FEED_WITHOUT_OUTAGES = { FEED_OUTAGE_RATE: '0' };

export async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not become healthy in time');
}

export default async function setup(project: TestProject) {
  if (!existsSync('build/server/main.js')) throw new Error('Run `npm run build` before the e2e suite');
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-db-'));
  const backofficeToken = randomBytes(24).toString('hex');
  const child = spawn(process.execPath, ['build/server/main.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      OUTBOX_PAGE: '1',
      TRUST_PROXY: '1',
      // The e2e client plays the load balancer: it sets X-Forwarded-For and the country header.
      COUNTRY_HEADER: 'x-country-code',
      BACKOFFICE_TOKENS: `e2e:${backofficeToken}`,
      ...LIVE_PHASES,
      ...AGGREGATOR_LIVE_PHASES,
      ...FEED_WITHOUT_OUTAGES,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl, child);
  project.provide('baseUrl', baseUrl);
  project.provide('port', port);
  project.provide('backofficeToken', backofficeToken);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
