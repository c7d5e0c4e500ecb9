/**
 * What the rounds-over-HTTP benches share (bench/rounds.ts, bench/bonus-rounds.ts): a scratch
 * database (PGlite data folder or PostgreSQL database, removed afterwards), the site and players
 * with a session and a deposit written in this process, the statements one round costs through
 * the whole HTTP stack in process (the database handle's counter), the production build started
 * on 127.0.0.1, and players playing one round at a time over HTTP with their latency figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { API_VERSION } from '../common/api-contract';
import { openDatabase, type DatabaseHandle } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { createHttpApp } from '../server/http';
import { NO_PROXY } from '../server/web/client-address';
import { seedContent } from '../server/modules/content';
import { house, move, player } from '../server/modules/wallet';
import { sessions, users } from '../server/db/schema';
import { createServices } from '../server/services';
import { freePort } from '../test/free-port';
import { adminQuery, percentile, withDatabaseName } from './database-bench';
import { KeepAliveClient } from './keep-alive-client';
import { waitUntilSettled } from './process-cpu';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const RESULTS_DIR = join(ROOT, 'bench', 'results');
export const HOST = '127.0.0.1';
const MAIN = join(ROOT, 'build', 'server', 'main.js');
const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/test';
const BETS = [
  { sysname: 'dice-roll', bet: JSON.stringify({ stake: '1.00', direction: 'under', target: '50.00' }) },
  { sysname: 'aurora-fortune', bet: JSON.stringify({ stake: '1.00' }) },
];
const COUNTED_ROUNDS = 40;
/**
 * Unmeasured play before a bench measures: a cold server opens its pool's connections and plans
 * each connection's statements in its first second (on PostgreSQL a pause of more than a second).
 */
export const WARM_UP_SECONDS = 2;

export type DatabaseKind = 'pglite' | 'postgres';
export type Services = ReturnType<typeof createServices>;
export type Site = Awaited<ReturnType<Services['sites']['resolveSite']>>;

export interface Player {
  uid: number;
  cookie: string;
}

export interface PlayStats {
  players: number;
  seconds: number;
  rounds: number;
  roundsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** The longest time any one player waited between two of its answers. */
  maxStallMs: number;
  /**
   * The longest time in which no player got an answer: close to maxStallMs when the whole server
   * paused (a job, a checkpoint), far below it when one player waited while others played.
   */
  maxPauseMs: number;
  errors: number;
  errorSamples: string[];
}

export const round2 = (value: number) => Math.round(value * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** What the auth module stores of a session token (auth/service.ts hashToken): sign-in itself is not what is measured. */
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The server holding the scratch databases: BENCH_DATABASE_URL, else DATABASE_URL, else the local one. */
export const benchServerUrl = (): string => process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_SERVER_URL;

export interface ScratchDatabase {
  open(): Promise<DatabaseHandle>;
  /** The environment that points build/server/main.js at it. */
  serverEnv: Record<string, string>;
}

/**
 * Runs `use` on a database of its own: a PGlite data folder in a temporary directory, or a
 * PostgreSQL database `{prefix}_<random>` on benchServerUrl(); removed afterwards either way.
 */
export async function withScratchDatabase<T>(
  kind: DatabaseKind,
  prefix: string,
  use: (database: ScratchDatabase) => Promise<T>,
): Promise<T> {
  const serverUrl = benchServerUrl();
  const scratch = `${prefix.replaceAll('-', '_')}_${randomBytes(4).toString('hex')}`;
  const dataDir = kind === 'pglite' ? mkdtempSync(join(tmpdir(), `${prefix}-`)) : undefined;
  if (kind === 'postgres') await adminQuery(serverUrl, `CREATE DATABASE ${scratch}`);
  const url = kind === 'postgres' ? withDatabaseName(serverUrl, scratch) : undefined;
  try {
    return await use({
      open: () => openDatabase(url ? { url } : { dataDir }),
      serverEnv: url ? { DATABASE_URL: url } : { DATA_DIR: dataDir ?? '' },
    });
  } finally {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
  }
}

/** Migrations and the seeded content; the services and the site on 127.0.0.1. */
export async function seededSite(handle: DatabaseHandle): Promise<{ services: Services; site: Site }> {
  await runMigrations(handle);
  await seedContent(handle.db);
  // As boot makes them: other processes are told of shared rounds on the handle's own connection.
  const services = createServices(handle.db, { notify: handle.notify });
  return { services, site: await services.sites.resolveSite(HOST) };
}

/** Players of the site with a session each and, unless it is 0, a deposit of `depositMinor` on their main account. */
export async function createPlayers(
  handle: DatabaseHandle,
  { services, site }: { services: Services; site: Site },
  options: { count: number; prefix: string; depositMinor: bigint },
): Promise<Player[]> {
  const runId = randomBytes(3).toString('hex');
  const rows = await handle.db
    .insert(users)
    .values(
      Array.from({ length: options.count }, (_, i) => ({
        siteId: site.id,
        login: `${options.prefix}-${runId}-${i}@example.com`,
        currency: site.defaultCurrency,
        locale: 'en',
      })),
    )
    .returning({ id: users.id });
  const players: Player[] = [];
  for (const { id } of rows) {
    if (options.depositMinor > 0n)
      await services.wallet.transfer({
        siteId: site.id,
        userId: id,
        kind: 'deposit',
        currency: site.defaultCurrency,
        amountMinor: options.depositMinor,
        legs: move(house('psp_clearing'), player(id, 'main'), options.depositMinor),
        idempotencyKey: `${options.prefix}-${runId}-${id}`,
        actor: 'psp:bench',
        reason: 'bench deposit',
      });
    const token = randomBytes(32).toString('base64url');
    await handle.db
      .insert(sessions)
      .values({ tokenHash: tokenHash(token), userId: id, expiresAt: new Date(Date.now() + 86_400_000) });
    // A browser that signed in holds its visitor cookie too; without it every request would be issued a new one.
    players.push({ uid: id, cookie: `sid=${token}; vid=${randomBytes(16).toString('base64url')}` });
  }
  return players;
}

/**
 * The statements one round of `who` costs through the whole HTTP stack in process. Two rounds
 * first open the player's seed and house account; the counted ones are the steady state.
 */
export async function statementsPerRound(handle: DatabaseHandle, services: Services, who: Player): Promise<number> {
  const app = createHttpApp({
    services,
    logger: pino({ level: 'silent' }),
    mode: 'test',
    maxBodyBytes: 64 * 1024,
    proxy: NO_PROXY,
    buildVersion: 'bench',
  });
  const playInProcess = (n: number) =>
    app.request(`http://${HOST}/api/games.play?v=${API_VERSION}&locale=en`, {
      method: 'POST',
      ...playRequest(who, n, `http://${HOST}`),
    });
  for (let n = 0; n < 2; n++) await (await playInProcess(n)).text();
  const before = handle.statements();
  for (let n = 2; n < 2 + COUNTED_ROUNDS; n++) {
    const answer = await playInProcess(n);
    if (!answer.ok) throw new Error(`a counted round failed: ${answer.status} ${await answer.text()}`);
  }
  return round2((handle.statements() - before) / COUNTED_ROUNDS);
}

/** games.play in real mode, alternating dice-roll and aurora-fortune at a stake of 1.00. */
function playRequest(who: Player, n: number, origin: string): { headers: Record<string, string>; body: string } {
  const bet = BETS[n % BETS.length] ?? BETS[0]!;
  return {
    headers: { cookie: who.cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      sysname: bet.sysname,
      mode: 'real',
      bet: bet.bet,
      request_id: `r-${who.uid}-${n}-${randomBytes(4).toString('hex')}`,
    }).toString(),
  };
}

