/**
 * SSR page speed against its references (issue 12), all started in this run:
 *
 *   npm run bench:ssr                     our production build on PGlite (temporary data folder)
 *   npm run bench:ssr -- --postgres       the same on a scratch database of BENCH_POSTGRES_URL
 *                                         (default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_DURATION_S=5                    seconds per measurement (default 5)
 *   npm run bench:ssr -- --only 'signed'  only our targets whose name holds the text
 *   npm run bench:ssr -- --rounds 3       references and ours measured in turn three times; each
 *                                         ratio is taken within its round and the median is reported
 *   npm run bench:ssr -- --floor          also the floor under account.getInfo: a bare node:http
 *                                         server answering our recorded answer (same status, headers
 *                                         and body) after 0–20 µs of made-up work per call, to tell
 *                                         how much work of our own a call may cost for the goal
 *
 * References: a bare Hono hello-world, a Hono JSON hello-world and the minimal React Router SSR app
 * in bench/ssr-reference (built here). Each target is driven by autocannon with 10 connections:
 * first flat out (the peak rate), then at half that rate (autocannon's overallRate) for the p99.
 * Beside the rates it reads each server's CPU time per answer at the peak (/proc), which a busy
 * machine disturbs far less than the rates, and the reference's CPU per answer over ours.
 * Needs `npm run build` first. Prints a table and writes bench/results/ssr.json (or ssr-postgres.json).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { processCpuMs, waitUntilSettled } from './process-cpu';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(ROOT, 'build', 'server', 'main.js');
const REFERENCE_DIR = join(ROOT, 'bench', 'ssr-reference');
const RESULTS_DIR = join(ROOT, 'bench', 'results');
const DURATION_S = positiveNumber(process.env.BENCH_DURATION_S, 5);
const CONNECTIONS = 10;
/**
 * Each target (ours and the references alike) is driven this long, unmeasured, before its
 * measurement: a server just started compiles its hot code and fills its caches in its first
 * seconds, which measured a cold server rather than the server (issue 12, fifteenth session).
 */
const WARM_UP_S = 2;
const IS_POSTGRES = process.argv.includes('--postgres');
// --only <text>: measure only our targets whose name holds the text (the references always run).
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * --rounds <n>: the machine's speed moves by half within minutes (another tenant's load), so a
 * reference measured at the start and ours minutes later can compare two machines. With rounds,
 * every server stays up and each round measures the references and then ours; a ratio is taken
 * within its round, and the median round's ratio is the one reported.
 */
const IS_FLOOR = process.argv.includes('--floor');
/** --floor: the made-up work per call of the bare answer's targets, in µs. */
const FLOOR_WORK_US = [0, 5, 10, 15, 20];
const GET_INFO_PATH = '/api/account.getInfo?v=2.34&locale=en';
const ROUNDS = process.argv.includes('--rounds') ? positiveNumber(process.argv[process.argv.indexOf('--rounds') + 1], 1) : 1;

interface Server {
  child: ChildProcess;
  baseUrl: string;
  cleanup?: () => Promise<void>;
}

interface Target {
  name: string;
  path: string;
  cookie?: string;
  /** The reference this target is compared with, and the share of its rate it must reach. */
  reference?: string;
  goal?: number;
}

interface Row {
  name: string;
  path: string;
  peakPerSecond: number;
  p99AtPeakMs: number;
  p99AtHalfPeakMs: number;
  halfPeakRate: number;
  errors: number;
  bytesPerAnswer: number;
  /**
   * The server process's CPU time per answer at the peak (Linux /proc): unlike the rate, it hardly
   * moves when other work shares the machine, so it compares runs taken on a busy machine.
   */
  cpuMsPerAnswer?: number;
  reference?: string;
  ratio?: number;
  /** The reference's CPU per answer divided by ours: ≥ 1 means ours costs no more per answer. */
  cpuRatio?: number;
  goal?: number;
}

function positiveNumber(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitReady(child: ChildProcess, url: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode} before it was ready`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within 90 s`);
}

async function startReference(kind: 'hello' | 'json' | 'ssr'): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(REFERENCE_DIR, 'serve.mjs'), kind, String(port)], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitReady(child, `${baseUrl}/`);
  return { child, baseUrl };
}

