/**
 * Provider rounds per second through the demo game aggregator (issue 15: "bench/ measures
 * provider rounds per second through it"; architecture §7: speed lives in bench/, never in timed
 * assertions).
 *
 *   npm run bench:aggregator                              10 s per database, 10 workers, 100 players
 *   npm run bench:aggregator -- --seconds 5 --workers 20  shorter run, more concurrency
 *   BENCH_DATABASE_URL=postgres://user@host/db npm run bench:aggregator
 *
 * For each database (PGlite in memory; PostgreSQL in a scratch database bench_aggregator_<random>
 * on BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, dropped
 * afterwards) it migrates and seeds, serves the whole site on 127.0.0.1, starts the aggregator as
 * its own process (tsx) pointed at it, gives --players players a deposit and a real-money launch
 * of a slot each, then runs --workers loops for --seconds: each plays one Fox Fortune spin of a
 * free player through the aggregator's game API (the aggregator then sends bet, win and round end
 * to our wallet over signed HTTP: three wallet requests per round). It prints rounds/s and p50/p99
 * round latency, then checks that every balance is what the rounds' answers add up to and that the
 * ledger is sound. Results go to bench/results/aggregator-<timestamp>.json (ignored by git); exit
 * status 1 when a round failed, a balance disagrees or the ledger is not sound.
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
import { createHttpApp } from '../server/http';
import { NO_PROXY } from '../server/web/client-address';
import { seedContent } from '../server/modules/content';
import { DEMO_PROVIDER } from '../server/modules/provider-wallet';
import { checkLedger, house, move, player } from '../server/modules/wallet';
import { users } from '../server/db/schema';
import { createServices } from '../server/services';
import { startAggregatorProcess } from '../server/game-aggregator/process';
import { adminQuery, percentile, readDatabaseBenchOptions, withDatabaseName, type DatabaseBenchOptions } from './database-bench';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_DIR = join(ROOT, 'bench', 'results');
const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/test';
const GAME = 'fox-fortune';
const DEPOSIT_MINOR = 1_000_000_000n;
const STAKES = [10n, 20n, 50n, 100n, 200n, 500n, 1000n];

interface Result {
  database: 'pglite' | 'postgres';
  workers: number;
  players: number;
  seconds: number;
  rounds: number;
  roundsPerSecond: number;
  walletRequestsPerSecond: number;
  roundLatencyMs: { p50: number; p99: number; max: number };
  errors: number;
  errorSamples: string[];
  balancesAgree: boolean;
  ledgerSound: boolean;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

async function dropScratch(serverUrl: string, name: string): Promise<void> {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

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
  // Wallet duplicates off: every round is three wallet requests, so the figures compare across runs.
  const aggregator = await startAggregatorProcess({
    entry: join(ROOT, 'server', 'game-aggregator', 'main.ts'),
    execArgv: ['--import', 'tsx'],
    env: { LOG_LEVEL: 'warn', AGGREGATOR_DUPLICATE_RATE: '0', AGGREGATOR_WALLET_TIMEOUT_MS: '30000' },
  });
  services.gameLaunch.connect({ url: aggregator.url, provider: DEMO_PROVIDER });
  const runId = randomBytes(3).toString('hex');

  try {
    process.stdout.write(`  ${database}: ${options.players} players with a deposit and a real-money launch … `);
    const rows = await handle.db
      .insert(users)
      .values(
        Array.from({ length: options.players }, (_, i) => ({
          siteId: site.id,
          login: `bench-aggregator-${runId}-${i}@example.com`,
          currency: site.defaultCurrency,
          locale: 'en',
        })),
      )
      .returning({ id: users.id });
    const players: { uid: number; url: string; expected: bigint; isBusy: boolean }[] = [];
    for (const { id } of rows) {
      await services.wallet.transfer({
        siteId: site.id,
        userId: id,
        kind: 'deposit',
        currency: site.defaultCurrency,
        amountMinor: DEPOSIT_MINOR,
        legs: move(house('psp_clearing'), player(id, 'main'), DEPOSIT_MINOR),
        idempotencyKey: `bench-aggregator-${runId}-${id}`,
        actor: 'psp:bench',
        reason: 'bench deposit',
      });
      const { url } = await services.gameLaunch.launch({
        siteId: site.id,
        uid: id,
        sysname: GAME,
        mode: 'real',
        currency: site.defaultCurrency,
        language: 'en',
        returnUrl: `${base}/game/${GAME}`,
        walletUrl: base,
      });
      players.push({ uid: id, url, expected: DEPOSIT_MINOR, isBusy: false });
    }
    console.log('ready');

    const latencies: number[] = [];
    const errorSamples = new Map<string, number>();
    let errors = 0;
    process.stdout.write(`  ${database}: ${options.workers} workers × ${options.seconds} s of spins … `);
    const started = performance.now();
    const deadline = started + options.seconds * 1000;
    await Promise.all(
      Array.from({ length: options.workers }, async () => {
        while (performance.now() < deadline) {
          // A player spins one round at a time, as the game client does.
          const free = players.filter((candidate) => !candidate.isBusy);
          const who = free[randomInt(free.length)];
          if (!who) {
            await new Promise((resolve) => setImmediate(resolve));
            continue;
          }
          who.isBusy = true;
          const stake = STAKES[randomInt(STAKES.length)]!;
          const begin = performance.now();
          try {
            const response = await fetch(`${who.url}/rounds`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ input: { stake: stake.toString() } }),
            });
            const body = (await response.json()) as { round?: { win: string }; error?: { code: string } };
            if (!response.ok || !body.round) throw new Error(`round: ${body.error?.code ?? response.status}`);
            who.expected += BigInt(body.round.win) - stake;
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
      walletRequestsPerSecond: Math.round((3 * latencies.length) / elapsed),
      roundLatencyMs: {
        p50: round2(percentile(sorted, 0.5)),
        p99: round2(percentile(sorted, 0.99)),
        max: round2(sorted[sorted.length - 1] ?? 0),
      },
      errors,
      errorSamples: [...errorSamples].map(([message, count]) => `${count}× ${message}`).slice(0, 5),
      balancesAgree,
      ledgerSound: report.isSound,
    };
  } finally {
    services.gameLaunch.connect(undefined);
    await aggregator.stop();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function main() {
  const options = readDatabaseBenchOptions(
    'usage: npm run bench:aggregator [-- --seconds N --workers N --players N --pool N --only pglite|postgres]',
    100,
  );
  if (options.players < options.workers) throw new Error('--players must be at least --workers');
  const results: Result[] = [];
  console.log(
    `aggregator bench: ${GAME} spins through the demo aggregator, which calls POST /provider-api/${DEMO_PROVIDER.name}/…`,
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
      name = `bench_aggregator_${randomBytes(4).toString('hex')}`;
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
        results.push(await benchDatabase(handle, options));
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
      'wallet requests/s': row.walletRequestsPerSecond,
      'p50 ms': row.roundLatencyMs.p50,
      'p99 ms': row.roundLatencyMs.p99,
      errors: row.errors,
    })),
  );
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `aggregator-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), options, results }, null, 2));
  console.log(`results: ${file}`);
  if (results.some((row) => row.errors > 0 || !row.balancesAgree || !row.ledgerSound)) process.exitCode = 1;
}

await main();
