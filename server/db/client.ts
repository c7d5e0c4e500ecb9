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
import { PgliteStatements } from './pglite-statements';
import { prepareFunctionCalls } from './prepared-calls';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Runs fn holding a cluster-wide advisory lock, so only one process migrates or seeds. */
  withAdvisoryLock<T>(lockKey: number, fn: (db: Database) => Promise<T>): Promise<T>;
  /**
   * How many statements this handle's code has sent since it opened, transaction control (BEGIN,
   * COMMIT, ROLLBACK) not counted: what a use case costs in round trips, for a test that keeps a
   * round's cost from creeping back up and for the benchmarks (issue 12).
   */
  statements(): number;
  /**
   * Calls `onNotify` with the payload of each NOTIFY on `channel`, from this process or another on
   * the same database, and `onMissed` after every (re)connection of the listening connection, when
   * notifications may have been lost; returns the unlisten. Workers sleep on it instead of polling,
   * and caches drop what an operator changed (issue 12).
   */
  listen(channel: string, onNotify: (payload: string) => void, onMissed?: () => void): Promise<() => Promise<void>>;
  /**
   * NOTIFYs `channel` with `payload` in a transaction of its own, on a connection of its own (never
   * one the pool lends to a request), which does not wait for its commit to be flushed: for telling
   * other processes what a committed write changed (wallet/balance-changes.ts). Not counted in
   * statements(): it is sent beside the requests, one for many writes.
   */
  notify(channel: string, payload: string): Promise<void>;
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
  /** PGlite: its shared_buffers (PGLITE_SHARED_BUFFERS), default DEFAULT_PGLITE_SHARED_BUFFERS. */
  pgliteSharedBuffers?: string;
}

const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;

/** A drizzle logger that only counts: a number add per statement, nothing formatted or written. */
function statementCounter() {
  let count = 0;
  return {
    logger: {
      logQuery(query: string) {
        if (!TRANSACTION_CONTROL.test(query)) count++;
      },
    },
    statements: () => count,
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.url
    ? openPostgres(options.url, options.poolSize ?? 10)
    : openPglite(options.dataDir ?? 'memory://', options.loadDataDir, options.pgliteSharedBuffers);
}

/**
 * The embedded database's buffer pool when none is given. It lives in the WASM memory, which
 * never shrinks, and PGlite touches all of it when it starts (an idle server's WASM memory holds
 * 23 MB resident with 8 MB of pool, 31 MB with 16 MB): PostgreSQL's default of 128 MB, then 64 MB,
 * then 16 MB, was what kept an idle server over 200 MB (issue 12, idle memory). A site's hot pages
 * fit in it, and the files behind the pool are in the OS's page cache, so a miss costs a copy, not
 * a disk read; rounds over HTTP with 10 and 50 players were no slower with 8 MB than with 16 MB
 * (docs/performance.md).
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS = '8MB';

async function openPglite(
  dataDir: string,
  loadDataDir?: Blob,
  sharedBuffers = DEFAULT_PGLITE_SHARED_BUFFERS,
): Promise<DatabaseHandle> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`];
  const client = await PGlite.create({ dataDir, loadDataDir, startParams });
  const counter = statementCounter();
  // Statements prepared once and run in one crossing into the WASM module (pglite-statements.ts).
  const db = drizzlePglite(new PgliteStatements(client) as unknown as PGlite, {
    schema,
    logger: counter.logger,
  }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    statements: counter.statements,
    // One embedded connection serves one process: there is nobody to race with.
    withAdvisoryLock: (_key, fn) => fn(db),
    // The embedded database delivers its own NOTIFYs in process; there is no connection to lose.
    listen: async (channel, onNotify) => {
      const unlisten = await client.listen(channel, (payload) => onNotify(payload));
      return () => unlisten();
    },
    // As on PostgreSQL, a teller's late notification after close() sends nothing: there is nobody left
    // to tell, and failing would have the teller retry every second for as long as the process lives.
    notify: async (channel, payload) => {
      if (client.closed) return;
      await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    // Uncompressed: a test run loads it in every file, and gunzipping ~40 MB each time costs more than it saves.
    dumpDataDir: async () => client.dumpDataDir('none'),
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
  pool.on('connect', (client) => {
    client.on('error', connectionLost);
    prepareFunctionCalls(client);
  });
  const counter = statementCounter();
  const db = drizzlePg(pool, { schema, logger: counter.logger }) as unknown as Database;
  // Every listener stops with the handle: a closed database must not be listened to again.
  const listeners = new Set<() => Promise<void>>();
  const notifier = createPostgresNotifier(url);
  return {
    db,
    kind: 'postgres',
    statements: counter.statements,
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
    listen: async (channel, onNotify, onMissed) => {
      const unlisten = await listenPostgres(url, channel, onNotify, onMissed);
      listeners.add(unlisten);
      return async () => {
        listeners.delete(unlisten);
        await unlisten();
      };
    },
    notify: notifier.notify,
    close: async () => {
      await Promise.all([...listeners].map((unlisten) => unlisten()));
      await notifier.close();
      await pool.end();
    },
  };
}

const RECONNECT_MS = 1_000;

/**
 * NOTIFY on a connection of its own, opened on first use and again after it failed. Once closed it
 * sends nothing: a notification told late (a shared round's teller waits up to 20 ms) must not open
 * a connection that outlives the handle; what it would have said, the balances' age limit bounds.
 */
function createPostgresNotifier(url: string) {
  let connected: Promise<pg.Client> | undefined;
  let isClosed = false;
  const connection = () => {
    connected ??= (async () => {
      const client = new pg.Client({ connectionString: url });
      client.on('error', (error) => process.emitWarning(`PostgreSQL notifier lost: ${error.message}`));
      await client.connect();
      // Its transactions only NOTIFY: a commit lost in a crash loses a notification, never data.
      await client.query('SET synchronous_commit = off');
      return client;
    })();
    return connected;
  };
  return {
    async notify(channel: string, payload: string): Promise<void> {
      if (isClosed) return;
      const current = connection();
      try {
        await (await current).query('SELECT pg_notify($1, $2)', [channel, payload]);
      } catch (error) {
        if (connected === current) connected = undefined;
        await current.then((client) => client.end()).catch(() => undefined);
        throw error;
      }
    },
    async close(): Promise<void> {
      isClosed = true;
      const current = connected;
      connected = undefined;
      await current?.then((client) => client.end()).catch(() => undefined);
    },
  };
}

/**
 * LISTEN on a connection of its own (a pooled one would lose it on release), connected again
 * after the server ends it: a PostgreSQL restart must not leave the listener deaf.
 */
async function listenPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onMissed: () => void = () => undefined,
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new RangeError(`not a plain channel name: ${channel}`);
  let isStopped = false;
  let current: pg.Client | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const reconnectLater = () => {
    if (isStopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_MS);
    retry.unref();
  };
  async function connect(): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    client.on('error', (error) => process.emitWarning(`PostgreSQL listener lost: ${error.message}`));
    client.on('end', () => {
      if (current === client) current = undefined;
      reconnectLater();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      current = client;
      // What was sent while nobody listened (before the first connection, during a restart) is lost.
      if (isStopped) await client.end();
      else onMissed();
    } catch (error) {
      process.emitWarning(`PostgreSQL listener could not connect: ${(error as Error).message}`);
      await client.end().catch(() => undefined);
      reconnectLater();
    }
  }
  await connect();
  return async () => {
    isStopped = true;
    clearTimeout(retry);
    await current?.end().catch(() => undefined);
  };
}
