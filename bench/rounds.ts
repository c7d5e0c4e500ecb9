/**
 * Real-money single-request rounds (dice and a slot) over HTTP against the production build
 * (issue 12: "≥ 1,000 rounds/s on PGlite; on PostgreSQL ≥ 0.5 × pgbench TPC-B tps on the same
 * server in the same run"; architecture §7: speed lives in bench/, never in a timed test).
 *
 *   npm run build && npm run bench:rounds                    10 and 50 players, 8 s each, both databases
 *   npm run bench:rounds -- --seconds 5 --players 10 --only pglite
 *   BENCH_DATABASE_URL=postgres://user@host/db npm run bench:rounds
 *
 * For each database it prepares the data (migrations, seed, `max(--players)` players, each with a
 * deposit and a session) in this process, counts the statements one round costs through the
 * whole HTTP stack in process (the database handle's counter), then starts build/server/main.js
 * on it (PGlite: a data folder in a temporary directory; PostgreSQL: a scratch database
 * bench_rounds_<random> on BENCH_DATABASE_URL, else DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/test, dropped afterwards) on 127.0.0.1. For each player
 * count every player plays one round at a time for --seconds (games.play, mode real, alternating
 * dice-roll and aurora-fortune). On PostgreSQL pgbench TPC-B (-i -s --scale in another scratch
 * database, then -c players -j 2 -T seconds) runs on the same server right after. It prints
 * rounds/s, p50/p99 latency, the longest stall of any player (the longest gap between two of
 * its answers) and the longest pause of the whole server (no answer to anyone), statements per round and the ratios, and writes bench/results/rounds.json.
 * Afterwards the ledger check runs on the database. Exit status 1 when a round failed or the
 * ledger is not sound.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { API_VERSION } from '../common/api-contract';
import { openDatabase, type DatabaseHandle } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { createHttpApp } from '../server/http';
import { NO_PROXY } from '../server/web/client-address';
import { seedContent } from '../server/modules/content';
import { checkLedger, house, move, player } from '../server/modules/wallet';
import { sessions, users } from '../server/db/schema';
import { createServices } from '../server/services';
import { freePort } from '../test/free-port';
import { adminQuery, percentile, pgbenchTpcB, withDatabaseName } from './database-bench';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(ROOT, 'build', 'server', 'main.js');
const RESULTS_DIR = join(ROOT, 'bench', 'results');
const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/test';
const DEPOSIT_MINOR = 1_000_000_000n;
const GOAL_PGLITE_ROUNDS_PER_SECOND = 1_000;
const GOAL_POSTGRES_RATIO = 0.5;
const HOST = '127.0.0.1';
const BETS = [
  { sysname: 'dice-roll', bet: JSON.stringify({ stake: '1.00', direction: 'under', target: '50.00' }) },
  { sysname: 'aurora-fortune', bet: JSON.stringify({ stake: '1.00' }) },
];
const COUNTED_ROUNDS = 40;

const USAGE = `npm run bench:rounds -- [--seconds 8] [--players 10,50] [--only pglite|postgres] [--scale 10]`;

interface Options {
  seconds: number;
  players: number[];
  only?: 'pglite' | 'postgres';
  scale: number;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '8' },
      players: { type: 'string', default: '10,50' },
      only: { type: 'string' },
      scale: { type: 'string', default: '10' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const positive = (name: string, text: string) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer, not ${text}`);
    return value;
  };
  if (values.only !== undefined && values.only !== 'pglite' && values.only !== 'postgres')
    throw new Error(`--only must be pglite or postgres, not ${values.only}`);
  return {
    seconds: positive('seconds', values.seconds),
    players: values.players.split(',').map((item) => positive('players', item)),
    only: values.only,
    scale: positive('scale', values.scale),
  };
}

interface Player {
  uid: number;
  cookie: string;
}

interface RunResult {
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
  pgbenchTps?: number;
  ratioToPgbench?: number;
  goal: string;
  isGoalMet: boolean;
}

interface DatabaseResult {
  database: 'pglite' | 'postgres';
  statementsPerRound: number;
  runs: RunResult[];
  ledgerSound: boolean;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** What the auth module stores of a session token (auth/service.ts hashToken): sign-in itself is not what is measured. */
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Migrations, seed, players with a deposit and a session; then the statements of a round through the whole HTTP stack. */
async function prepare(handle: DatabaseHandle, count: number): Promise<{ players: Player[]; statementsPerRound: number }> {
  await runMigrations(handle);
  await seedContent(handle.db);
  const services = createServices(handle.db);
  const site = await services.sites.resolveSite(HOST);
  const runId = randomBytes(3).toString('hex');
  const rows = await handle.db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => ({
        siteId: site.id,
        login: `bench-rounds-${runId}-${i}@example.com`,
        currency: site.defaultCurrency,
        locale: 'en',
      })),
    )
    .returning({ id: users.id });
  const players: Player[] = [];
  for (const { id } of rows) {
    await services.wallet.transfer({
      siteId: site.id,
      userId: id,
      kind: 'deposit',
      currency: site.defaultCurrency,
      amountMinor: DEPOSIT_MINOR,
      legs: move(house('psp_clearing'), player(id, 'main'), DEPOSIT_MINOR),
      idempotencyKey: `bench-rounds-${runId}-${id}`,
      actor: 'psp:bench',
      reason: 'bench deposit',
    });
    const token = randomBytes(32).toString('base64url');
    await handle.db
      .insert(sessions)
      .values({ tokenHash: tokenHash(token), userId: id, expiresAt: new Date(Date.now() + 86_400_000) });
    players.push({ uid: id, cookie: `sid=${token}` });
  }
  const app = createHttpApp({
    services,
    logger: pino({ level: 'silent' }),
    mode: 'test',
    maxBodyBytes: 64 * 1024,
    proxy: NO_PROXY,
    buildVersion: 'bench',
  });
  const first = players[0];
  if (!first) throw new Error('no players');
  const playInProcess = (n: number) =>
    app.request(`http://${HOST}/api/games.play?v=${API_VERSION}&locale=en`, playRequest(first, n, `http://${HOST}`));
  // Two rounds open the player's seed and house account; the counted ones are the steady state.
  for (let n = 0; n < 2; n++) await (await playInProcess(n)).text();
  const before = handle.statements();
  for (let n = 2; n < 2 + COUNTED_ROUNDS; n++) {
    const answer = await playInProcess(n);
    if (!answer.ok) throw new Error(`a counted round failed: ${answer.status} ${await answer.text()}`);
  }
  return { players, statementsPerRound: round2((handle.statements() - before) / COUNTED_ROUNDS) };
}

