/**
 * Ledger transfers per second (architecture §5 and §7: speed targets live in bench/, never in
 * timed assertions), on PGlite and on PostgreSQL, next to pgbench's TPC-B figure on the same
 * PostgreSQL server (issue 12: many players ≥ 1.0 × pgbench TPC-B, one contended player ≥ 0.5 ×).
 *
 *   npm run bench:ledger                                  10 s per case, 10 workers, 1000 players
 *   npm run bench:ledger -- --seconds 5 --workers 20      shorter runs, more concurrency
 *   BENCH_DATABASE_URL=postgres://user@host/db npm run bench:ledger
 *                                                         another PostgreSQL server (needs CREATEDB)
 *
 * For each database (PGlite in memory; PostgreSQL in a scratch database bench_ledger_<random>,
 * pool of --pool connections, dropped afterwards) it applies the migrations, creates a site and
 * --players players with a deposit each, then runs two cases of --seconds with --workers
 * concurrent wallet.transfer calls, each a bet or a win with its own idempotency key (as a game
 * provider's round would carry):
 *   single player   every worker moves money between one player's main account and the house
 *                   game account, alternating bet and win: two hot rows, the contended case;
 *   many players    each transfer picks a random player of --players (the house game account is
 *                   split in sub-accounts by player).
 * It prints transfers/s, p50/p99 latency, transaction retries, transfers per call to the database
 * (group commit) and errors, runs
 * `pgbench -i -s 10` and `pgbench -c <workers> -j 2 -T <seconds>` (TPC-B) on a scratch database
 * of the same server and prints ledger transfers/s ÷ pgbench tps against the targets. After each database it
 * runs the ledger checker: the ledger must be sound. Results go to
 * bench/results/ledger-<timestamp>.json (ignored by git). Exit status 1 when a ledger is not
 * sound or a transfer failed.
 *
 * The PostgreSQL part is skipped with a message when no server answers (default
 * postgres://postgres@127.0.0.1:5432/postgres). pgbench comes with Debian's PostgreSQL packages:
 * `apt-get install -y postgresql-contrib`. The client, PostgreSQL and pgbench share the machine:
 * compare figures between runs on one machine, not across machines.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { transactionRetries } from '../server/db/retry';
import { users, sites } from '../server/db/schema';
import {
  checkLedger,
  house,
  move,
  player,
  createWalletService,
  type TransferInput,
  type WalletService,
} from '../server/modules/wallet';
import { adminQuery, percentile, readDatabaseBenchOptions, withDatabaseName, type DatabaseBenchOptions } from './database-bench';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_DIR = join(ROOT, 'bench', 'results');
const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const SITE = 'bench-ledger';
const CURRENCY = 'EUR';

let interrupted = false;
let runningChild: ChildProcess | undefined;

class InterruptedError extends Error {}

function stopIfInterrupted(): void {
  if (interrupted) throw new InterruptedError('interrupted');
}

const USAGE = `usage: npm run bench:ledger [-- options]
  --seconds N   length of each case and of the pgbench run (default 10)
  --workers N   concurrent transfers, and pgbench clients (default 10)
  --players N   players of the many-players case (default 1000)
  --pool N      PostgreSQL connections (default 10)
  --only KIND   pglite or postgres
env BENCH_DATABASE_URL: the PostgreSQL server to create scratch databases on
  (default ${DEFAULT_SERVER_URL})
env BENCH_GROUP_LANES: group-commit lanes of the wallet (default: the wallet's own)`;

// ---------------------------------------------------------------------------------------------
// PostgreSQL scratch databases

function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** The server's version, or why it does not answer. */
async function probePostgres(serverUrl: string): Promise<{ version: string } | { error: string }> {
  try {
    const [row] = await adminQuery<{ server_version: string }>(serverUrl, 'SHOW server_version');
    return { version: row?.server_version ?? 'unknown' };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function createScratchDatabase(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  return {
    name,
    url: withDatabaseName(serverUrl, name),
    async drop() {
      // A pool's end() resolves before its backends leave; dropping under them makes the
      // closing clients report FATAL 57P01, so wait for the sessions to go first.
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline) {
        const [row] = await adminQuery<{ n: number }>(
          serverUrl,
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        if (row?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The ledger cases

interface CaseResult {
  database: 'pglite' | 'postgres';
  case: 'single player' | 'many players';
  workers: number;
  seconds: number;
  transfers: number;
  transfersPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  retries: number;
  /** Callers' transfers per call to the database (group commit, server/modules/wallet/transfer-groups.ts). */
  transfersPerCall: number;
  /** CPU of this process (client, and the database itself for PGlite), % of one core. */
  clientCpuPercent: number;
  clientCpuMsPerTransfer: number;
  errors: number;
  errorSamples: string[];
  /** ledger transfers/s ÷ pgbench tps on the same server (PostgreSQL only). */
  ratioToPgbench?: number;
}

interface LedgerCheckSummary {
  database: 'pglite' | 'postgres';
  isSound: boolean;
  transfers: number;
  expectedTransfers: number;
  accounts: number;
  auditEntries: number;
  problems: Record<string, number>;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

function describeError(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause instanceof Error; depth++) current = current.cause;
  return current instanceof Error ? `${current.constructor.name}: ${current.message}` : String(current);
}

/** Runs `workers` loops of transfers for `seconds`; each loop waits for its transfer before the next. */
async function runCase(
  wallet: WalletService,
  database: CaseResult['database'],
  name: CaseResult['case'],
  options: DatabaseBenchOptions,
  nextTransfer: (worker: number, n: number) => TransferInput,
): Promise<CaseResult> {
  const latencies: number[] = [];
  const errorSamples = new Map<string, number>();
  let errors = 0;
  const retriesBefore = transactionRetries();
  const groupsBefore = wallet.groupCommitStats();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.workers }, async (_, worker) => {
      for (let n = 0; performance.now() < deadline && !interrupted; n++) {
        const input = nextTransfer(worker, n);
        const begin = performance.now();
        try {
          await wallet.transfer(input);
          latencies.push(performance.now() - begin);
        } catch (error) {
          errors++;
          const message = describeError(error);
          errorSamples.set(message, (errorSamples.get(message) ?? 0) + 1);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const groupsAfter = wallet.groupCommitStats();
  const sorted = Float64Array.from(latencies).sort();
  return {
    database,
    case: name,
    workers: options.workers,
    seconds: round(elapsed),
    transfers: latencies.length,
    transfersPerSecond: Math.round(latencies.length / elapsed),
    latencyMs: {
      p50: round(percentile(sorted, 0.5)),
      p99: round(percentile(sorted, 0.99)),
      max: round(sorted[sorted.length - 1] ?? 0),
    },
    retries: transactionRetries() - retriesBefore,
    transfersPerCall: round((groupsAfter.groups - groupsBefore.groups) / Math.max(1, groupsAfter.calls - groupsBefore.calls)),
    clientCpuPercent: Math.round(((cpu.user + cpu.system) / 1e6 / elapsed) * 100),
    clientCpuMsPerTransfer: latencies.length ? round((cpu.user + cpu.system) / 1000 / latencies.length, 3) : 0,
    errors,
    errorSamples: [...errorSamples].map(([message, count]) => `${count}× ${message}`).slice(0, 5),
  };
}

/** Migrates, seeds a site and players with a deposit each, runs both cases and checks the ledger. */
async function benchDatabase(
  handle: DatabaseHandle,
  options: DatabaseBenchOptions,
): Promise<{ cases: CaseResult[]; check: LedgerCheckSummary }> {
  const database = handle.kind;
  const runId = randomBytes(3).toString('hex');
  await runMigrations(handle);
  await handle.db.insert(sites).values({
    id: SITE,
    name: 'Ledger bench',
    hosts: ['bench-ledger.local'],
    defaultCurrency: CURRENCY,
    currencies: [CURRENCY],
    locales: ['en'],
  });
  const playerIds: number[] = [];
  for (let first = 0; first < options.players; first += 500) {
    const batch = Array.from({ length: Math.min(500, options.players - first) }, (_, i) => ({
      siteId: SITE,
      login: `bench${first + i}@example.com`,
      currency: CURRENCY,
      locale: 'en',
    }));
    const rows = await handle.db.insert(users).values(batch).returning({ id: users.id });
    playerIds.push(...rows.map((row) => row.id));
  }
  // BENCH_GROUP_LANES tries another number of group-commit lanes than the wallet's default.
  const wallet = createWalletService(handle.db, { groupLanes: Number(process.env.BENCH_GROUP_LANES) || undefined });

  // Deposits big enough that no bet of either case can run a balance dry.
  const deposit = (userId: number, amountMinor: bigint) =>
    wallet.transfer({
      siteId: SITE,
      userId,
      kind: 'deposit',
      currency: CURRENCY,
      amountMinor,
      legs: move(house('psp_clearing'), player(userId, 'main'), amountMinor),
      idempotencyKey: `bench-${runId}-deposit-${userId}`,
      actor: 'psp:bench',
      reason: 'bench deposit',
    });
  let nextDeposit = 0;
  await Promise.all(
    Array.from({ length: options.workers }, async () => {
      while (nextDeposit < playerIds.length && !interrupted) {
        const userId = playerIds[nextDeposit++] as number;
        await deposit(userId, userId === playerIds[0] ? 1_000_000_000_000n : 1_000_000_000n);
      }
    }),
  );

  const game = (userId: number, worker: number, n: number, isBet: boolean, caseKey: string): TransferInput => {
    const amountMinor = BigInt(randomInt(1, 1_000));
    return {
      siteId: SITE,
      userId,
      kind: isBet ? 'bet' : 'win',
      currency: CURRENCY,
      amountMinor,
      legs: isBet
        ? move(player(userId, 'main'), house('game'), amountMinor)
        : move(house('game'), player(userId, 'main'), amountMinor),
      idempotencyKey: `bench-${runId}-${caseKey}-${worker}-${n}`,
      reference: `round-${caseKey}-${worker}-${Math.floor(n / 2)}`,
      actor: 'provider:bench',
      reason: isBet ? 'bench bet' : 'bench win',
    };
  };

  stopIfInterrupted();
  const cases: CaseResult[] = [];
  const single = playerIds[0] as number;
  process.stdout.write(`  ${database}: single player … `);
  cases.push(
    await runCase(wallet, database, 'single player', options, (worker, n) =>
      game(single, worker, n, (worker + n) % 2 === 0, 'single'),
    ),
  );
  console.log(`${cases.at(-1)?.transfersPerSecond} transfers/s`);
  stopIfInterrupted();
  process.stdout.write(`  ${database}: many players (${playerIds.length}) … `);
  cases.push(
    await runCase(wallet, database, 'many players', options, (worker, n) =>
      game(playerIds[randomInt(playerIds.length)] as number, worker, n, randomInt(2) === 0, 'many'),
    ),
  );
  console.log(`${cases.at(-1)?.transfersPerSecond} transfers/s`);
  stopIfInterrupted();

  process.stdout.write(`  ${database}: ledger check … `);
  const report = await checkLedger(handle.db);
  const [counted] = (
    (await handle.db.execute(sql`SELECT count(*)::int AS n FROM ledger_transfers`)) as unknown as { rows: { n: number }[] }
  ).rows;
  const expectedTransfers = playerIds.length + cases.reduce((sum, result) => sum + result.transfers, 0);
  const problems = Object.fromEntries(
    Object.entries(report)
      .filter(([, value]) => Array.isArray(value) && value.length > 0)
      .map(([key, value]) => [key, (value as unknown[]).length]),
  );
  const check = {
    database,
    isSound: report.isSound && counted?.n === expectedTransfers,
    transfers: report.transfers,
    expectedTransfers,
    accounts: report.accounts,
    auditEntries: report.auditEntries,
    problems,
  };
  console.log(
    check.isSound
      ? `sound (${check.transfers} transfers, ${check.accounts} accounts, ${check.auditEntries} audit entries)`
      : `NOT SOUND: ${JSON.stringify(check)}`,
  );
  return { cases, check };
}

// ---------------------------------------------------------------------------------------------
// pgbench

interface PgbenchResult {
  version: string;
  command: string;
  scale: number;
  clients: number;
  threads: number;
  seconds: number;
  tps: number;
  latencyAverageMs?: number;
}

/** pgbench on the PATH, else Debian's PostgreSQL 15 (PG_BIN overrides). */
const PGBENCH = [process.env.PG_BIN ? join(process.env.PG_BIN, 'pgbench') : '', 'pgbench', '/usr/lib/postgresql/15/bin/pgbench']
  .filter(Boolean)
  .find((command) => {
    const found = spawnSync(command, ['--version'], { encoding: 'utf8' });
    return !found.error && found.status === 0;
  });

function pgbenchVersion(): string | undefined {
  if (!PGBENCH) return undefined;
  return spawnSync(PGBENCH, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

/** The targets as ratios to pgbench TPC-B on the same server (issue 12). */
const TARGET_RATIO: Record<string, number> = { 'many players': 1.0, 'single player': 0.5 };

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    stopIfInterrupted();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    runningChild = child;
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      runningChild = undefined;
      if (code === 0) resolve(output);
      else
        reject(
          interrupted
            ? new InterruptedError('interrupted')
            : new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`),
        );
    });
  });
}

async function runPgbench(serverUrl: string, version: string, options: DatabaseBenchOptions): Promise<PgbenchResult> {
  const scratch = await createScratchDatabase(serverUrl, 'bench_pgbench');
  try {
    const scale = 10;
    const threads = Math.min(2, options.workers);
    process.stdout.write(`  pgbench -i -s ${scale} … `);
    await run(PGBENCH ?? 'pgbench', ['-i', '-s', String(scale), '-q', scratch.url]);
    // TPC-B (the default script): what issue 12 compares the ledger with.
    const args = ['-c', String(options.workers), '-j', String(threads), '-T', String(options.seconds)];
    process.stdout.write(`pgbench ${args.join(' ')} … `);
    const output = await run(PGBENCH ?? 'pgbench', [...args, scratch.url]);
    // "tps = 1234.5 (without initial connection time)" (PostgreSQL 14+), or "(excluding connections establishing)".
    const tps = /tps = ([\d.]+) \((without|excluding)/.exec(output)?.[1] ?? /tps = ([\d.]+)/.exec(output)?.[1];
    if (!tps) throw new Error(`no tps in pgbench's output:\n${output}`);
    const latency = /latency average = ([\d.]+) ms/.exec(output)?.[1];
    console.log(`${Math.round(Number(tps))} tps`);
    return {
      version,
      command: `pgbench ${args.join(' ')}`,
      scale,
      clients: options.workers,
      threads,
      seconds: options.seconds,
      tps: round(Number(tps)),
      latencyAverageMs: latency ? Number(latency) : undefined,
    };
  } finally {
    await scratch.drop();
  }
}

// ---------------------------------------------------------------------------------------------

function printTable(cases: CaseResult[]): void {
  const header = [
    'database',
    'case',
    'transfers/s',
    'p50 ms',
    'p99 ms',
    'retries',
    'per call',
    'errors',
    'node CPU',
    'CPU ms/transfer',
    '÷ pgbench',
    'target',
  ];
  const lines = cases.map((row) => [
    row.database,
    row.case,
    String(row.transfersPerSecond),
    row.latencyMs.p50.toFixed(2),
    row.latencyMs.p99.toFixed(2),
    String(row.retries),
    row.transfersPerCall.toFixed(1),
    String(row.errors),
    `${row.clientCpuPercent}%`,
    row.clientCpuMsPerTransfer.toFixed(2),
    row.ratioToPgbench === undefined ? '' : row.ratioToPgbench.toFixed(3),
    row.ratioToPgbench === undefined
      ? ''
      : `≥ ${TARGET_RATIO[row.case] ?? '?'} ${row.ratioToPgbench >= (TARGET_RATIO[row.case] ?? Infinity) ? 'met' : 'not met'}`,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => (line[i] ?? '').length)));
  const format = (cells: string[]) =>
    cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
}

async function main(): Promise<number> {
  const options = readDatabaseBenchOptions(USAGE, 1000);
  const serverUrl = process.env.BENCH_DATABASE_URL || DEFAULT_SERVER_URL;
  console.log(
    `bench:ledger: ${options.workers} workers, ${options.seconds} s per case, ${options.players} players, ${cpus().length} CPUs shared by client and database`,
  );

  const cases: CaseResult[] = [];
  const checks: LedgerCheckSummary[] = [];
  const skipped: string[] = [];
  let pgbench: PgbenchResult | undefined;
  let postgresVersion: string | undefined;

  if (options.only !== 'postgres') {
    const handle = await openDatabase({ dataDir: 'memory://' });
    try {
      const result = await benchDatabase(handle, options);
      cases.push(...result.cases);
      checks.push(result.check);
    } finally {
      await handle.close();
    }
  }

  if (options.only !== 'pglite') {
    stopIfInterrupted();
    const probe = await probePostgres(serverUrl);
    if ('error' in probe) {
      const message = `PostgreSQL: no server answers at ${withoutPassword(serverUrl)} (${probe.error}); skipped the PostgreSQL cases and pgbench. Set BENCH_DATABASE_URL to use another server.`;
      console.log(`  ${message}`);
      skipped.push(message);
    } else {
      postgresVersion = probe.version;
      const scratch = await createScratchDatabase(serverUrl, 'bench_ledger');
      console.log(`  postgres ${probe.version}: scratch database ${scratch.name}, pool of ${options.pool}`);
      try {
        const handle = await openDatabase({ url: scratch.url, poolSize: options.pool });
        try {
          const result = await benchDatabase(handle, options);
          cases.push(...result.cases);
          checks.push(result.check);
        } finally {
          await handle.close();
        }
      } finally {
        await scratch.drop();
      }
      stopIfInterrupted();
      const version = pgbenchVersion();
      if (!version) {
        const message =
          'pgbench: not found on PATH; install it with `apt-get install -y postgresql-contrib` (Debian) for the comparison. Skipped.';
        console.log(`  ${message}`);
        skipped.push(message);
      } else {
        pgbench = await runPgbench(serverUrl, version, options);
        for (const row of cases)
          if (row.database === 'postgres') row.ratioToPgbench = round(row.transfersPerSecond / pgbench.tps, 3);
      }
    }
  }

  console.log('');
  printTable(cases);
  if (pgbench)
    console.log(
      `\npgbench TPC-B (${pgbench.command}, scale ${pgbench.scale}): ${pgbench.tps} tps, latency average ${pgbench.latencyAverageMs ?? '?'} ms`,
    );
  for (const row of cases) for (const sample of row.errorSamples) console.log(`  ${row.database} ${row.case}: ${sample}`);
  for (const check of checks)
    console.log(
      `ledger on ${check.database}: ${check.isSound ? 'sound' : 'NOT SOUND'} (${check.transfers} transfers, expected ${check.expectedTransfers}; ${check.accounts} accounts; ${check.auditEntries} audit entries)`,
    );

  mkdirSync(RESULTS_DIR, { recursive: true });
  const date = new Date();
  const file = join(RESULTS_DIR, `ledger-${date.toISOString().replace(/[:.]/g, '-')}.json`);
  const report = {
    date: date.toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    options,
    postgres: postgresVersion ? { version: postgresVersion, server: withoutPassword(serverUrl) } : undefined,
    cases,
    pgbench,
    ledgerChecks: checks,
    skipped,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten ${file}`);
  return checks.every((check) => check.isSound) && cases.every((row) => row.errors === 0) ? 0 : 1;
}

// Ctrl-C stops the workers and pgbench, then the normal clean-up drops the scratch databases;
// a second Ctrl-C quits at once.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error('\nbench:ledger: interrupted, cleaning up (again to quit at once)');
    runningChild?.kill('SIGTERM');
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof InterruptedError) process.exit(130);
    console.error(`bench:ledger: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
