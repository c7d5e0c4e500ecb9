/**
 * Casino rounds per second with an active bonus next to without one, in the same run on the same
 * server process (issue 13: "`bench/` gains casino rounds per second with an active bonus next to
 * without one (same run), printed as a ratio"; architecture §7: speed lives in bench/).
 *
 *   npm run build && npm run bench:bonus-rounds              10 players per group, 8 s each, both databases
 *   npm run bench:bonus-rounds -- --seconds 5 --players 10 --only pglite
 *
 * For each database (scratch, as bench:rounds) it prepares three groups of --players players each:
 * real money and no bonus; real money and an active casino bonus (stakes paid by real money, the
 * bonus wagered); an active casino bonus and no real money (stakes paid by the bonus, payouts back
 * to it). The bonus is the site's welcome template granted and activated through the bonus service
 * on a qualifying deposit of 500.00 (bonus 500, 35× to wager, maximum stake 5.00 above the
 * bench's 1.00), so it neither converts nor runs dry during a run. It counts the statements of a
 * round for each group in process, starts build/server/main.js on 127.0.0.1, warms it up for
 * WARM_UP_SECONDS with every player, then lets each group play dice and slot rounds (as bench:rounds) for
 * --seconds one group after the other. It prints rounds/s, p50/p99, statements per round and the
 * ratio of each bonus group to the group without, and writes bench/results/bonus-rounds.json.
 * Afterwards: the ledger check, each player's bonus account against the sum of their active
 * casino bonuses' balance_minor, and every bonus still active. Exit status 1 when a round failed
 * or any check did not hold.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { and, eq, inArray } from 'drizzle-orm';
import type { DatabaseHandle } from '../server/db/client';
import { bonuses } from '../server/db/schema';
import { checkLedger } from '../server/modules/wallet';
import { createServices } from '../server/services';
import {
  RESULTS_DIR,
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
  type Player,
  type PlayStats,
  type Services,
  type Site,
  databaseChoice,
  positiveInteger,
} from './http-rounds';

const USAGE = `npm run bench:bonus-rounds -- [--seconds 8] [--players 10] [--only pglite|postgres]`;
const DEPOSIT_MINOR = 1_000_000_000n;
const BONUS_TEMPLATE = 'welcome';
/** The welcome match's cap: a bonus of 500.00 with 17,500.00 to wager, far beyond a run's rounds. */
const QUALIFYING_DEPOSIT_MINOR = 50_000n;

const GROUPS = [
  { name: 'no bonus', prefix: 'bench-bonus-none', depositMinor: DEPOSIT_MINOR, hasBonus: false },
  { name: 'bonus + main', prefix: 'bench-bonus-main', depositMinor: DEPOSIT_MINOR, hasBonus: true },
  { name: 'bonus, main 0', prefix: 'bench-bonus-only', depositMinor: 0n, hasBonus: true },
] as const;
type GroupName = (typeof GROUPS)[number]['name'];

interface Options {
  seconds: number;
  players: number;
  only?: DatabaseKind;
}

interface GroupResult extends PlayStats {
  group: GroupName;
  statementsPerRound: number;
  /** Rounds per second over the group without a bonus in the same run. */
  ratioToNoBonus: number;
}

interface DatabaseResult {
  database: DatabaseKind;
  groups: GroupResult[];
  ledgerSound: boolean;
  /** Players whose bonus account is not the sum of their active casino bonuses' balances. */
  bonusAccountMismatches: string[];
  /** Bonuses of the bench that were no longer active at the end (converted, run dry): their group measured something else. */
  bonusesNotActive: number;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '8' },
      players: { type: 'string', default: '10' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return {
    seconds: positiveInteger('seconds', values.seconds),
    players: positiveInteger('players', values.players),
    only: databaseChoice(values.only),
  };
}

/** The bonus a player of a bonus group holds: granted and activated as a chosen offer would be. */
async function activeBonus(services: Services, site: Site, who: Player): Promise<number> {
  const { row } = await services.bonuses.grantAndActivate({
    siteId: site.id,
    userId: who.uid,
    currency: site.defaultCurrency,
    templateId: BONUS_TEMPLATE,
    source: 'operator',
    sourceRef: 'bench:bonus-rounds',
    depositMinor: QUALIFYING_DEPOSIT_MINOR,
  });
  if (row.status !== 'active') throw new Error(`the bench bonus of player ${who.uid} is ${row.status}, not active`);
  return row.id;
}

interface PreparedGroup {
  name: GroupName;
  players: Player[];
  statementsPerRound: number;
}

async function prepareGroups(
  handle: DatabaseHandle,
  count: number,
): Promise<{ site: Site; groups: PreparedGroup[]; bonusIds: number[] }> {
  const seeded = await seededSite(handle);
  const groups: PreparedGroup[] = [];
  const bonusIds: number[] = [];
  for (const group of GROUPS) {
    const players = await createPlayers(handle, seeded, { count, prefix: group.prefix, depositMinor: group.depositMinor });
    if (group.hasBonus) for (const who of players) bonusIds.push(await activeBonus(seeded.services, seeded.site, who));
    const statements = await statementsPerRound(handle, seeded.services, players[0]!);
    groups.push({ name: group.name, players, statementsPerRound: statements });
  }
  return { site: seeded.site, groups, bonusIds };
}

