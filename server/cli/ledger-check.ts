/**
 * `npm run ledger:check`: checks the ledger's invariants (architecture §5) on the database the
 * server uses and says whether the books are sound.
 *
 *   npm run ledger:check                 readable report
 *   npm run ledger:check -- --json       the report as JSON (bigints as strings)
 *
 * The database is the server's: DATABASE_URL (PostgreSQL) when set, else PGlite under DATA_DIR
 * (default ./var/db, relative to the project root), read through server/config.ts like the server.
 * PGlite is embedded and single-process: with the embedded database, stop the server first —
 * two processes on one PGlite folder corrupt it. PostgreSQL can be checked while the server runs:
 * the check reads one consistent snapshot (a read-only repeatable-read transaction).
 *
 * Exit status: 0 the ledger is sound, 1 it is not, 2 usage, configuration or connection error.
 * Nothing is written: migrations are not applied and a missing PGlite folder is not created.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../config';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { projectRoot } from '../project-root';
import { checkLedger, type LedgerCheckReport } from '../modules/wallet';

const USAGE = `usage: npm run ledger:check [-- --json]

Checks the ledger of the server's database (DATABASE_URL, else PGlite under DATA_DIR).
  --json      print the report as JSON
  -h, --help  this text
Exit status: 0 sound, 1 not sound, 2 usage or connection error.
With PGlite (no DATABASE_URL), stop the server first: PGlite is single-process.`;

/** The checker's queries stop at this many items per problem class. */
const CHECKER_LIMIT = 100;
/** Items of each problem class shown in the readable report. */
const SHOWN_ITEMS = 5;

class UsageError extends Error {}

interface Options {
  json: boolean;
  help: boolean;
}

function parseArgs(args: string[]): Options {
  const options: Options = { json: false, help: false };
  for (const arg of args) {
    if (arg === '--json') options.json = true;
    else if (arg === '-h' || arg === '--help') options.help = true;
    else throw new UsageError(`unknown argument ${arg}`);
  }
  return options;
}

/** Where the report says it looked: a URL without its password, or the PGlite folder. */
function describeTarget(url: string | undefined, dataDir: string): string {
  if (!url) return `PGlite ${dataDir}`;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return `PostgreSQL ${parsed.toString()}`;
  } catch {
    return 'PostgreSQL (unparsable DATABASE_URL)';
  }
}

