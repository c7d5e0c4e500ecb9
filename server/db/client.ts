/**
 * The database: PGlite (Postgres compiled to WASM) by default, PostgreSQL when a URL is given.
 * Both speak one SQL dialect and run the same migrations.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Runs fn holding a cluster-wide advisory lock, so only one process migrates or seeds. */
  withAdvisoryLock<T>(lockKey: number, fn: (db: Database) => Promise<T>): Promise<T>;
  /**
   * Calls onNotify with the payload of every NOTIFY on channel, from this process or any other on the
   * same database. onMissed is called when notifications may have been lost (the listening
   * connection dropped); listening resumes by itself until close().
   */
  listen(channel: string, onNotify: (payload: string) => void, onMissed: () => void): Promise<void>;
  /** PGlite only: the whole data folder as an uncompressed tar, to start other databases from. */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… ; when absent, PGlite is used. */
  url?: string;
  /** PGlite data folder; 'memory://' keeps everything in memory (tests). */
  dataDir?: string;
  poolSize?: number;
  /** PGlite: start from this data-folder dump (dumpDataDir) instead of an empty cluster. */
  loadDataDir?: Blob;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.url
    ? openPostgres(options.url, options.poolSize ?? 10)
    : openPglite(options.dataDir ?? 'memory://', options.loadDataDir);
}

async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<DatabaseHandle> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir, loadDataDir });
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    // One embedded connection serves one process: there is nobody to race with.
    withAdvisoryLock: (_key, fn) => fn(db),
    // Uncompressed: a test run loads it in every file, and gunzipping ~40 MB each time costs more than it saves.
    dumpDataDir: async () => client.dumpDataDir('none'),
    // The embedded database delivers its own NOTIFYs in process; there is no connection to lose.
    listen: async (channel, onNotify) => {
      await client.listen(channel, onNotify);
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // A connection the server ends (a PostgreSQL restart or fail-over) emits 'error': on the pool when
  // the client is idle, on the client itself when it is checked out (a transaction). Unhandled, either
  // event ends the process. The query in flight already fails with the error, and the pool drops the
  // broken client on release, so the next query opens a fresh connection: logging is all that is left.
  const connectionLost = (error: Error) => process.emitWarning(`PostgreSQL connection lost: ${error.message}`);
  pool.on('error', connectionLost);
  pool.on('connect', (client) => client.on('error', connectionLost));
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  const listener = createPostgresListener(url);
  return {
    db,
    kind: 'postgres',
    async withAdvisoryLock(lockKey, fn) {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [lockKey]);
        try {
          return await fn(drizzlePg(client, { schema }) as unknown as Database);
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [lockKey]);
        }
      } finally {
        client.release();
      }
    },
    listen: (channel, onNotify, onMissed) => listener.listen(channel, onNotify, onMissed),
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
}

/** How long a lost LISTEN connection waits before it connects again. */
const RELISTEN_DELAY_MS = 1_000;

/**
 * LISTEN needs a connection of its own that stays open (a pooled one goes back to the pool). When
 * it drops, whatever was sent meanwhile is lost: onMissed says so, and it connects again.
 */
function createPostgresListener(url: string) {
  let isClosed = false;
  const clients = new Set<pg.Client>();

  async function connect(
    channel: string,
    onNotify: (payload: string) => void,
    onMissed: () => void,
    isRetry = false,
  ): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    clients.add(client);
    let isLost = false;
    const lost = () => {
      if (isLost) return;
      isLost = true;
      clients.delete(client);
      client.end().catch(() => undefined);
      if (isClosed) return;
      onMissed();
      setTimeout(() => connect(channel, onNotify, onMissed, true).catch(() => undefined), RELISTEN_DELAY_MS).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      lost();
      throw error;
    }
    // Values cached while nobody listened may already be outdated.
    if (isRetry) onMissed();
  }

  return {
    listen: (channel: string, onNotify: (payload: string) => void, onMissed: () => void) => connect(channel, onNotify, onMissed),
    async close() {
      isClosed = true;
      await Promise.all([...clients].map((client) => client.end().catch(() => undefined)));
    },
  };
}
