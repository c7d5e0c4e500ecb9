/**
 * Seamless-wallet round trips per second through the provider API (issue 5: "wallet bet+win
 * round trips per second through the provider API on PostgreSQL"; issue 12: ≥ 500/s on
 * PostgreSQL; architecture §7: speed targets live in bench/, never in timed assertions).
 *
 *   npm run build && npm run bench:provider              10 s per database, 10 workers, 200 players
 *   npm run bench:provider -- --seconds 5 --workers 20   shorter run, more concurrency
 *   BENCH_DATABASE_URL=postgres://user@host/db npm run bench:provider
 *
 * For each database (PGlite in a temporary data folder; PostgreSQL in a scratch database created
 * on BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, dropped
 * afterwards) it applies the migrations, seeds the demo content and gives --players players a
 * deposit and a provider session each in this process, then starts the production build
 * (build/server/main.js, with the demo provider enabled) on 127.0.0.1 as the site runs, and plays
 * the aggregator's side from this process, first for WARM_UP_SECONDS unmeasured, then the
 * measured run: --workers concurrent loops for --seconds, each playing
 * rounds of a random free player, a signed bet and then a signed win (zero or more) over HTTP,
 * counting a round when both answered OK. It prints rounds/s (one round = bet + win = two
 * requests), requests/s, p50/p99 round latency, and checks afterwards that every player's balance
 * is what the answers add up to and that the ledger is sound. On PostgreSQL pgbench TPC-B (-c
 * workers, same seconds) runs on the same server right after, and the table shows the ratio and
 * issue 12's goal. Results go to bench/results/provider-wallet-<timestamp>.json (ignored by git).
 * Exit status 1 when a round failed, a balance disagrees or the ledger is not sound.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { DatabaseHandle } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { seedContent } from '../server/modules/content';
import { providerClient, type ProviderClient, type Send, DEMO_PROVIDER } from '../server/modules/provider-wallet';
import { checkLedger, createWalletService, house, move, player } from '../server/modules/wallet';
import { users } from '../server/db/schema';
import { createServices } from '../server/services';
import { KeepAliveClient } from './keep-alive-client';
import { percentile, pgbenchTpcB, readDatabaseBenchOptions, type DatabaseBenchOptions } from './database-bench';
import {
  RESULTS_DIR,
  benchServerUrl,
  startServer,
  stopServer,
  WARM_UP_SECONDS,
  withScratchDatabase,
  type DatabaseKind,
} from './http-rounds';

const GAME = 'fox-fortune';
const DEPOSIT_MINOR = 1_000_000_000n;

interface Result {
  database: DatabaseKind;
  workers: number;
  players: number;
  seconds: number;
  rounds: number;
  roundsPerSecond: number;
  requestsPerSecond: number;
  roundLatencyMs: { p50: number; p99: number; max: number };
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
async function benchDatabase(kind: DatabaseKind, options: DatabaseBenchOptions): Promise<Result> {
  return withScratchDatabase(kind, 'bench-provider', async (scratch) => {
    process.stdout.write(`  ${kind}: ${options.players} players with a deposit and a provider session … `);
    const handle = await scratch.open();
    await runMigrations(handle);
    await seedContent(handle.db);
    const services = createServices(handle.db);
    const site = await services.sites.resolveSite('127.0.0.1');
    const players = await preparePlayers(handle, services, site, options.players);
    await handle.close();
    console.log('ready');

    // The production build in a process of its own, as the site runs; the aggregator's side (this process) signs and sends.
    const server = await startServer({ ...scratch.serverEnv, DEMO_GAME_PROVIDER: '1' });
    // Each worker its own kept-alive connection and a lean client (keep-alive-client.ts): on two
    // cores the aggregator's CPU is taken from the server and the database being measured.
    const { hostname, port } = new URL(server.base);
    const connections = Array.from({ length: options.workers }, () => new KeepAliveClient(hostname, Number(port)));
    const clients = connections.map((connection) => {
      const send: Send = async (path, init) => {
        const answer = await connection.post(path, init.headers as Record<string, string>, String(init.body));
        return { status: answer.status, json: async () => JSON.parse(answer.text) as unknown };
      };
      return providerClient(send, DEMO_PROVIDER);
    });
    let measured: Measured;
    try {
      process.stdout.write(`  ${kind}: warm-up, ${options.workers} workers × ${WARM_UP_SECONDS} s … `);
      const warmUp = await playProviderRounds(clients, players, site.defaultCurrency, { ...options, seconds: WARM_UP_SECONDS });
      console.log(`${warmUp.roundsPerSecond} rounds/s, not counted`);
      process.stdout.write(`  ${kind}: ${options.workers} workers × ${options.seconds} s of bet + win … `);
      measured = await playProviderRounds(clients, players, site.defaultCurrency, options);
      console.log(`${measured.roundsPerSecond} rounds/s`);
      // The warm-up's rounds are in the balances checked below; its errors fail the bench as the run's do.
      measured = {
        ...measured,
        errors: measured.errors + warmUp.errors,
        errorSamples: [...warmUp.errorSamples.map((sample) => `warm-up: ${sample}`), ...measured.errorSamples],
      };
    } finally {
      for (const connection of connections) connection.close();
      await stopServer(server.child);
    }

    process.stdout.write(`  ${kind}: balances and ledger check … `);
    const after = await scratch.open();
    try {
      const wallet = createWalletService(after.db);
      let balancesAgree = true;
      for (const who of players)
        if ((await wallet.balances(site.id, who.uid, site.defaultCurrency)).main !== who.expected) balancesAgree = false;
      const report = await checkLedger(after.db);
      console.log(
        `${balancesAgree ? 'balances agree' : 'BALANCES DISAGREE'}, ledger ${report.isSound ? 'sound' : `NOT SOUND ${JSON.stringify(report)}`} (${report.transfers} transfers)`,
      );
      return {
        database: kind,
        workers: options.workers,
        players: options.players,
        ...measured,
        balancesAgree,
        ledgerSound: report.isSound,
      };
    } finally {
      await after.close();
    }
  });
}

interface BenchPlayer {
  uid: number;
  token: string;
  expected: bigint;
  isBusy: boolean;
}

/** Players of the site, each with a deposit and a provider session for the bench's game. */
async function preparePlayers(
  handle: DatabaseHandle,
  services: ReturnType<typeof createServices>,
  site: { id: string; defaultCurrency: string },
  count: number,
): Promise<BenchPlayer[]> {
  const runId = randomBytes(3).toString('hex');
  const rows = await handle.db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => ({
        siteId: site.id,
        login: `bench-provider-${runId}-${i}@example.com`,
        currency: site.defaultCurrency,
        locale: 'en',
      })),
    )
    .returning({ id: users.id });
  const players: BenchPlayer[] = [];
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
  return players;
}

