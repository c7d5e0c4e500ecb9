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
 * postgres://postgres@127.0.0.1:5432/test, dropped afterwards) on 127.0.0.1, and warms it up:
 * every player plays for WARM_UP_SECONDS unmeasured (as bench:bonus-rounds does), so the first
 * measured run is not the one that opens the pool's connections and plans each connection's
 * statements (on PostgreSQL that cost a cold server a pause of more than a second). For each player
 * count every player plays one round at a time for --seconds (games.play, mode real, alternating
 * dice-roll and aurora-fortune). On PostgreSQL pgbench TPC-B (-i -s --scale in another scratch
 * database, then -c players -j 2 -T seconds) runs on the same server right after. It prints
 * rounds/s, p50/p99 latency, the longest stall of any player (the longest gap between two of
 * its answers) and the longest pause of the whole server (no answer to anyone), statements per round and the ratios, and writes bench/results/rounds.json.
 * Afterwards the ledger check runs on the database. Exit status 1 when a round failed or the
 * ledger is not sound.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkLedger } from '../server/modules/wallet';
import { pgbenchTpcB } from './database-bench';
import { processCpuMs } from './process-cpu';
import {
  RESULTS_DIR,
  benchServerUrl,
  createPlayers,
  playRounds,
  round2,
  seededSite,
  startServer,
  statementsPerRound,
  stopServer,
  WARM_UP_SECONDS,
  withScratchDatabase,
  type DatabaseKind,
  type PlayStats,
  databaseChoice,
  positiveInteger,
} from './http-rounds';

const DEPOSIT_MINOR = 1_000_000_000n;
const GOAL_PGLITE_ROUNDS_PER_SECOND = 1_000;
const GOAL_POSTGRES_RATIO = 0.5;

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
  return {
    seconds: positiveInteger('seconds', values.seconds),
    players: values.players.split(',').map((item) => positiveInteger('players', item)),
    only: databaseChoice(values.only),
    scale: positiveInteger('scale', values.scale),
  };
}

/** The server's /metrics token: the bench reads how many rounds each shared call carried. */
const METRICS_TOKEN = randomBytes(16).toString('hex');

