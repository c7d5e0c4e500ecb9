/**
 * `npm run ledger:check` as an operator runs it: a separate process on the server's database
 * (architecture §5: the ledger invariants are checkable after any load). It exits 0 on a sound
 * ledger, 1 once a posting has been tampered with, 2 when it cannot reach a database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { runMigrations } from '../db/migrate';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../test/databases';
import { users, sites } from '../db/schema';
import { house, move, player, createWalletService } from '../modules/wallet';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = fileURLToPath(new URL('./ledger-check.ts', import.meta.url));
const SITE = 'ledger-check-test';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function runCli(env: NodeJS.ProcessEnv, args: string[] = []): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}

/** Deposits, bets and a win for two players: a small ledger with several accounts and streams. */
async function writeSoundLedger(handle: DatabaseHandle): Promise<void> {
  await handle.db.insert(sites).values({
    id: SITE,
    name: 'Ledger check test',
    hosts: ['ledger-check.test'],
    defaultCurrency: 'EUR',
    currencies: ['EUR'],
    locales: ['en'],
  });
  const players = await handle.db
    .insert(users)
    .values([1, 2].map((n) => ({ siteId: SITE, login: `p${n}@example.com`, currency: 'EUR', locale: 'en' })))
    .returning({ id: users.id });
  const wallet = createWalletService(handle.db);
  const base = { siteId: SITE, currency: 'EUR', actor: 'system', reason: 'ledger:check test' };
  for (const { id } of players) {
    await wallet.transfer({
      ...base,
      userId: id,
      kind: 'deposit',
      amountMinor: 5_000n,
      legs: move(house('psp_clearing'), player(id, 'main'), 5_000n),
      idempotencyKey: `dep-${id}`,
    });
    await wallet.transfer({
      ...base,
      userId: id,
      kind: 'bet',
      amountMinor: 1_200n,
      legs: move(player(id, 'main'), house('game'), 1_200n),
    });
    await wallet.transfer({
      ...base,
      userId: id,
      kind: 'win',
      amountMinor: 300n,
      legs: move(house('game'), player(id, 'main'), 300n),
    });
  }
}

/** Edits one posting the way an attacker with table rights would: trigger off, row changed, trigger on. */
async function tamperWithOnePosting(handle: DatabaseHandle): Promise<void> {
  await handle.db.execute(sql`ALTER TABLE ledger_postings DISABLE TRIGGER ledger_postings_append_only`);
  await handle.db.execute(
    sql`UPDATE ledger_postings SET amount_minor = amount_minor + 7 WHERE id = (SELECT max(id) FROM ledger_postings)`,
  );
  await handle.db.execute(sql`ALTER TABLE ledger_postings ENABLE TRIGGER ledger_postings_append_only`);
}

describe.each(testDatabaseKinds())('npm run ledger:check on %s', (kind) => {
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  let env: NodeJS.ProcessEnv;

  /**
   * Runs fn on the database. PGlite is single-process, so the test opens its folder only while
   * it writes and closes it before the CLI opens it, as an operator stops the server first.
   */
  async function withDatabase(fn: (handle: DatabaseHandle) => Promise<void>): Promise<void> {
    if (database) return fn(database.handle);
    const handle = await openDatabase({ dataDir });
    try {
      await fn(handle);
    } finally {
      await handle.close();
    }
  }

  beforeAll(async () => {
    if (kind === 'postgres') {
      database = await createTestDatabase('postgres');
      env = { DATABASE_URL: database.url, DATA_DIR: '' };
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'ledger-check-'));
      env = { DATABASE_URL: '', DATA_DIR: dataDir };
    }
    await withDatabase(async (handle) => {
      await runMigrations(handle);
      await writeSoundLedger(handle);
    });
  });

  afterAll(async () => {
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits 0 and says so on a sound ledger, with the counts', async () => {
    const run = await runCli(env);
    expect(run.stderr).not.toMatch(/ledger:check:/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/transfers\s+6\b/);
    expect(run.stdout).toMatch(/audit entries\s+6\b/);
    expect(run.stdout).toContain('the ledger is sound');
  });

  it('--json prints the report as JSON with the same verdict', async () => {
    const run = await runCli(env, ['--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      database: kind,
      transfers: 6,
      auditEntries: 6,
      isSound: true,
      unbalancedTransfers: [],
      balanceMismatches: [],
    });
  });

  it('exits 1 and names the problems once a posting amount has been edited', async () => {
    await withDatabase(tamperWithOnePosting);
    const run = await runCli(env);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('the ledger is NOT sound');
    expect(run.stdout).toMatch(/FAIL transfers whose postings do not sum to zero: 1\n\s+transfer \d+: EUR postings sum to 7/);
    expect(run.stdout).toMatch(/FAIL cached balances that differ from their postings: 1/);

    const json = await runCli(env, ['--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { isSound: boolean; unbalancedTransfers: { sumMinor: string }[] };
    expect(report.isSound).toBe(false);
    expect(report.unbalancedTransfers).toEqual([expect.objectContaining({ currency: 'EUR', sumMinor: '7' })]);
  });

  it('exits 2 on an unknown option', async () => {
    const run = await runCli(env, ['--bogus']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown argument --bogus');
  });
});

describe('npm run ledger:check without a database', () => {
  it('exits 2 when the PGlite folder holds no database, and does not create one', async () => {
    const missing = join(tmpdir(), `ledger-check-missing-${process.pid}-${Date.now()}`);
    const run = await runCli({ DATABASE_URL: '', DATA_DIR: missing });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no PGlite database');
    expect(existsSync(missing)).toBe(false);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('exits 2 when PostgreSQL has no such database', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    url.pathname = `/ledger_check_missing_${process.pid}`;
    const run = await runCli({ DATABASE_URL: url.toString() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot open PostgreSQL .*does not exist/);
  });
});