/** Each player's bonus accounts against their active bonuses' balances (decision 0008; the bonus service's own check). */
async function bonusAccountMismatches(handle: DatabaseHandle, site: Site, players: Player[]): Promise<string[]> {
  const services = createServices(handle.db);
  const found = await Promise.all(
    players.map((who) => services.bonuses.balanceMismatches(site.id, who.uid, site.defaultCurrency)),
  );
  return found.flat();
}

async function countNotActive(handle: DatabaseHandle, bonusIds: number[]): Promise<number> {
  if (bonusIds.length === 0) return 0;
  const rows = await handle.db
    .select({ id: bonuses.id })
    .from(bonuses)
    .where(and(inArray(bonuses.id, bonusIds), eq(bonuses.status, 'active')));
  return bonusIds.length - rows.length;
}

async function playGroups(base: string, database: DatabaseKind, groups: PreparedGroup[], seconds: number) {
  await playRounds(
    base,
    groups.flatMap((group) => group.players),
    WARM_UP_SECONDS,
  );
  const measured: (PlayStats & { group: GroupName; statementsPerRound: number })[] = [];
  for (const group of groups) {
    process.stdout.write(`  ${database}: ${group.name}, ${group.players.length} players × ${seconds} s … `);
    const stats = await playRounds(base, group.players, seconds);
    console.log(`${stats.roundsPerSecond} rounds/s`);
    measured.push({ group: group.name, statementsPerRound: group.statementsPerRound, ...stats });
  }
  const baseline = measured[0]?.roundsPerSecond ?? 0;
  return measured.map((run) => ({ ...run, ratioToNoBonus: baseline > 0 ? round2(run.roundsPerSecond / baseline) : 0 }));
}

async function benchDatabase(database: DatabaseKind, options: Options): Promise<DatabaseResult> {
  return withScratchDatabase(database, 'bench-bonus-rounds', async (scratch) => {
    process.stdout.write(`  ${database}: preparing ${GROUPS.length} × ${options.players} players … `);
    const handle = await scratch.open();
    const { site, groups, bonusIds } = await prepareGroups(handle, options.players);
    await handle.close();
    console.log(`ready (statements per round: ${groups.map((group) => `${group.name} ${group.statementsPerRound}`).join(', ')})`);

    const server = await startServer(scratch.serverEnv);
    let results: GroupResult[];
    try {
      results = await playGroups(server.base, database, groups, options.seconds);
    } finally {
      await stopServer(server.child);
    }
    const after = await scratch.open();
    try {
      const players = groups.flatMap((group) => group.players);
      return {
        database,
        groups: results,
        ledgerSound: (await checkLedger(after.db)).isSound,
        bonusAccountMismatches: await bonusAccountMismatches(after, site, players),
        bonusesNotActive: await countNotActive(after, bonusIds),
      };
    } finally {
      await after.close();
    }
  });
}

function printTable(results: DatabaseResult[]): void {
  console.table(
    results.flatMap((result) =>
      result.groups.map((run) => ({
        database: result.database,
        group: run.group,
        players: run.players,
        'rounds/s': run.roundsPerSecond,
        'p50 ms': run.latencyMs.p50,
        'p99 ms': run.latencyMs.p99,
        'max stall ms': run.maxStallMs,
        'stmts/round': run.statementsPerRound,
        'ratio to no bonus': run.ratioToNoBonus,
        errors: run.errors,
      })),
    ),
  );
  for (const result of results) {
    const checks = `ledger ${result.ledgerSound ? 'sound' : 'NOT sound'}, bonus accounts ${result.bonusAccountMismatches.length === 0 ? 'match' : 'DO NOT match'}`;
    console.log(`  ${result.database}: ${checks}, bonuses no longer active ${result.bonusesNotActive}`);
    for (const mismatch of result.bonusAccountMismatches.slice(0, 5)) console.log(`    ${mismatch}`);
    for (const run of result.groups)
      for (const sample of run.errorSamples) console.log(`  ${result.database} ${run.group}: ${sample}`);
  }
}

async function main(): Promise<void> {
  const options = readOptions();
  const databases = (['pglite', 'postgres'] as const).filter((kind) => !options.only || options.only === kind);
  console.log(
    `casino rounds with and without an active bonus (production build): ${options.players} players per group, ${options.seconds} s each`,
  );
  const results: DatabaseResult[] = [];
  for (const database of databases) results.push(await benchDatabase(database, options));
  printTable(results);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, 'bonus-rounds.json');
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), options, results }, null, 2)}\n`);
  console.log(`written to ${file}`);
  const isBroken = results.some(
    (result) =>
      !result.ledgerSound ||
      result.bonusAccountMismatches.length > 0 ||
      result.bonusesNotActive > 0 ||
      result.groups.some((run) => run.errors > 0),
  );
  if (isBroken) {
    console.error('a round failed, the ledger is not sound, a bonus account does not match its bonuses, or a bonus ended');
    process.exitCode = 1;
  }
}

await main();