/** A scratch database of our own on the PostgreSQL server; dropped again at the end. */
async function scratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bench_ssr_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function startOurs(): Promise<Server> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
  };
  let cleanup: () => Promise<void>;
  if (IS_POSTGRES) {
    const database = await scratchDatabase();
    env.DATABASE_URL = database.url;
    cleanup = database.drop;
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-ssr-'));
    env.DATABASE_URL = '';
    env.DATA_DIR = dataDir;
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  // BENCH_SERVER_NODE_ARGS: flags for our server process only, e.g. --cpu-prof --cpu-prof-dir=/tmp/prof.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, MAIN], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitReady(child, `${baseUrl}/healthz`);
    // Measured once settled: the start-up's work (the odds feed's snapshot, the demo children) is not the pages'.
    if (child.pid !== undefined) await waitUntilSettled(child.pid);
  } catch (error) {
    await stop({ child, baseUrl, cleanup });
    throw error;
  }
  return { child, baseUrl, cleanup };
}

async function stop(server: Server | undefined): Promise<void> {
  if (!server) return;
  const { child } = server;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  await server.cleanup?.();
}

/**
 * A player registered over the API, and the cookies a browser keeps from that answer: the session
 * and the visitor id. A client that sent back the session alone would be a first visit on every
 * request, issued a new visitor cookie each time, which no browser is.
 */
async function signedInCookie(baseUrl: string): Promise<string> {
  const login = `bench${Date.now()}@example.com`;
  const response = await fetch(`${baseUrl}/api/auth.register?v=2.34&locale=en`, {
    method: 'POST',
    headers: { origin: baseUrl },
    body: new URLSearchParams({ login, password: 'bench-secret-12', terms: '1' }),
  });
  const pairs = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '');
  if (!response.ok || !pairs.some((pair) => pair.startsWith('sid=')) || !pairs.some((pair) => pair.startsWith('vid='))) {
    throw new Error(`registration answered ${response.status} without a session and a visitor cookie: ${await response.text()}`);
  }
  return pairs.join('; ');
}

/** A game page with data: the first game the game hall links to. */
async function gamePath(baseUrl: string): Promise<string> {
  const html = await (await fetch(`${baseUrl}/gamehall`)).text();
  const match = /href="(\/game\/[A-Za-z0-9_-]+)"/.exec(html);
  if (!match?.[1]) throw new Error('the game hall links to no game');
  return match[1];
}

async function drive(url: string, cookie: string | undefined, overallRate?: number, duration = DURATION_S) {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    headers: cookie ? { cookie } : {},
    ...(overallRate ? { overallRate } : {}),
  });
}

async function measure(baseUrl: string, target: Target, pid: number | undefined): Promise<Row> {
  const url = baseUrl + target.path;
  const headers = target.cookie ? { cookie: target.cookie } : undefined;
  const warm = await fetch(url, { headers });
  if (!warm.ok) throw new Error(`${target.path} answered ${warm.status} before the run`);
  const bytesPerAnswer = (await warm.arrayBuffer()).byteLength;
  const warmUp = await drive(url, target.cookie, undefined, WARM_UP_S);
  const warmUpErrors = warmUp.errors + warmUp.timeouts + warmUp.non2xx;
  const cpuBefore = processCpuMs(pid);
  const peak = await drive(url, target.cookie);
  const cpuAfter = processCpuMs(pid);
  const cpuMsPerAnswer =
    cpuBefore === undefined || cpuAfter === undefined || peak.requests.total === 0
      ? undefined
      : (cpuAfter - cpuBefore) / peak.requests.total;
  const peakPerSecond = Math.round(peak.requests.average);
  const halfPeakRate = Math.max(1, Math.round(peakPerSecond / 2));
  const half = await drive(url, target.cookie, halfPeakRate);
  return {
    name: target.name,
    path: target.path,
    peakPerSecond,
    p99AtPeakMs: peak.latency.p99,
    p99AtHalfPeakMs: half.latency.p99,
    halfPeakRate,
    errors: warmUpErrors + peak.errors + peak.timeouts + peak.non2xx + half.errors + half.timeouts + half.non2xx,
    bytesPerAnswer,
    cpuMsPerAnswer,
    reference: target.reference,
    goal: target.goal,
  };
}

