/**
 * What the database benchmarks (bench/ledger.ts, bench/provider-wallet.ts) share: their command
 * line (seconds, workers, players, pool, which database), scratch databases on a PostgreSQL
 * server, latency percentiles, and pgbench TPC-B as the reference of the same run.
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';

export interface DatabaseBenchOptions {
  seconds: number;
  workers: number;
  players: number;
  pool: number;
  only?: 'pglite' | 'postgres';
}

/** Reads the shared options; prints `usage` and exits on -h. */
export function readDatabaseBenchOptions(usage: string, defaultPlayers: number): DatabaseBenchOptions {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '10' },
      workers: { type: 'string', default: '10' },
      players: { type: 'string', default: String(defaultPlayers) },
      pool: { type: 'string', default: '10' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const positive = (name: string, value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed <= 0) throw new Error(`--${name} must be a positive integer, not ${value}`);
    return parsed;
  };
  const only = values.only;
  if (only !== undefined && only !== 'pglite' && only !== 'postgres')
    throw new Error(`--only must be pglite or postgres, not ${only}`);
  return {
    seconds: positive('seconds', values.seconds),
    workers: positive('workers', values.workers),
    players: positive('players', values.players),
    pool: positive('pool', values.pool),
    only,
  };
}

export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** One statement on its own connection (CREATE / DROP DATABASE cannot share a pool's). */
export async function adminQuery<T extends pg.QueryResultRow>(
  serverUrl: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** The p-th percentile (0–1) of sorted samples; 0 when there are none. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
}

/** pgbench on the PATH, else Debian's PostgreSQL 15 (PG_BIN overrides); undefined when there is none. */
export function findPgbench(): string | undefined {
  const candidates = [
    process.env.PG_BIN ? join(process.env.PG_BIN, 'pgbench') : '',
    'pgbench',
    '/usr/lib/postgresql/15/bin/pgbench',
  ];
  return candidates.filter(Boolean).find((command) => {
    const found = spawnSync(command, ['--version'], { encoding: 'utf8' });
    return !found.error && found.status === 0;
  });
}

/**
 * pgbench TPC-B (its default script) on the same server, the reference issue 12 compares with:
 * `-i -s scale` into a scratch database of its own, then `-c clients -j 2 -T seconds`; its tps.
 */
export async function pgbenchTpcB(serverUrl: string, clients: number, seconds: number, scale = 10): Promise<number> {
  const pgbench = findPgbench();
  if (!pgbench) throw new Error('pgbench not found: install postgresql-contrib or set PG_BIN');
  const name = `bench_pgbench_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = withDatabaseName(serverUrl, name);
  const run = promisify(execFile);
  try {
    await run(pgbench, ['-i', '-q', '-s', String(scale), url]);
    const threads = String(Math.min(2, clients));
    const { stdout } = await run(pgbench, ['-n', '-c', String(clients), '-j', threads, '-T', String(seconds), url]);
    const tps = /tps = ([\d.]+)/.exec(stdout)?.[1];
    if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
    return Math.round(Number(tps));
  } finally {
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
