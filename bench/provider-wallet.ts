/**
 * Seamless-wallet round trips per second through the provider API (issue 5: "wallet bet+win
 * round trips per second through the provider API on PostgreSQL"; architecture §7: speed
 * targets live in bench/, never in timed assertions).
 *
 *   npm run bench:provider                               10 s per database, 10 workers, 200 players
 *   npm run bench:provider -- --seconds 5 --workers 20   shorter run, more concurrency
 *   BENCH_DATABASE_URL=postgres://user@host/db npm run bench:provider
 *
 * For each database (PGlite in memory; PostgreSQL in a scratch database bench_provider_<random>
 * created on BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test,
 * dropped afterwards) it applies the migrations, seeds the demo content, opens a real HTTP
 * server on 127.0.0.1 (random port) with the whole app, gives --players players a deposit and a
 * provider session each, then runs --workers concurrent loops for --seconds: each loop plays
 * rounds of a random player as the demo aggregator would, a signed bet and then a signed win
 * (zero or more) over HTTP, and counts a round when both answered OK. It prints rounds/s (one
 * round = bet + win = two requests), requests/s, p50/p99 round latency, and checks afterwards
 * that every player's balance is what the answers add up to and that the ledger is sound. On
 * PostgreSQL pgbench TPC-B (-c workers, same seconds) runs on the same server right after, and
 * the table shows the ratio and issue 12's goal (≥ 500 rounds/s on PostgreSQL).
 * Results go to bench/results/provider-wallet-<timestamp>.json (ignored by git). Exit status 1
 * when a round failed, a balance disagrees or the ledger is not sound.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { openDatabase, type DatabaseHandle } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { transactionRetries } from '../server/db/retry';
import { createHttpApp } from '../server/http';
import { NO_PROXY } from '../server/web/client-address';
import { seedContent } from '../server/modules/content';
import { providerClient, type ProviderClient, DEMO_PROVIDER } from '../server/modules/provider-wallet';
import { checkLedger, house, move, player } from '../server/modules/wallet';
import { users } from '../server/db/schema';
import { createServices } from '../server/services';
import {
  adminQuery,
  percentile,
  pgbenchTpcB,
  readDatabaseBenchOptions,
  withDatabaseName,
  type DatabaseBenchOptions,
} from './database-bench';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_DIR = join(ROOT, 'bench', 'results');
const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/test';
const GAME = 'fox-fortune';
const DEPOSIT_MINOR = 1_000_000_000n;

async function dropScratch(serverUrl: string, name: string): Promise<void> {
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
}

interface Result {
  database: 'pglite' | 'postgres';
  workers: number;
  players: number;
  seconds: number;
  rounds: number;
  roundsPerSecond: number;
  requestsPerSecond: number;
  roundLatencyMs: { p50: number; p99: number; max: number };
  retries: number;
  errors: number;
  errorSamples: string[];
  balancesAgree: boolean;
  ledgerSound: boolean;
  /** PostgreSQL: pgbench TPC-B with as many clients as workers, on the same server right after. */
  pgbenchTps?: number;
  ratioToPgbench?: number;
}

/** Issue 12: provider-wallet bet+win rounds on PostgreSQL. */
const GOAL_POSTGRES_ROUNDS_PER_SECOND = 500;