/** The shared rounds' calls and the rounds they carried so far, from the server's /metrics (web/metrics.ts). */
async function sharedRoundCalls(base: string): Promise<{ calls: number; items: number } | undefined> {
  const answer = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!answer.ok) return undefined;
  const text = await answer.text();
  const series = (name: string) => Number(new RegExp(`^${name}\\{queue="rounds"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { calls: series('shared_calls_total'), items: series('shared_call_items_total') };
}

interface RunResult extends PlayStats {
  /** Our server process's CPU per round (/proc): steadier than the rate on a shared machine. */
  serverCpuMsPerRound?: number;
  /** This process's CPU per round, the players' HTTP client: on two cores, what it takes the server cannot have. */
  clientCpuMsPerRound?: number;
  /** Rounds each shared database call carried (a stale round counts once per try): what group commit saves. */
  roundsPerCall?: number;
  pgbenchTps?: number;
  ratioToPgbench?: number;
  goal: string;
  isGoalMet: boolean;
}

interface DatabaseResult {
  database: DatabaseKind;
  statementsPerRound: number;
  /** The unmeasured warm-up: its rounds count for the ledger check and its errors as any run's. */
  warmUp: PlayStats;
  runs: RunResult[];
  ledgerSound: boolean;
}

async function benchDatabase(database: DatabaseKind, options: Options): Promise<DatabaseResult> {
  return withScratchDatabase(database, 'bench-rounds', async (scratch) => {
    process.stdout.write(`  ${database}: preparing ${Math.max(...options.players)} players … `);
    const handle = await scratch.open();
    const seeded = await seededSite(handle);
    const players = await createPlayers(handle, seeded, {
      count: Math.max(...options.players),
      prefix: 'bench-rounds',
      depositMinor: DEPOSIT_MINOR,
    });
    const statementsPerRoundFigure = await statementsPerRound(handle, seeded.services, players[0]!);
    await handle.close();
    console.log(`ready (${statementsPerRoundFigure} statements per round)`);

    const server = await startServer({ ...scratch.serverEnv, METRICS_TOKEN });
    const runs: RunResult[] = [];
    let warmUp: PlayStats;
    try {
      process.stdout.write(`  ${database}: warm-up, ${players.length} players × ${WARM_UP_SECONDS} s … `);
      warmUp = await playRounds(server.base, players, WARM_UP_SECONDS);
      console.log(`${warmUp.roundsPerSecond} rounds/s (max pause ${warmUp.maxPauseMs} ms), not counted`);
      for (const count of options.players) {
        process.stdout.write(`  ${database}: ${count} players × ${options.seconds} s … `);
        // Read outside the CPU figures: rendering /metrics is the server's work, not the rounds'.
        const callsBefore = await sharedRoundCalls(server.base);
        const cpuBefore = processCpuMs(server.child.pid);
        const clientCpuBefore = process.cpuUsage();
        const measured = await playRounds(server.base, players.slice(0, count), options.seconds);
        const clientCpu = process.cpuUsage(clientCpuBefore);
        const cpuAfter = processCpuMs(server.child.pid);
        const callsAfter = await sharedRoundCalls(server.base);
        const result = await withGoal(database, measured, options);
        const perRound = (cpuMs: number) => Math.round((cpuMs / measured.rounds) * 1000) / 1000;
        if (cpuBefore !== undefined && cpuAfter !== undefined && measured.rounds > 0) {
          result.serverCpuMsPerRound = perRound(cpuAfter - cpuBefore);
        }
        if (measured.rounds > 0) result.clientCpuMsPerRound = perRound((clientCpu.user + clientCpu.system) / 1000);
        if (callsBefore && callsAfter && callsAfter.calls > callsBefore.calls) {
          result.roundsPerCall = round2((callsAfter.items - callsBefore.items) / (callsAfter.calls - callsBefore.calls));
        }
        runs.push(result);
        console.log(`${result.roundsPerSecond} rounds/s${result.pgbenchTps ? ` (pgbench ${result.pgbenchTps} tps)` : ''}`);
      }
    } finally {
      await stopServer(server.child);
    }
    const after = await scratch.open();
    const report = await checkLedger(after.db);
    await after.close();
    return { database, statementsPerRound: statementsPerRoundFigure, warmUp, runs, ledgerSound: report.isSound };
  });
}

/** On PostgreSQL pgbench TPC-B runs right after on the same server: the goal is a ratio to it. */
async function withGoal(database: DatabaseKind, measured: PlayStats, options: Options): Promise<RunResult> {
  if (database === 'pglite')
    return {
      ...measured,
      goal: `≥ ${GOAL_PGLITE_ROUNDS_PER_SECOND}/s`,
      isGoalMet: measured.roundsPerSecond >= GOAL_PGLITE_ROUNDS_PER_SECOND,
    };
  const tps = await pgbenchTpcB(benchServerUrl(), measured.players, options.seconds, options.scale);
  const ratio = round2(measured.roundsPerSecond / tps);
  return {
    ...measured,
    pgbenchTps: tps,
    ratioToPgbench: ratio,
    goal: `≥ ${GOAL_POSTGRES_RATIO} × pgbench`,
    isGoalMet: ratio >= GOAL_POSTGRES_RATIO,
  };
}

function printTable(results: DatabaseResult[]): void {
  const rows = results.flatMap((result) =>
    result.runs.map((run) => ({
      database: result.database,
      players: run.players,
      'rounds/s': run.roundsPerSecond,
      'server CPU ms/round': run.serverCpuMsPerRound ?? '–',
      'client CPU ms/round': run.clientCpuMsPerRound ?? '–',
      'rounds/call': run.roundsPerCall ?? '–',
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
    for (const run of [result.warmUp, ...result.runs])
      for (const sample of run.errorSamples) console.log(`  ${result.database} ${run.players}: ${sample}`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, 'rounds.json');
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), options, results }, null, 2)}\n`);
  console.log(`written to ${file}`);
  const isBroken = results.some((result) => !result.ledgerSound || [result.warmUp, ...result.runs].some((run) => run.errors > 0));
  if (isBroken) {
    console.error('a round failed or the ledger is not sound');
    process.exitCode = 1;
  }
}

await main();
