/**
 * The embedded database's prepared-statement path (issue 12: rounds on PGlite were bound by its
 * query machinery) answers exactly as PGlite's own query path does, and keeps every guarantee the
 * ledger leans on (architecture §5: all-or-nothing transactions, SQLSTATE and constraint on errors
 * for the retry, one transaction at a time).
 */
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PgliteStatements } from './pglite-statements';
import { constraintOf, sqlStateOf } from './retry';

let client: PGlite;
let statements: PgliteStatements;

beforeEach(async () => {
  client = await PGlite.create({ dataDir: 'memory://' });
  await client.exec(`
    CREATE TABLE accounts (id bigserial PRIMARY KEY, owner text NOT NULL UNIQUE, balance bigint NOT NULL,
      opened timestamptz NOT NULL DEFAULT now(), note text, tags text[]);
    INSERT INTO accounts (owner, balance, note, tags) VALUES ('ann', 100, NULL, '{a,b}'), ('bob', 50, 'vip', '{}');`);
  statements = new PgliteStatements(client, { maxStatements: 5 });
});

afterEach(async () => {
  await client.close();
});

const SELECT_ACCOUNT = 'SELECT id, owner, balance, opened, note, tags FROM accounts WHERE owner = $1';

describe('PGlite prepared statements', () => {
  it('answers a select, an update and an insert exactly as PGlite does, in object and array row modes', async () => {
    const cases: [string, unknown[]][] = [
      [SELECT_ACCOUNT, ['ann']],
      [SELECT_ACCOUNT, ['bob']],
      ['SELECT count(*) AS n, sum(balance) AS total FROM accounts WHERE balance > $1', [10n]],
      ['UPDATE accounts SET balance = balance + $1 WHERE owner = $2', [5, 'ann']],
      ['UPDATE accounts SET balance = balance + $1 WHERE owner = $2 RETURNING balance', [5, 'nobody']],
      ['INSERT INTO accounts (owner, balance, tags) VALUES ($1, $2, $3) RETURNING owner, balance, tags', ['cy', 7, ['x', 'y']]],
      ['SELECT $1::jsonb AS doc, $2::timestamptz AS at', [JSON.stringify({ a: 1 }), new Date('2026-01-02T03:04:05Z')]],
    ];
    for (const rowMode of ['object', 'array'] as const) {
      for (const [text, params] of cases) {
        // The same statement through PGlite's own path, then through ours, on the same data: an
        // update is undone by running it in a transaction that rolls back.
        const own = await client.transaction(async (tx) => {
          const result = await tx.query(text, params, { rowMode });
          await tx.rollback();
          return result;
        });
        const ours = await statements.transaction(async (tx) => {
          const result = await tx.query(text, params, { rowMode });
          await tx.rollback();
          return result;
        });
        expect(ours, `${rowMode}: ${text}`).toEqual(own);
      }
    }
  });

  it('prepares a statement once and runs it again by name; only data statements are kept, the oldest closed past the limit', async () => {
    for (let i = 0; i < 3; i++) await statements.query(SELECT_ACCOUNT, ['ann']);
    expect(statements.preparedCount).toBe(1);
    await statements.query('SET statement_timeout = 0');
    expect(statements.preparedCount).toBe(1);
    for (let n = 0; n < 8; n++) await statements.query(`SELECT ${n} AS n, owner FROM accounts WHERE owner = $1`, ['bob']);
    expect(statements.preparedCount).toBe(5);
    const named = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements');
    // The closed ones are gone from the session too (the last close waits for the next statement).
    expect(named.rows[0]!.n).toBeLessThanOrEqual(6);
    // A closed statement is prepared again when it is used again.
    const again = await statements.query<{ owner: string }>(SELECT_ACCOUNT, ['ann']);
    expect(again.rows.map((row) => row.owner)).toEqual(['ann']);
  });

  it('follows the schema: a statement whose result columns changed is prepared again, and a schema statement closes every one', async () => {
    const everything = 'SELECT * FROM accounts WHERE owner = $1';
    const before = await statements.query<Record<string, unknown>>(everything, ['ann']);
    expect(Object.keys(before.rows[0]!)).toContain('note');
    await client.exec('ALTER TABLE accounts DROP COLUMN note');
    const after = await statements.query<Record<string, unknown>>(everything, ['ann']);
    expect(Object.keys(after.rows[0]!)).not.toContain('note');
    expect(after.rows[0]!.owner).toBe('ann');

    await statements.query('ALTER TABLE accounts ADD COLUMN note text');
    expect(statements.preparedCount).toBe(0);
    // The same through a transaction's exec (the simple protocol).
    await statements.query(SELECT_ACCOUNT, ['ann']);
    expect(statements.preparedCount).toBe(1);
    await statements.transaction((tx) => tx.exec('ALTER TABLE accounts DROP COLUMN note'));
    expect(statements.preparedCount).toBe(0);
  });

  it('keeps the SQLSTATE and constraint on an error (the retry reads them) and undoes the whole transaction', async () => {
    const failed = statements.transaction(async (tx) => {
      await tx.query('UPDATE accounts SET balance = balance - $1 WHERE owner = $2', [30, 'ann']);
      await tx.query('INSERT INTO accounts (owner, balance) VALUES ($1, $2)', ['bob', 1]);
    });
    const error = await failed.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(sqlStateOf(error)).toBe('23505');
    expect(constraintOf(error)).toBe('accounts_owner_key');
    const ann = await statements.query<{ balance: bigint | number }>(SELECT_ACCOUNT, ['ann']);
    expect(Number(ann.rows[0]!.balance)).toBe(100);
    // A statement that fails to prepare is an error too, and the client goes on serving.
    await expect(statements.query('SELECT nope FROM accounts')).rejects.toMatchObject({ code: '42703' });
    expect((await statements.query(SELECT_ACCOUNT, ['bob'])).rows).toHaveLength(1);
  });

  it('runs one transaction at a time: racing transfers through drizzle all land, and a query outside waits for the transaction in flight', async () => {
    const db = drizzle(statements as unknown as PGlite);
    const transfers = Array.from({ length: 40 }, (_, i) =>
      db.transaction(async (tx) => {
        const from = i % 2 ? 'ann' : 'bob';
        const to = i % 2 ? 'bob' : 'ann';
        const rows = await tx.execute(sql`SELECT balance FROM accounts WHERE owner = ${from} FOR UPDATE`);
        const balance = BigInt((rows.rows[0] as { balance: string | number }).balance);
        // A pause between the read and the write: another transaction running here would lose an update.
        await new Promise((resolve) => setTimeout(resolve, 1));
        await tx.execute(sql`UPDATE accounts SET balance = ${balance - 1n} WHERE owner = ${from}`);
        await tx.execute(sql`UPDATE accounts SET balance = balance + 1 WHERE owner = ${to}`);
      }),
    );
    const order: string[] = [];
    const slow = statements.transaction(async (tx) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tx.query('UPDATE accounts SET note = $1 WHERE owner = $2', ['slow', 'bob']);
      order.push('transaction');
    });
    const outside = statements.query<{ note: string }>('SELECT note FROM accounts WHERE owner = $1', ['bob']).then((result) => {
      order.push('query');
      return result;
    });
    await Promise.all([...transfers, slow]);
    expect((await outside).rows[0]!.note).toBe('slow');
    expect(order).toEqual(['transaction', 'query']);
    const totals = await statements.query<{ total: string | number }>('SELECT sum(balance) AS total FROM accounts');
    expect(Number(totals.rows[0]!.total)).toBe(150);
  });

  it('delivers a NOTIFY sent through it to PGlite listeners at commit', async () => {
    const heard: string[] = [];
    await client.listen('changes', (payload) => heard.push(payload));
    await statements.transaction(async (tx) => {
      await tx.query("SELECT pg_notify('changes', $1)", ['accounts']);
      expect(heard).toEqual([]);
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(heard).toEqual(['accounts']);
  });
});
