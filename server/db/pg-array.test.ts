/**
 * Array literals for set-based statements (pg-array.ts): every element, quotes, backslashes,
 * NULL, the empty string and the word NULL included, comes back from PostgreSQL as it was sent.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../test/databases';
import { pgArray } from './pg-array';

const TEXTS = ['plain', '', 'NULL', 'a "quoted" word', 'back\\slash', '\\"', 'comma, brace } { and space', 'àccént ☃ 𝄞', '{}'];

describe.each(testDatabaseKinds())('array literals on %s (issue 12)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.drop());

  const roundTrip = async (literal: string, type: 'text[]' | 'bigint[]') => {
    const query = type === 'text[]' ? sql`SELECT ${literal}::text[] AS value` : sql`SELECT ${literal}::bigint[]::text[] AS value`;
    const result = (await database.handle.db.execute(query)) as unknown as { rows: { value: (string | null)[] }[] };
    return result.rows[0]?.value;
  };

  it('sends texts with quotes, backslashes, braces and the word NULL as they are, and null as NULL', async () => {
    const values = [...TEXTS, null];
    expect(await roundTrip(pgArray(values), 'text[]')).toEqual(values);
  });

  it('sends numbers and bigints beyond 2^53 exactly', async () => {
    const values = [0, -7, 9_007_199_254_740_993n, -(2n ** 63n), null];
    expect(await roundTrip(pgArray(values), 'bigint[]')).toEqual(['0', '-7', '9007199254740993', String(-(2n ** 63n)), null]);
  });

  it('sends an empty array', async () => {
    expect(pgArray([])).toBe('{}');
    expect(await roundTrip(pgArray([]), 'text[]')).toEqual([]);
  });
});
