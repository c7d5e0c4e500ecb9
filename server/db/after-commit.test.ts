/**
 * What runs after a commit (retry.ts afterCommit; issue 12): a cached balance must be forgotten
 * once the transfer that changed it is visible to every reader, not before, or a read in between
 * keeps the old one. What must hold: the callback runs after the commit of the transaction
 * inTransaction opened, once; never for an attempt that rolled back or was retried; at once
 * outside any transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../test/databases';
import { afterCommit, inTransaction } from './retry';

/** A serialization failure as the driver reports it: inTransaction tries again. */
function serializationFailure(): Error {
  return Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
}

describe.each(testDatabaseKinds())('after the commit on %s (issue 12, architecture §5)', (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.handle.db.execute(sql`CREATE TABLE after_commit_probe (id int PRIMARY KEY)`);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('runs the callback once the transaction has committed, when what it wrote is there to be read', async () => {
    const { db } = database.handle;
    const seen: string[] = [];
    await inTransaction(db, async (tx) => {
      await tx.execute(sql`INSERT INTO after_commit_probe VALUES (1)`);
      afterCommit(tx, () => seen.push('committed'));
      // The callback waits for the commit; the caller's own work goes on first.
      seen.push('end of the transaction');
    });
    expect(seen).toEqual(['end of the transaction', 'committed']);
    const probe = (await db.execute(sql`SELECT id FROM after_commit_probe WHERE id = 1`)) as unknown as { rows: unknown[] };
    expect(probe.rows).toHaveLength(1);
  });

  it('never runs the callback of a transaction that rolled back', async () => {
    const seen: string[] = [];
    const failed = inTransaction(database.handle.db, async (tx) => {
      await tx.execute(sql`INSERT INTO after_commit_probe VALUES (2)`);
      afterCommit(tx, () => seen.push('committed'));
      throw new Error('the caller gives up');
    });
    await expect(failed).rejects.toThrow('the caller gives up');
    expect(seen).toEqual([]);
  });

  it('runs only the callbacks of the attempt that committed, when a serialization failure made inTransaction try again', async () => {
    const seen: number[] = [];
    let attempt = 0;
    await inTransaction(database.handle.db, async (tx) => {
      attempt += 1;
      const thisAttempt = attempt;
      afterCommit(tx, () => seen.push(thisAttempt));
      if (thisAttempt === 1) throw serializationFailure();
      await tx.execute(sql`INSERT INTO after_commit_probe VALUES (3)`);
    });
    expect(attempt).toBe(2);
    expect(seen).toEqual([2]);
  });

  it('a callback that fails after the commit neither runs the transaction again nor fails it, and the others still run', async () => {
    const seen: string[] = [];
    let attempts = 0;
    const answer = await inTransaction(database.handle.db, async (tx) => {
      attempts += 1;
      await tx.execute(sql`INSERT INTO after_commit_probe VALUES (4)`);
      afterCommit(tx, () => {
        throw serializationFailure();
      });
      afterCommit(tx, () => seen.push('the next one'));
      return 'committed';
    });
    expect(answer).toBe('committed');
    expect(attempts).toBe(1);
    expect(seen).toEqual(['the next one']);
  });

  it('joins the outer transaction: a nested inTransaction defers to the outer commit', async () => {
    const seen: string[] = [];
    await inTransaction(database.handle.db, async (outer) => {
      await inTransaction(outer, async (inner) => {
        afterCommit(inner, () => seen.push('committed'));
      });
      seen.push('outer still open');
    });
    expect(seen).toEqual(['outer still open', 'committed']);
  });

  it('runs the callback at once outside any transaction, where a write has committed already', () => {
    const seen: string[] = [];
    afterCommit(database.handle.db, () => seen.push('at once'));
    expect(seen).toEqual(['at once']);
  });
});