function printTable(rows: Row[]): void {
  const header = ['target', 'peak/s', 'p99 peak', 'p99 ½peak', 'KB', 'errors', 'CPU ms', 'ratio', 'goal', 'CPU ratio'];
  const lines = rows.map((row) => [
    row.name,
    String(row.peakPerSecond),
    `${row.p99AtPeakMs} ms`,
    `${row.p99AtHalfPeakMs} ms`,
    (row.bytesPerAnswer / 1024).toFixed(1),
    String(row.errors),
    row.cpuMsPerAnswer === undefined ? '' : row.cpuMsPerAnswer.toFixed(3),
    row.ratio === undefined ? '' : `${row.ratio.toFixed(2)} × ${row.reference}`,
    row.goal === undefined ? '' : `≥ ${row.goal}${row.ratio !== undefined && row.ratio >= row.goal ? ' ✓' : ' ✗'}`,
    row.cpuRatio === undefined ? '' : `${row.cpuRatio.toFixed(2)} ×`,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => (line[i] ?? '').length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 || i === 7 || i === 8 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
}

const REFERENCES: [string, 'hello' | 'json' | 'ssr'][] = [
  ['Hono hello', 'hello'],
  ['Hono JSON hello', 'json'],
  ['minimal React Router SSR', 'ssr'],
];

async function measureReferences(servers: Map<string, Server>): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [name] of REFERENCES) {
    const server = servers.get(name);
    if (!server) continue;
    process.stdout.write(`  ${name} … `);
    const row = await measure(server.baseUrl, { name, path: '/' }, server.child.pid);
    console.log(`${row.peakPerSecond}/s`);
    rows.push(row);
  }
  return rows;
}

async function ourTargets(baseUrl: string): Promise<Target[]> {
  const cookie = await signedInCookie(baseUrl);
  const game = await gamePath(baseUrl);
  const ssr = { reference: 'minimal React Router SSR', goal: 1 };
  const targets: Target[] = [
    { name: 'SSR / anonymous', path: '/', ...ssr },
    { name: 'SSR / signed in', path: '/', cookie, ...ssr },
    { name: 'SSR /gamehall anonymous', path: '/gamehall', ...ssr },
    { name: 'SSR /gamehall signed in', path: '/gamehall', cookie, ...ssr },
    { name: `SSR ${game} anonymous`, path: game, ...ssr },
    { name: `SSR ${game} signed in`, path: game, cookie, ...ssr },
    {
      name: 'account.getInfo signed in',
      path: GET_INFO_PATH,
      cookie,
      reference: 'Hono JSON hello',
      goal: 0.5,
    },
  ];
  return targets.filter((candidate) => !ONLY || candidate.name.includes(ONLY));
}

async function measureOurs(server: Server, targets: Target[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const target of targets) {
    process.stdout.write(`  ${target.name} … `);
    const row = await measure(server.baseUrl, target, server.child.pid);
    console.log(`${row.peakPerSecond}/s`);
    rows.push(row);
  }
  return rows;
}

/** Our rows with their ratios to the references measured in the same round. */
function withRatios(ours: Row[], references: Row[]): Row[] {
  for (const row of ours) {
    const reference = references.find((candidate) => candidate.name === row.reference);
    if (!reference) continue;
    row.ratio = row.peakPerSecond / reference.peakPerSecond;
    if (reference.cpuMsPerAnswer && row.cpuMsPerAnswer) row.cpuRatio = reference.cpuMsPerAnswer / row.cpuMsPerAnswer;
  }
  return ours;
}

/** Of each target's rounds, the one with the median ratio (a row without a ratio: its first round). */
function medianRows(rounds: Row[][]): Row[] {
  const first = rounds[0] ?? [];
  return first.map((_row, index) => {
    const candidates = rounds.map((round) => round[index]).filter((row): row is Row => row !== undefined);
    const sorted = [...candidates].sort((a, b) => (a.ratio ?? 0) - (b.ratio ?? 0));
    return sorted[Math.floor((sorted.length - 1) / 2)] ?? (first[index] as Row);
  });
}

/**
 * The bare server of --floor, answering what our server answers to account.getInfo signed in
 * (its date and connection headers left to Node, as ours are).
 */
