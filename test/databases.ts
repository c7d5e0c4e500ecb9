/**
 * Databases the integration suite runs on: PGlite in memory always, and PostgreSQL too when
 * TEST_DATABASE_URL is set (CI). Each PostgreSQL test gets a fresh database of its own.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../server/db/client';

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

async function adminQuery(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
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
async function waitForNoSessions(name: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await adminQuery('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
    if ((rows[0] as { n: number } | undefined)?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const handle = await openDatabase({ dataDir: 'memory://' });
    return { handle, drop: () => handle.close() };
  }
  const name = `t_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), poolSize: 5 });
  return {
    handle,
    url: url.toString(),
    async drop() {
      await handle.close();
      await waitForNoSessions(name);
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
