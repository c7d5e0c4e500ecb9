/**
 * HTTP throughput and latency of the production server (architecture §7: speed targets live in
 * bench/, never in timed assertions). Needs `npm run build` first.
 *
 *   npm run bench                                      PGlite in a temporary data folder
 *   BENCH_DATABASE_URL=postgres://… npm run bench      PostgreSQL (migrated and seeded on start)
 *   BENCH_DURATION_S=5 BENCH_CONNECTIONS=10            shorter runs, other connection counts
 *
 * Starts build/server/main.js on a free 127.0.0.1 port, drives each target with autocannon one
 * after another, prints a table and writes bench/results/http.json. The client and the server
 * share the machine, so figures are comparable between runs on one machine, not absolute.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(ROOT, 'build', 'server', 'main.js');
const RESULTS_DIR = join(ROOT, 'bench', 'results');
const DURATION_S = positiveNumber(process.env.BENCH_DURATION_S, 10);
const CONNECTIONS = positiveNumber(process.env.BENCH_CONNECTIONS, 10);
const DATABASE_URL = process.env.BENCH_DATABASE_URL || undefined;

const TARGETS = [
  { name: 'SSR /', path: '/' },
  { name: 'SSR /it/promotions', path: '/it/promotions' },
  { name: 'API metadata.getgeneralinfo', path: '/api/metadata.getgeneralinfo?v=2.34&locale=en' },
  { name: 'config /nfx/cms-config/en', path: '/nfx/cms-config/en' },
];

function positiveNumber(value, fallback) {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startServer() {
  const port = await freePort();
  const dataDir = DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'bench-db-'));
  const env = { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' };
  if (DATABASE_URL) env.DATABASE_URL = DATABASE_URL;
  else {
    env.DATABASE_URL = '';
    env.DATA_DIR = dataDir;
  }
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return { child, baseUrl, dataDir };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGTERM');
  throw new Error('the server did not answer /healthz within 60 s');
}

async function stopServer(server) {
  if (!server) return;
  if (server.child.exitCode === null && server.child.signalCode === null) {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  if (server.dataDir) rmSync(server.dataDir, { recursive: true, force: true });
}

async function measure(baseUrl, target) {
  // One short warm-up request so the first measured second is not the renderer's first call.
  const warm = await fetch(baseUrl + target.path);
  if (!warm.ok) throw new Error(`${target.path} answered ${warm.status} before the run`);
  await warm.arrayBuffer();
  const result = await autocannon({ url: baseUrl + target.path, connections: CONNECTIONS, duration: DURATION_S });
  return {
    name: target.name,
    path: target.path,
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
    non2xx: result.non2xx,
    throughputBytesPerSecond: Math.round(result.throughput.average),
  };
}

function printTable(rows) {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'errors'];
  const lines = rows.map((row) => [
    row.name,
    String(row.requestsPerSecond),
    String(row.latencyMs.p50),
    String(row.latencyMs.p99),
    String(row.errors),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)));
  const format = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
}

async function main() {
  if (!existsSync(MAIN)) {
    console.error(`bench: ${MAIN} is missing. Run \`npm run build\` first.`);
    process.exit(1);
  }
  const database = DATABASE_URL ? 'postgres' : 'pglite';
  console.log(
    `bench: production server on ${database}, ${CONNECTIONS} connections, ${DURATION_S} s per target, ${cpus().length} CPUs shared by client and server`,
  );
  let server;
  const stop = async () => {
    await stopServer(server);
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    server = await startServer();
    const results = [];
    for (const target of TARGETS) {
      process.stdout.write(`  ${target.name} … `);
      const row = await measure(server.baseUrl, target);
      console.log(`${row.requestsPerSecond} req/s`);
      results.push(row);
    }
    console.log('');
    printTable(results);
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = join(RESULTS_DIR, 'http.json');
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      database,
      connections: CONNECTIONS,
      durationSeconds: DURATION_S,
      results,
    };
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nwritten ${file}`);
    if (results.some((row) => row.errors > 0)) process.exitCode = 1;
  } finally {
    await stopServer(server);
  }
}

main().catch((error) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
