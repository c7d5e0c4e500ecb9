/**
 * Databases the integration suite runs on: PGlite in memory always, and PostgreSQL too when
 * TEST_DATABASE_URL is set (CI). Each test file gets databases of its own: empty ones for tests
 * of migrating and seeding, and otherwise copies of one migrated and seeded template per run
 * (test/global-setup.ts), which is much faster than migrating and seeding in every file.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../server/db/client';
import { runMigrations, SCHEMA_LOCK_KEY } from '../server/db/migrate';
import { seedContent } from '../server/modules/content';

export type DatabaseKind = 'pglite' | 'postgres';

export function testDatabaseKinds(): DatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDatabase {
  handle: DatabaseHandle;
  /** postgres:// URL of the fresh database (PostgreSQL only), e.g. for a second process. */
  url?: string;
  drop(): Promise<void>;
}

export async function adminQuery(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/**
 * pg's Pool.end() resolves as soon as it has asked its clients to close, before their backends
 * are gone; a DROP … WITH (FORCE) then terminates those backends and the closing client gets a
 * FATAL 57P01 it reports as an unhandled error. Waiting for the sessions to leave avoids it.
 */
export async function waitForNoSessions(name: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await adminQuery('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
    if ((rows[0] as { n: number } | undefined)?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A database name no other test file or concurrent run uses. */
export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
}

/** The URL of another database on the TEST_DATABASE_URL server. */
export function postgresUrl(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  return url.toString();
}

/** What a process does before serving (server/boot.ts), done once per run for the templates. */
export async function migrateAndSeed(handle: DatabaseHandle): Promise<void> {
  await runMigrations(handle);
  await handle.withAdvisoryLock(SCHEMA_LOCK_KEY, (db) => seedContent(db));
}

/** An empty database, for tests of migrating and seeding themselves. */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const handle = await openDatabase({ dataDir: 'memory://' });
    return { handle, drop: () => handle.close() };
  }
  return createPostgresDatabase();
}

/** A migrated and seeded database: a copy of this run's template (test/global-setup.ts). */
export async function createSeededTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const handle = await openPgliteDump(requireTemplate('pgliteTemplateFile'));
    return { handle, drop: () => handle.close() };
  }
  return createPostgresDatabase(requireTemplate('postgresTemplate'));
}

function requireTemplate(key: 'pgliteTemplateFile' | 'postgresTemplate'): string {
  const template = inject(key);
  if (!template) throw new Error(`No ${key}: the vitest project must run test/global-setup.ts`);
  return template;
}

/** PGlite in memory, started from a data-dir dump instead of an empty cluster. */
async function openPgliteDump(file: string): Promise<DatabaseHandle> {
  return openDatabase({ dataDir: 'memory://', loadDataDir: new Blob([await readFile(file)]) });
}

/** A new database on the TEST_DATABASE_URL server: empty, or a copy of `template`. */
async function createPostgresDatabase(template?: string): Promise<TestDatabase> {
  const name = uniqueDatabaseName('t');
  await adminQuery(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = postgresUrl(name);
  const handle = await openDatabase({ url, poolSize: 5 });
  return {
    handle,
    url,
    async drop() {
      await handle.close();
      await waitForNoSessions(name);
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