export async function startServer(env: Record<string, string>): Promise<{ base: string; child: ChildProcess; output: string[] }> {
  if (!existsSync(MAIN)) throw new Error('build/server/main.js is missing: run `npm run build` first');
  const port = await freePort();
  const output: string[] = [];
  // BENCH_SERVER_NODE_ARGS: flags for the server process only, e.g. --cpu-prof --cpu-prof-dir=/tmp/prof.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', HOST, PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => output.push(chunk.toString());
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const base = `http://${HOST}:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok) {
        // Measured from a settled server: its start-up (the feed's snapshot, its children) is not the rounds' work.
        if (child.pid !== undefined) await waitUntilSettled(child.pid);
        return { base, child, output };
      }
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start:\n${output.join('').slice(-2000)}`);
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
}

/** Every player plays one round at a time for the run's seconds. */
export async function playRounds(base: string, players: Player[], seconds: number): Promise<PlayStats> {
  const latencies: number[] = [];
  const errorSamples = new Map<string, number>();
  let errors = 0;
  let maxStallMs = 0;
  let maxPauseMs = 0;
  const started = performance.now();
  let lastAnswer = started;
  const deadline = started + seconds * 1000;
  const { hostname: host, port } = new URL(base);
  await Promise.all(
    players.map(async (who) => {
      // Each player its own kept-alive connection and a lean client (keep-alive-client.ts): on two
      // cores the players' CPU is taken from the server and the database being measured.
      const connection = new KeepAliveClient(host, Number(port));
      let last = performance.now();
      for (let n = 0; performance.now() < deadline; n++) {
        const at = performance.now();
        try {
          const request = playRequest(who, n, base);
          const answer = await connection.post(`/api/games.play?v=${API_VERSION}&locale=en`, request.headers, request.body);
          const body = JSON.parse(answer.text) as { data?: unknown; error?: { type: string; message: string } };
          if (answer.status !== 200 || !body.data)
            throw new Error(`${answer.status} ${body.error?.type ?? ''} ${body.error?.message ?? ''}`);
          latencies.push(performance.now() - at);
        } catch (error) {
          errors++;
          const key = (error as Error).message.slice(0, 160);
          errorSamples.set(key, (errorSamples.get(key) ?? 0) + 1);
        }
        const now = performance.now();
        maxStallMs = Math.max(maxStallMs, now - last);
        maxPauseMs = Math.max(maxPauseMs, now - lastAnswer);
        last = now;
        lastAnswer = now;
      }
      connection.close();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    players: players.length,
    seconds: round2(elapsed),
    rounds: latencies.length,
    roundsPerSecond: round2(latencies.length / elapsed),
    latencyMs: { p50: round2(percentile(sorted, 0.5)), p99: round2(percentile(sorted, 0.99)), max: round2(sorted.at(-1) ?? 0) },
    maxStallMs: round2(maxStallMs),
    maxPauseMs: round2(maxPauseMs),
    errors,
    errorSamples: [...errorSamples].map(([message, n]) => `${n} × ${message}`).slice(0, 5),
  };
}

/** A positive integer command-line value, or an error naming the option. */
export function positiveInteger(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer, not ${text}`);
  return value;
}

/** The --only option: one database, or both when absent. */
export function databaseChoice(only: string | undefined): 'pglite' | 'postgres' | undefined {
  if (only !== undefined && only !== 'pglite' && only !== 'postgres')
    throw new Error(`--only must be pglite or postgres, not ${only}`);
  return only;
}