type Measured = Pick<
  Result,
  'seconds' | 'rounds' | 'roundsPerSecond' | 'requestsPerSecond' | 'roundLatencyMs' | 'errors' | 'errorSamples'
>;

/** --workers loops for --seconds, each playing a free player's round: a signed bet, then a signed win (zero or more). */
async function playProviderRounds(
  clients: ProviderClient[],
  players: BenchPlayer[],
  currency: string,
  options: DatabaseBenchOptions,
): Promise<Measured> {
  const runId = randomBytes(3).toString('hex');
  const latencies: number[] = [];
  const errorSamples = new Map<string, number>();
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  await Promise.all(
    clients.map(async (client, worker) => {
      for (let n = 0; performance.now() < deadline; n++) {
        // A player plays one round at a time, as a game client does.
        // A random free player: at most workers − 1 of them are busy, and there are at least as many players as workers.
        let who = players[randomInt(players.length)]!;
        while (who.isBusy) who = players[randomInt(players.length)]!;
        who.isBusy = true;
        const roundId = `${runId}-${worker}-${n}`;
        const common = { token: who.token, player_id: String(who.uid), round_id: roundId, currency };
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
  return {
    seconds: round2(elapsed),
    rounds: latencies.length,
    roundsPerSecond: Math.round(latencies.length / elapsed),
    requestsPerSecond: Math.round((2 * latencies.length) / elapsed),
    roundLatencyMs: {
      p50: round2(percentile(sorted, 0.5)),
      p99: round2(percentile(sorted, 0.99)),
      max: round2(sorted[sorted.length - 1] ?? 0),
    },
    errors,
    errorSamples: [...errorSamples].map(([message, count]) => `${count}× ${message}`).slice(0, 5),
  };
}

async function main() {
  const options = readDatabaseBenchOptions(
    'usage: npm run bench:provider [-- --seconds N --workers N --players N --only pglite|postgres]',
    200,
  );
  // Each worker plays a player nobody else is playing: there must be enough of them.
  if (options.players < options.workers) throw new Error('--players must be at least --workers');
  const results: Result[] = [];
  console.log(
    `provider wallet bench: bet + win rounds through POST /provider-api/${DEMO_PROVIDER.name}/… over HTTP on 127.0.0.1`,
  );

  for (const kind of ['pglite', 'postgres'] as const) {
    if (options.only && options.only !== kind) continue;
    const result = await benchDatabase(kind, options);
    if (kind === 'postgres') {
      process.stdout.write(`  pgbench TPC-B -c ${options.workers} -T ${options.seconds} on the same server … `);
      const tps = await pgbenchTpcB(benchServerUrl(), options.workers, options.seconds);
      console.log(`${tps} tps`);
      results.push({ ...result, pgbenchTps: tps, ratioToPgbench: Math.round((100 * result.roundsPerSecond) / tps) / 100 });
    } else results.push(result);
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