async function startBareAnswer(ours: Server, cookie: string): Promise<Server> {
  const answer = await fetch(ours.baseUrl + GET_INFO_PATH, { headers: { cookie } });
  const headers: string[] = [];
  answer.headers.forEach((value, name) => {
    if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)) headers.push(name, value);
  });
  for (const cookieHeader of answer.headers.getSetCookie()) headers.push('set-cookie', cookieHeader);
  const directory = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  const file = join(directory, 'answer.json');
  writeFileSync(file, JSON.stringify({ status: answer.status, headers, body: await answer.text() }));
  const port = await freePort();
  const child = spawn(process.execPath, [join(REFERENCE_DIR, 'bare-answer.mjs'), file, String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitReady(child, `${baseUrl}/0`);
  return { child, baseUrl, cleanup: async () => rmSync(directory, { recursive: true, force: true }) };
}

const floorTargets = (): Target[] =>
  FLOOR_WORK_US.map((work) => ({ name: `bare answer + ${work} µs work`, path: `/${work}`, reference: 'Hono JSON hello' }));

/**
 * What the floor says, per round: the made-up work per call at which the bare answer still reaches
 * the goal (between the two measured points around it), and what our call costs beyond the bare
 * answer in CPU per answer.
 */
function printFloor(roundsOfFloor: Row[][], roundsOfOurs: Row[][]): void {
  console.log('\nfloor under account.getInfo (the bare server answering our answer after made-up work per call):');
  roundsOfFloor.forEach((floor, index) => {
    const goal = 0.5;
    const points = floor.map((row, at) => ({ work: FLOOR_WORK_US[at] ?? 0, ratio: row.ratio ?? 0 }));
    let budget: string =
      points[0] && points[0].ratio < goal ? 'none: the bare answer alone is under the goal' : `over ${FLOOR_WORK_US.at(-1)} µs`;
    for (let at = 1; at < points.length; at++) {
      const [low, high] = [points[at - 1]!, points[at]!];
      if (low.ratio >= goal && high.ratio < goal) {
        budget = `${(low.work + ((low.ratio - goal) / (low.ratio - high.ratio)) * (high.work - low.work)).toFixed(1)} µs`;
        break;
      }
    }
    const bareCpu = floor[0]?.cpuMsPerAnswer;
    const ourCpu = roundsOfOurs[index]?.find((row) => row.path === GET_INFO_PATH)?.cpuMsPerAnswer;
    const extra = bareCpu !== undefined && ourCpu !== undefined ? `${((ourCpu - bareCpu) * 1000).toFixed(1)} µs` : 'not measured';
    const ratios = points.map((point) => `${point.work} µs ${point.ratio.toFixed(2)}`).join(', ');
    console.log(
      `  round ${index + 1}: ratio to Hono JSON by work per call ${ratios}; work allowed for ${goal} ×: ${budget}; ours costs beyond the bare answer: ${extra} of CPU per call`,
    );
  });
}

function buildReference(): void {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', '.bin', 'react-router'), 'build', REFERENCE_DIR], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function main(): Promise<void> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing. Run \`npm run build\` first.`);
  const database = IS_POSTGRES ? 'postgres' : 'pglite';
  console.log(
    `bench:ssr on ${database}, ${CONNECTIONS} connections, ${DURATION_S} s per measurement (peak, then half the peak) after ${WARM_UP_S} s unmeasured, ${cpus().length} CPUs shared by client and servers`,
  );
  buildReference();
  const servers = new Map<string, Server>();
  const roundsOfReferences: Row[][] = [];
  const roundsOfOurs: Row[][] = [];
  const roundsOfFloor: Row[][] = [];
  try {
    for (const [name, kind] of REFERENCES) servers.set(name, await startReference(kind));
    const ourServer = await startOurs();
    servers.set('ours', ourServer);
    const targets = await ourTargets(ourServer.baseUrl);
    const getInfo = targets.find((target) => target.path === GET_INFO_PATH);
    const bare = IS_FLOOR && getInfo?.cookie ? await startBareAnswer(ourServer, getInfo.cookie) : undefined;
    if (bare) servers.set('bare answer', bare);
    for (let round = 1; round <= ROUNDS; round++) {
      if (ROUNDS > 1) console.log(`round ${round} of ${ROUNDS}`);
      const references = await measureReferences(servers);
      roundsOfReferences.push(references);
      roundsOfOurs.push(withRatios(await measureOurs(ourServer, targets), references));
      if (bare) roundsOfFloor.push(withRatios(await measureOurs(bare, floorTargets()), references));
    }
  } finally {
    for (const server of servers.values()) await stop(server);
  }
  if (ROUNDS > 1) {
    for (const [index, row] of (roundsOfOurs[0] ?? []).entries()) {
      const ratios = roundsOfOurs.map((round) => round[index]?.ratio?.toFixed(2) ?? '–');
      console.log(`  ${row.name}: ratio per round ${ratios.join(', ')}`);
    }
  }
  // The references of the first round; ours as the median round (its ratio within its own round).
  const references = roundsOfReferences[0] ?? [];
  const ours = medianRows(roundsOfOurs);
  const rows = [...references, ...ours];
  console.log('');
  if (ROUNDS > 1)
    console.log(
      `references of round 1; each of ours in its median round of ${ROUNDS}, its ratio against that round's references`,
    );
  printTable(rows);
  if (roundsOfFloor.length > 0) printFloor(roundsOfFloor, roundsOfOurs);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, IS_POSTGRES ? 'ssr-postgres.json' : 'ssr.json');
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    database,
    connections: CONNECTIONS,
    durationSeconds: DURATION_S,
    rounds: ROUNDS,
    p99GoalMs: 50,
    rows,
    roundsOfReferences,
    roundsOfOurs,
    roundsOfFloor,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten ${file}`);
}

main().catch((error: unknown) => {
  console.error(`bench:ssr: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
