/**
 * Function calls prepared once per PostgreSQL connection (issue 12, prepared-calls.ts): a call
 * that is a function of parameters only is named, so the connection parses it once; any other
 * statement stays unnamed, planned for its values; answers are the same either way.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/databases';
import { openDatabase, type DatabaseHandle } from './client';
import { preparedCallName } from './prepared-calls';

describe('the names function calls get (issue 12)', () => {
  it('names a call of parameters only, one name per text, and nothing else', () => {
    const call = 'SELECT provider_money(\n  $1::text[], $2::bigint[],\n  $3::timestamptz[], $4::double precision) AS answer';
    const name = preparedCallName(call);
    expect(name).toMatch(/^call_provider_money_[0-9a-f]{12}$/);
    expect(preparedCallName(call)).toBe(name);
    expect(preparedCallName(call.replace('$4::double precision', '$4::int'))).not.toBe(name);
    for (const other of [
      'select "id" from "users" where "id" = $1',
      'SELECT provider_money($1::text[], now()) AS answer',
      'SELECT f($1) AS x',
      'SELECT f($1::int) AS x; DROP TABLE users',
      'SELECT f($1::int)',
    ])
      expect(preparedCallName(other), other).toBeUndefined();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('function calls prepared once per PostgreSQL connection (issue 12)', () => {
  let database: TestDatabase;
  // One connection: what it prepared is what pg_prepared_statements shows.
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    handle = await openDatabase({ url: database.url!, poolSize: 1 });
    await handle.db.execute(sql`CREATE FUNCTION add_one(p_value int) RETURNS int LANGUAGE sql AS 'SELECT p_value + 1'`);
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  const prepared = async () =>
    (
      (await handle.db.execute(sql`SELECT statement FROM pg_prepared_statements`)) as unknown as { rows: { statement: string }[] }
    ).rows.map((row) => row.statement);

  it('prepares a function call once and answers it as before; a statement with values of its own stays unnamed', async () => {
    const answers = [];
    for (const value of [1, 41, -3]) {
      const result = (await handle.db.execute(sql`SELECT add_one(${value}::int) AS value`)) as unknown as {
        rows: { value: number }[];
      };
      answers.push(result.rows[0]?.value);
    }
    expect(answers).toEqual([2, 42, -2]);
    await handle.db.execute(sql`SELECT ${7}::int + 1 AS value`);
    const statements = await prepared();
    expect(statements.filter((text) => text.includes('add_one('))).toEqual(['SELECT add_one($1::int) AS value']);
    expect(statements.some((text) => text.includes('+ 1 AS value'))).toBe(false);
  });

  it('still answers after the function is replaced under the prepared call', async () => {
    await handle.db.execute(sql`SELECT add_one(${1}::int) AS value`);
    await handle.db.execute(
      sql`CREATE OR REPLACE FUNCTION add_one(p_value int) RETURNS int LANGUAGE sql AS 'SELECT p_value + 100'`,
    );
    const result = (await handle.db.execute(sql`SELECT add_one(${1}::int) AS value`)) as unknown as { rows: { value: number }[] };
    expect(result.rows[0]?.value).toBe(101);
  });
});