function playRequest(who: Player, n: number, origin: string): RequestInit {
  const bet = BETS[n % BETS.length] ?? BETS[0]!;
  return {
    method: 'POST',
    headers: { cookie: who.cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      sysname: bet.sysname,
      mode: 'real',
      bet: bet.bet,
      request_id: `r-${who.uid}-${n}-${randomBytes(4).toString('hex')}`,
    }),
  };
}

async function startServer(env: Record<string, string>): Promise<{ base: string; child: ChildProcess; output: string[] }> {
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
      if ((await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok) return { base, child, output };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start:\n${output.join('').slice(-2000)}`);
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
}

/** Every player plays one round at a time for the run's seconds. */
async function playRounds(base: string, players: Player[], seconds: number): Promise<Omit<RunResult, 'goal' | 'isGoalMet'>> {
  const latencies: number[] = [];
  const errorSamples = new Map<string, number>();
  let errors = 0;
  let maxStallMs = 0;
  let maxPauseMs = 0;
  const started = performance.now();
  let lastAnswer = started;
  const deadline = started + seconds * 1000;
  await Promise.all(
    players.map(async (who) => {
      let last = performance.now();
      for (let n = 0; performance.now() < deadline; n++) {
        const at = performance.now();
        try {
          const answer = await fetch(`${base}/api/games.play?v=${API_VERSION}&locale=en`, playRequest(who, n, base));
          const body = (await answer.json()) as { data?: unknown; error?: { type: string; message: string } };
          if (!answer.ok || !body.data)
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

async function benchDatabase(database: 'pglite' | 'postgres', options: Options): Promise<DatabaseResult> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_SERVER_URL;
  const scratch = `bench_rounds_${randomBytes(4).toString('hex')}`;
  const dataDir = database === 'pglite' ? mkdtempSync(join(tmpdir(), 'bench-rounds-')) : undefined;
  if (database === 'postgres') await adminQuery(serverUrl, `CREATE DATABASE ${scratch}`);
  const url = database === 'postgres' ? withDatabaseName(serverUrl, scratch) : undefined;
  try {
    process.stdout.write(`  ${database}: preparing ${Math.max(...options.players)} players … `);
    const handle = await openDatabase(url ? { url } : { dataDir });
    const { players, statementsPerRound } = await prepare(handle, Math.max(...options.players));
    await handle.close();
    console.log(`ready (${statementsPerRound} statements per round)`);

    const server = await startServer(url ? { DATABASE_URL: url } : { DATA_DIR: dataDir ?? '' });
    const runs: RunResult[] = [];
    try {
      for (const count of options.players) {
        process.stdout.write(`  ${database}: ${count} players × ${options.seconds} s … `);
        const measured = await playRounds(server.base, players.slice(0, count), options.seconds);
        let result: RunResult;
        if (database === 'postgres') {
          const tps = await pgbenchTpcB(serverUrl, count, options.seconds, options.scale);
          const ratio = round2(measured.roundsPerSecond / tps);
          result = {
            ...measured,
            pgbenchTps: tps,
            ratioToPgbench: ratio,
            goal: `≥ ${GOAL_POSTGRES_RATIO} × pgbench`,
            isGoalMet: ratio >= GOAL_POSTGRES_RATIO,
          };
        } else {
          result = {
            ...measured,
            goal: `≥ ${GOAL_PGLITE_ROUNDS_PER_SECOND}/s`,
            isGoalMet: measured.roundsPerSecond >= GOAL_PGLITE_ROUNDS_PER_SECOND,
          };
        }
        runs.push(result);
        console.log(`${result.roundsPerSecond} rounds/s${result.pgbenchTps ? ` (pgbench ${result.pgbenchTps} tps)` : ''}`);
      }
    } finally {
      await stopServer(server.child);
    }
    const after = await openDatabase(url ? { url } : { dataDir });
    const report = await checkLedger(after.db);
    await after.close();
    return { database, statementsPerRound, runs, ledgerSound: report.isSound };
  } finally {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (database === 'postgres') await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
  }
}

function printTable(results: DatabaseResult[]): void {
  const rows = results.flatMap((result) =>
    result.runs.map((run) => ({
      database: result.database,
      players: run.players,
      'rounds/s': run.roundsPerSecond,
      'p50 ms': run.latencyMs.p50,
      'p99 ms': run.latencyMs.p99,
      'max stall ms': run.maxStallMs,
      'max pause ms': run.maxPauseMs,
      'pgbench tps': run.pgbenchTps ?? '–',
      ratio: run.ratioToPgbench ?? round2(run.roundsPerSecond / GOAL_PGLITE_ROUNDS_PER_SECOND),
      goal: run.goal,
      met: run.isGoalMet ? 'yes' : 'no',
      'stmts/round': result.statementsPerRound,
      errors: run.errors,
    })),
  );
  console.table(rows);
}

async function main(): Promise<void> {
  const options = readOptions();
  const databases = (['pglite', 'postgres'] as const).filter((kind) => !options.only || options.only === kind);
  console.log(`rounds over HTTP (production build): ${options.players.join(' and ')} players, ${options.seconds} s each`);
  const results: DatabaseResult[] = [];
  for (const database of databases) results.push(await benchDatabase(database, options));
  printTable(results);
  for (const result of results)
    for (const run of result.runs)
      for (const sample of run.errorSamples) console.log(`  ${result.database} ${run.players}: ${sample}`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, 'rounds.json');
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), options, results }, null, 2)}\n`);
  console.log(`written to ${file}`);
  const isBroken = results.some((result) => !result.ledgerSound || result.runs.some((run) => run.errors > 0));
  if (isBroken) {
    console.error('a round failed or the ledger is not sound');
    process.exitCode = 1;
  }
}

await main();