async function open(url: string | undefined, dataDir: string): Promise<DatabaseHandle> {
  // openDatabase would create an empty PGlite database where there is none: refuse instead.
  if (!url && !existsSync(join(dataDir, 'PG_VERSION')))
    throw new UsageError(`no PGlite database in ${dataDir} (set DATA_DIR or DATABASE_URL)`);
  const handle = await openDatabase({ url, dataDir, poolSize: 1 });
  try {
    const result = (await handle.db.execute(sql`SELECT to_regclass('ledger_transfers') IS NOT NULL AS ok`)) as unknown as {
      rows: { ok: boolean }[];
    };
    if (!result.rows[0]?.ok)
      throw new UsageError('the database has no ledger tables: start the server once (it applies the migrations)');
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

type ProblemClass = Exclude<keyof LedgerCheckReport, 'transfers' | 'accounts' | 'auditEntries' | 'isSound'>;

const PROBLEM_CLASSES: { key: ProblemClass; title: string; format: (item: never) => string }[] = [
  {
    key: 'unbalancedTransfers',
    title: 'transfers whose postings do not sum to zero',
    format: (item: LedgerCheckReport['unbalancedTransfers'][number]) =>
      `transfer ${item.transferId}: ${item.currency} postings sum to ${item.sumMinor}`,
  },
  { key: 'transfersWithoutPostings', title: 'transfers without postings', format: (id: number) => `transfer ${id}` },
  {
    key: 'currencyMismatches',
    title: 'postings in another currency than their account or transfer',
    format: (id: number) => `posting ${id}`,
  },
  {
    key: 'balanceMismatches',
    title: 'cached balances that differ from their postings',
    format: (item: LedgerCheckReport['balanceMismatches'][number]) =>
      `account ${item.accountId}: cached ${item.cachedMinor}, postings ${item.postedMinor}`,
  },
  { key: 'negativePlayerAccounts', title: 'negative player balances', format: (id: number) => `account ${id}` },
  { key: 'repeatedKeys', title: 'idempotency keys applied more than once', format: (key: string) => `key ${key}` },
  { key: 'transfersWithoutAudit', title: 'transfers missing from the audit log', format: (id: number) => `transfer ${id}` },
  {
    key: 'debtMismatches',
    title: "players' open debts that differ from the house's player_debt accounts",
    format: (item: LedgerCheckReport['debtMismatches'][number]) =>
      `${item.siteId} ${item.currency}: debts owe ${item.owedMinor}, ledger ${item.ledgerMinor}`,
  },
  {
    key: 'auditProblems',
    title: 'audit chain breaks',
    format: (item: LedgerCheckReport['auditProblems'][number]) => `${item.stream} #${item.seq}: ${item.problem}`,
  },
];

/**
 * The checker's queries have no ORDER BY, so its items come in whatever order the plan gives;
 * sorted by id, the first items shown are the oldest problems.
 */
function sortedReport(report: LedgerCheckReport): LedgerCheckReport {
  const byNumber = (a: number, b: number) => a - b;
  return {
    ...report,
    unbalancedTransfers: [...report.unbalancedTransfers].sort((a, b) => a.transferId - b.transferId),
    transfersWithoutPostings: [...report.transfersWithoutPostings].sort(byNumber),
    currencyMismatches: [...report.currencyMismatches].sort(byNumber),
    balanceMismatches: [...report.balanceMismatches].sort((a, b) => a.accountId - b.accountId),
    negativePlayerAccounts: [...report.negativePlayerAccounts].sort(byNumber),
    repeatedKeys: [...report.repeatedKeys].sort(),
    transfersWithoutAudit: [...report.transfersWithoutAudit].sort(byNumber),
  };
}

function formatReport(report: LedgerCheckReport, target: string): string {
  const lines = [
    `ledger check of ${target}`,
    `  transfers      ${report.transfers}`,
    `  accounts       ${report.accounts}`,
    `  audit entries  ${report.auditEntries}`,
    '',
  ];
  for (const { key, title, format } of PROBLEM_CLASSES) {
    const items = report[key] as never[];
    const count = items.length >= CHECKER_LIMIT && key !== 'auditProblems' ? `${items.length}+` : String(items.length);
    lines.push(`  ${items.length === 0 ? 'ok  ' : 'FAIL'} ${title}: ${count}`);
    for (const item of items.slice(0, SHOWN_ITEMS)) lines.push(`         ${format(item)}`);
    if (items.length > SHOWN_ITEMS) lines.push(`         … and ${items.length - SHOWN_ITEMS} more`);
  }
  lines.push('', report.isSound ? 'the ledger is sound' : 'the ledger is NOT sound');
  return lines.join('\n');
}

/** The driver's own words: drizzle wraps them in "Failed query: …" with the query and its parameters. */
function describeError(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause instanceof Error; depth++) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

const jsonReplacer = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

async function main(args: string[]): Promise<number> {
  let options: Options;
  try {
    options = parseArgs(args);
  } catch (error) {
    console.error(`ledger:check: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }

  let handle: DatabaseHandle | undefined;
  let target = 'the database';
  try {
    const config = loadConfig();
    const dataDir = resolve(projectRoot(), config.DATA_DIR);
    target = describeTarget(config.DATABASE_URL, dataDir);
    handle = await open(config.DATABASE_URL, dataDir);
  } catch (error) {
    console.error(`ledger:check: cannot open ${target}: ${describeError(error)}`);
    return 2;
  }

  try {
    // One snapshot: a server writing meanwhile cannot make a sound ledger look broken.
    const report = sortedReport(
      await handle.db.transaction((tx) => checkLedger(tx), { isolationLevel: 'repeatable read', accessMode: 'read only' }),
    );
    if (options.json) console.log(JSON.stringify({ database: handle.kind, ...report }, jsonReplacer, 2));
    else console.log(formatReport(report, target));
    return report.isSound ? 0 : 1;
  } catch (error) {
    console.error(`ledger:check: the check failed on ${target}: ${describeError(error)}`);
    return 2;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

process.exitCode = await main(process.argv.slice(2));