const round2 = (value: number) => Math.round(value * 100) / 100;
async function benchDatabase(handle: DatabaseHandle, options: DatabaseBenchOptions): Promise<Result> {
  const database = handle.kind;
  await runMigrations(handle);
  await seedContent(handle.db);
  const services = createServices(handle.db);
  const site = await services.sites.resolveSite('127.0.0.1');
  const app = createHttpApp({
    services,
    logger: pino({ level: 'silent' }),
    mode: 'test',
    maxBodyBytes: 64 * 1024,
    proxy: NO_PROXY,
    buildVersion: 'bench',
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client: ProviderClient = providerClient((path, init) => fetch(`${base}${path}`, init), DEMO_PROVIDER);
  const runId = randomBytes(3).toString('hex');

  try {
    process.stdout.write(`  ${database}: ${options.players} players with a deposit and a provider session … `);
    const rows = await handle.db
      .insert(users)
      .values(
        Array.from({ length: options.players }, (_, i) => ({
          siteId: site.id,
          login: `bench-provider-${runId}-${i}@example.com`,
          currency: site.defaultCurrency,
          locale: 'en',
        })),
      )
      .returning({ id: users.id });
    const players: { uid: number; token: string; expected: bigint; isBusy: boolean }[] = [];
    for (const { id } of rows) {
      await services.wallet.transfer({
        siteId: site.id,
        userId: id,
        kind: 'deposit',
        currency: site.defaultCurrency,
        amountMinor: DEPOSIT_MINOR,
        legs: move(house('psp_clearing'), player(id, 'main'), DEPOSIT_MINOR),
        idempotencyKey: `bench-provider-${runId}-${id}`,
        actor: 'psp:bench',
        reason: 'bench deposit',
      });
      const session = await services.providerWallet.openProviderSession(site.id, id, GAME, site.defaultCurrency);
      players.push({ uid: id, token: session.token, expected: DEPOSIT_MINOR, isBusy: false });
    }
    console.log('ready');

    const latencies: number[] = [];
    const errorSamples = new Map<string, number>();
    let errors = 0;
    const retriesBefore = transactionRetries();
    process.stdout.write(`  ${database}: ${options.workers} workers × ${options.seconds} s of bet + win … `);
    const started = performance.now();
    const deadline = started + options.seconds * 1000;
    await Promise.all(
      Array.from({ length: options.workers }, async (_, worker) => {
        for (let n = 0; performance.now() < deadline; n++) {
          // A player plays one round at a time, as a game client does.
          const free = players.filter((candidate) => !candidate.isBusy);
          const who = free[randomInt(free.length)];
          if (!who) continue;
          who.isBusy = true;
          const roundId = `${runId}-${worker}-${n}`;
          const common = { token: who.token, player_id: String(who.uid), round_id: roundId, currency: site.defaultCurrency };
          const betMinor = randomInt(10, 1_000);
          const winMinor = randomInt(2) === 0 ? 0 : randomInt(0, 2_000);
          const begin = performance.now();
          try {
            const bet = await client.call('bet', { ...common, transaction_id: `${roundId}-bet`, amount: betMinor });
            if (bet.body.status !== 'OK') throw new Error(`bet: ${bet.body.code}`);
            who.expected -= BigInt(betMinor);
            const win = await client.call('win', { ...common, transaction_id: `${roundId}-win`, amount: winMinor });
            if (win.body.status !== 'OK') throw new Error(`win: ${win.body.code}`);
            who.expected += BigInt(winMinor);
            latencies.push(performance.now() - begin);
          } catch (error) {
            errors++;
            const message = error instanceof Error ? error.message : String(error);
            errorSamples.set(message, (errorSamples.get(message) ?? 0) + 1);
          } finally {
            who.isBusy = false;
          }
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const sorted = Float64Array.from(latencies).sort();
    console.log(`${Math.round(latencies.length / elapsed)} rounds/s`);

    process.stdout.write(`  ${database}: balances and ledger check … `);
    let balancesAgree = true;
    for (const who of players)
      if ((await services.wallet.balances(site.id, who.uid, site.defaultCurrency)).main !== who.expected) balancesAgree = false;
    const report = await checkLedger(handle.db);
    console.log(
      `${balancesAgree ? 'balances agree' : 'BALANCES DISAGREE'}, ledger ${report.isSound ? 'sound' : `NOT SOUND ${JSON.stringify(report)}`} (${report.transfers} transfers)`,
    );
    return {
      database,
      workers: options.workers,
      players: options.players,
      seconds: round2(elapsed),
      rounds: latencies.length,
      roundsPerSecond: Math.round(latencies.length / elapsed),
      requestsPerSecond: Math.round((2 * latencies.length) / elapsed),
      roundLatencyMs: {
        p50: round2(percentile(sorted, 0.5)),
        p99: round2(percentile(sorted, 0.99)),
        max: round2(sorted[sorted.length - 1] ?? 0),
      },
      retries: transactionRetries() - retriesBefore,
      errors,
      errorSamples: [...errorSamples].map(([message, count]) => `${count}× ${message}`).slice(0, 5),
      balancesAgree,
      ledgerSound: report.isSound,
    };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

async function main() {
  const options = readDatabaseBenchOptions(
    'usage: npm run bench:provider [-- --seconds N --workers N --players N --pool N --only pglite|postgres]',
    200,
  );
  // Each worker plays a player nobody else is playing: there must be enough of them.
  if (options.players < options.workers) throw new Error('--players must be at least --workers');
  const results: Result[] = [];
  console.log(
    `provider wallet bench: bet + win rounds through POST /provider-api/${DEMO_PROVIDER.name}/… over HTTP on 127.0.0.1`,
  );

  if (options.only !== 'postgres') {
    const handle = await openDatabase({ dataDir: 'memory://' });
    try {
      results.push(await benchDatabase(handle, options));
    } finally {
      await handle.close();
    }
  }

  if (options.only !== 'pglite') {
    const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_SERVER_URL;
    let name: string | undefined;
    try {
      name = `bench_provider_${randomBytes(4).toString('hex')}`;
      await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
    } catch (error) {
      console.log(
        `  postgres: skipped, no server answers at ${serverUrl} (${error instanceof Error ? error.message : String(error)})`,
      );
      name = undefined;
    }
    if (name) {
      const handle = await openDatabase({ url: withDatabaseName(serverUrl, name), poolSize: options.pool });
      try {
        const result = await benchDatabase(handle, options);
        process.stdout.write(`  pgbench TPC-B -c ${options.workers} -T ${options.seconds} on the same server … `);
        const tps = await pgbenchTpcB(serverUrl, options.workers, options.seconds);
        console.log(`${tps} tps`);
        results.push({ ...result, pgbenchTps: tps, ratioToPgbench: Math.round((100 * result.roundsPerSecond) / tps) / 100 });
      } finally {
        await handle.close();
        await dropScratch(serverUrl, name);
      }
    }
  }

  console.log('');
  console.table(
    results.map((row) => ({
      database: row.database,
      workers: row.workers,
      'rounds/s': row.roundsPerSecond,
      'requests/s': row.requestsPerSecond,
      'p50 ms': row.roundLatencyMs.p50,
      'p99 ms': row.roundLatencyMs.p99,
      retries: row.retries,
      errors: row.errors,
      'pgbench tps': row.pgbenchTps ?? '–',
      '÷ pgbench': row.ratioToPgbench ?? '–',
      goal: row.database === 'postgres' ? `≥ ${GOAL_POSTGRES_ROUNDS_PER_SECOND}/s` : '–',
      met: row.database === 'postgres' ? (row.roundsPerSecond >= GOAL_POSTGRES_ROUNDS_PER_SECOND ? 'yes' : 'no') : '–',
    })),
  );
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `provider-wallet-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), options, results }, null, 2));
  console.log(`results: ${file}`);
  if (results.some((row) => row.errors > 0 || !row.balancesAgree || !row.ledgerSound)) process.exitCode = 1;
}

await main();
