/**
 * Issue 11: sign-in attempts are slowed progressively rather than locked out: the first attempts
 * pass, then each waits twice as long as the one before (up to a cap) after the last one let
 * through; refused attempts count too; a burst in parallel gets no more through than the same
 * attempts one after another, on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../../db/migrate';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { createRateLimitService, slowingWaitMs, type RateLimitService, type SlowingPolicy } from './service';

const SECOND = 1000;
let sequence = 0;
const policy = (overrides: Partial<SlowingPolicy> = {}): SlowingPolicy => ({
  key: `test:${Date.now()}:${sequence++}`,
  free: 3,
  baseMs: SECOND,
  maxMs: 60 * SECOND,
  resetMs: 3600 * SECOND,
  ...overrides,
});

describe('the wait of each attempt', () => {
  it('is none for the free attempts, then doubles up to the cap', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((attempt) => slowingWaitMs(policy(), attempt));
    expect(waits).toEqual([0, 0, 0, 1, 2, 4, 8, 16, 32, 60].map((s) => s * SECOND));
    expect(slowingWaitMs(policy(), 1_000_000)).toBe(60 * SECOND);
  });
});

describe.each(testDatabaseKinds())('progressive slowing on %s (issue 11)', (kind) => {
  let database: TestDatabase;
  let limits: RateLimitService;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await runMigrations(database.handle);
    limits = createRateLimitService(database.handle.db);
  });
  afterAll(() => database?.drop());

  const at = (ms: number) => new Date(Date.UTC(2026, 10, 24, 9, 0, 0) + ms);

  it('lets the free attempts through, then refuses until each growing wait has passed', async () => {
    const slowed = policy();
    for (let attempt = 0; attempt < 3; attempt++) expect(await limits.charge(slowed, at(0))).toEqual({ isAllowed: true });
    // The 4th waits 1 s after the 3rd.
    expect(await limits.charge(slowed, at(500))).toEqual({ isAllowed: false, retryAfterS: 2 });
    // Refused attempts counted: the 5th attempt is now due, which waits 2 s... after the last let through (0 s).
    expect(await limits.charge(slowed, at(2500))).toEqual({ isAllowed: true });
    // Next (the 6th) waits 4 s after 2.5 s.
    expect(await limits.charge(slowed, at(4000))).toMatchObject({ isAllowed: false });
    expect(await limits.charge(slowed, at(40_000))).toEqual({ isAllowed: true });
    expect(await limits.attemptsOf(slowed.key)).toBe(7);
  });

  it('caps the wait, and ends the streak after the reset time without an attempt let through', async () => {
    const slowed = policy({ resetMs: 600 * SECOND });
    for (let attempt = 0; attempt < 50; attempt++) await limits.charge(slowed, at(0));
    const refused = await limits.charge(slowed, at(SECOND));
    expect(refused).toEqual({ isAllowed: false, retryAfterS: 59 });
    expect(await limits.charge(slowed, at(61 * SECOND))).toEqual({ isAllowed: true });
    expect(await limits.charge(slowed, at(61 * SECOND + 600 * SECOND))).toEqual({ isAllowed: true });
    expect(await limits.attemptsOf(slowed.key)).toBe(1);
  });

  it('a refund hands back one attempt; a reset ends the streak', async () => {
    const slowed = policy();
    for (let attempt = 0; attempt < 3; attempt++) await limits.charge(slowed, at(0));
    await limits.refund(slowed.key);
    expect(await limits.charge(slowed, at(0))).toEqual({ isAllowed: true });
    await limits.reset(slowed.key);
    expect(await limits.attemptsOf(slowed.key)).toBe(0);
  });

  it('counts every attempt of a parallel burst, and lets through no more than one after another would', async () => {
    const slowed = policy();
    const verdicts = await Promise.all(Array.from({ length: 24 }, () => limits.charge(slowed, at(0))));
    expect(verdicts.filter((verdict) => verdict.isAllowed)).toHaveLength(3);
    expect(await limits.attemptsOf(slowed.key)).toBe(24);
  });
});
