/**
 * The PostgreSQL pool outlives a lost server connection (issue 11: the chaos run found both
 * processes exiting when PostgreSQL restarted, on an idle client's unhandled 'error' event).
 * The embedded database opens with the buffer pool it is given (issue 12, idle memory).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually';
import { DEFAULT_PGLITE_SHARED_BUFFERS, openDatabase } from './client';

const url = process.env.TEST_DATABASE_URL;

/** Ends, as a restart would, every server connection named `applicationName`. */
async function terminate(applicationName: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const ended = await admin.query(
      'SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1) ended',
      [applicationName],
    );
    expect(ended.rows[0].n).toBeGreaterThan(0);
  } finally {
    await admin.end();
  }
}

describe.runIf(url)('PostgreSQL pool', () => {
  it('keeps the process up when the server ends its idle connections (a restart), and the next query opens a fresh one', async () => {
    const handle = await openDatabase({ url, poolSize: 3 });
    const applicationName = `pool-test-${process.pid}-${Date.now()}`;
    try {
      // Three connections, left idle in the pool, each named so the test ends only its own.
      await Promise.all(
        [1, 2, 3].map(() =>
          handle.db.execute(sql`SELECT set_config('application_name', ${applicationName}, false), pg_sleep(0.05)`),
        ),
      );
      await terminate(applicationName);
      // The pool's idle clients see their sockets close; unhandled, their 'error' event would end this worker.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const answer = (await handle.db.execute(sql`SELECT 1 AS one`)) as unknown as { rows: unknown[] };
      expect(answer.rows[0]).toEqual({ one: 1 });
    } finally {
      await handle.close();
    }
  });

  it('keeps the process up when the server ends a connection in the middle of a transaction: the transaction fails, the next one runs', async () => {
    const handle = await openDatabase({ url, poolSize: 2 });
    const applicationName = `pool-tx-test-${process.pid}-${Date.now()}`;
    try {
      let isInside!: () => void;
      const inside = new Promise<void>((resolve) => (isInside = resolve));
      const transaction = handle.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT set_config('application_name', ${applicationName}, false)`);
        isInside();
        // The connection is checked out and between statements when the server ends it.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.execute(sql`SELECT 1`);
      });
      const outcome = transaction.then(
        () => 'committed',
        () => 'failed',
      );
      await inside;
      await terminate(applicationName);
      expect(await outcome).toBe('failed');
      const answer = (await handle.db.execute(sql`SELECT 2 AS two`)) as unknown as { rows: unknown[] };
      expect(answer.rows[0]).toEqual({ two: 2 });
    } finally {
      await handle.close();
    }
  });
});

describe.runIf(url)('PostgreSQL notifier (issue 12, wallet/balance-changes.ts)', () => {
  it('sends nothing once the handle is closed, and opens no connection that would outlive it', async () => {
    const applicationName = `notifier-test-${process.pid}-${Date.now()}`;
    const named = new URL(url ?? '');
    named.searchParams.set('application_name', applicationName);
    const handle = await openDatabase({ url: named.toString(), poolSize: 1 });
    await handle.notify('cache_change', 'ledger_accounts 1');
    expect(await connectionsNamed(applicationName)).toBeGreaterThan(0);
    await handle.close();
    // A teller's late notification, after the process closed its database.
    await expect(handle.notify('cache_change', 'ledger_accounts 2')).resolves.toBeUndefined();
    expect(
      await eventually(
        () => connectionsNamed(applicationName),
        (count) => count === 0,
      ),
    ).toBe(0);
  });
});

async function connectionsNamed(applicationName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const found = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [
      applicationName,
    ]);
    return found.rows[0].n as number;
  } finally {
    await admin.end();
  }
}

describe('PGlite buffer pool', () => {
  /** PostgreSQL's shared_buffers as the opened database reports it. */
  async function sharedBuffersOf(pgliteSharedBuffers: string | undefined): Promise<string> {
    const dataDir = mkdtempSync(join(tmpdir(), 'pglite-pool-'));
    const handle = await openDatabase({ dataDir, ...(pgliteSharedBuffers ? { pgliteSharedBuffers } : {}) });
    try {
      const answer = (await handle.db.execute(sql`SHOW shared_buffers`)) as unknown as { rows: { shared_buffers: string }[] };
      return answer.rows[0]!.shared_buffers;
    } finally {
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  it('opens with the pool PGLITE_SHARED_BUFFERS names, and with the default pool when it names none', async () => {
    expect(await sharedBuffersOf('12MB')).toBe('12MB');
    expect(await sharedBuffersOf(undefined)).toBe(DEFAULT_PGLITE_SHARED_BUFFERS);
  }, 60_000);
});

describe('PGlite notifier (issue 12, wallet/balance-changes.ts)', () => {
  it('delivers a notification while open, and sends nothing, without failing, once the handle is closed', async () => {
    const handle = await openDatabase({ dataDir: 'memory://' });
    const heard: string[] = [];
    await handle.listen('cache_change', (payload) => heard.push(payload));
    await handle.notify('cache_change', 'ledger_accounts 1');
    expect(
      await eventually(
        () => Promise.resolve(heard.length),
        (count) => count === 1,
      ),
    ).toBe(1);
    await handle.close();
    // A teller's late notification: failing here would have it retry every second, for good.
    await expect(handle.notify('cache_change', 'ledger_accounts 2')).resolves.toBeUndefined();
    expect(heard).toEqual(['ledger_accounts 1']);
  }, 60_000);
});
