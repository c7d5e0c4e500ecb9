import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../../db/migrate';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { createJobService, jobBackoffMs, MAX_BACKOFF_MS, type JobHandlers, type JobService } from './service';

const SECOND = 1000;

describe('job backoff', () => {
  it('waits 2^attempt seconds after a failed attempt, capped at an hour', () => {
    expect(jobBackoffMs(1)).toBe(2 * SECOND);
    expect(jobBackoffMs(2)).toBe(4 * SECOND);
    expect(jobBackoffMs(5)).toBe(32 * SECOND);
    expect(jobBackoffMs(30)).toBe(MAX_BACKOFF_MS);
  });
});

describe.each(testDatabaseKinds())('job queue on %s', (kind) => {
  let database: TestDatabase;
  let queue: JobService;
  let sequence = 0;
  /** Each test its own kind, so jobs left by one test never run in another. */
  const uniqueKind = (name: string) => `test.${name}.${sequence++}`;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await runMigrations(database.handle);
    queue = createJobService(database.handle.db);
  });
  afterAll(() => database?.drop());

  it('runs a job once it is due and not before (run_at)', async () => {
    const jobKind = uniqueKind('due');
    const seen: unknown[] = [];
    const handlers: JobHandlers = { [jobKind]: async (payload) => void seen.push(payload) };
    const start = new Date();
    const { id } = await queue.enqueue(jobKind, { n: 1 }, { runAt: new Date(start.getTime() + 60 * SECOND) });

    expect((await queue.runDue(handlers, { now: start })).claimed).toBe(0);
    expect(seen).toEqual([]);

    const later = new Date(start.getTime() + 61 * SECOND);
    expect(await queue.runDue(handlers, { now: later })).toMatchObject({ claimed: 1, done: 1 });
    expect(seen).toEqual([{ n: 1 }]);
    expect((await queue.find(id))?.doneAt).toEqual(later);
    // Done is done: it never runs again.
    expect((await queue.runDue(handlers, { now: new Date(later.getTime() + 3600 * SECOND) })).claimed).toBe(0);
  });

  it('reschedules a failed job with exponential backoff and records the error', async () => {
    const jobKind = uniqueKind('backoff');
    let calls = 0;
    const handlers: JobHandlers = {
      [jobKind]: async () => {
        calls += 1;
        if (calls < 3) throw new Error(`receiver down ${calls}`);
      },
    };
    const start = new Date();
    const { id } = await queue.enqueue(jobKind, {}, { runAt: start });

    expect(await queue.runDue(handlers, { now: start })).toMatchObject({ claimed: 1, retried: 1 });
    let row = await queue.find(id);
    expect(row).toMatchObject({ attempts: 1, lastError: 'receiver down 1', doneAt: null, lockedUntil: null });
    expect(row?.runAt).toEqual(new Date(start.getTime() + 2 * SECOND));

    // Not due again until the backoff has passed.
    expect((await queue.runDue(handlers, { now: new Date(start.getTime() + 1 * SECOND) })).claimed).toBe(0);

    const second = new Date(start.getTime() + 2 * SECOND);
    expect(await queue.runDue(handlers, { now: second })).toMatchObject({ retried: 1 });
    row = await queue.find(id);
    expect(row?.attempts).toBe(2);
    expect(row?.runAt).toEqual(new Date(second.getTime() + 4 * SECOND));

    expect(await queue.runDue(handlers, { now: new Date(second.getTime() + 4 * SECOND) })).toMatchObject({ done: 1 });
    expect(calls).toBe(3);
    expect((await queue.find(id))?.doneAt).not.toBeNull();
  });

  it('gives up after max_attempts and keeps the job with its last error', async () => {
    const jobKind = uniqueKind('give-up');
    let calls = 0;
    const handlers: JobHandlers = {
      [jobKind]: async () => {
        calls += 1;
        throw new Error('always fails');
      },
    };
    const { id } = await queue.enqueue(jobKind, {}, { maxAttempts: 3 });
    const outcomes = [];
    // An hour apart, so each backoff has passed.
    for (let hour = 1; hour <= 3; hour++)
      outcomes.push(await queue.runDue(handlers, { now: new Date(Date.now() + hour * 3600 * SECOND) }));
    expect(outcomes.map(({ retried, gaveUp }) => ({ retried, gaveUp }))).toEqual([
      { retried: 1, gaveUp: 0 },
      { retried: 1, gaveUp: 0 },
      { retried: 0, gaveUp: 1 },
    ]);
    expect(calls).toBe(3);
    const farFuture = new Date(Date.now() + 24 * 3600 * SECOND);
    const row = await queue.find(id);
    expect(row).toMatchObject({ attempts: 3, lastError: 'always fails', doneAt: null });
    expect(row?.failedAt).not.toBeNull();
    expect((await queue.runDue(handlers, { now: new Date(farFuture.getTime() + 48 * 3600 * SECOND) })).claimed).toBe(0);
  });

  it('makes one job of two enqueued with the same dedupe key', async () => {
    const jobKind = uniqueKind('dedupe');
    const key = `${jobKind}:order-1`;
    const first = await queue.enqueue(jobKind, { copy: 1 }, { key });
    const second = await queue.enqueue(jobKind, { copy: 2 }, { key });
    expect(first.isNew).toBe(true);
    expect(second).toEqual({ id: first.id, isNew: false });
    const seen: unknown[] = [];
    await queue.drain({ [jobKind]: async (payload) => void seen.push(payload) });
    expect(seen).toEqual([{ copy: 1 }]);
    // The key stays taken after the job is done: "once" means once.
    expect((await queue.enqueue(jobKind, { copy: 3 }, { key })).isNew).toBe(false);
  });

  it('enqueued inside a transaction that rolls back, a job does not exist', async () => {
    const jobKind = uniqueKind('rollback');
    await expect(
      database.handle.db.transaction(async (tx) => {
        await queue.enqueue(jobKind, {}, { executor: tx, key: `${jobKind}:k` });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await queue.findByKey(`${jobKind}:k`)).toBeUndefined();
  });

  it('leaves jobs of kinds it has no handler for to other workers', async () => {
    const known = uniqueKind('known');
    const unknown = uniqueKind('unknown');
    await queue.enqueue(unknown, {});
    const { id } = await queue.enqueue(known, {});
    const result = await queue.runDue({ [known]: async () => {} }, { limit: 10 });
    expect(result).toMatchObject({ claimed: 1, done: 1 });
    expect((await queue.find(id))?.doneAt).not.toBeNull();
  });

  it('a job whose lease has not ended is not taken by another worker; after it ends, it is (crash recovery)', async () => {
    const jobKind = uniqueKind('lease');
    const start = new Date();
    const { id } = await queue.enqueue(jobKind, {}, { runAt: start });
    let release: () => void = () => {};
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const runs: number[] = [];
    const slow: JobHandlers = {
      [jobKind]: async (_payload, job) => {
        runs.push(job.attempt);
        if (job.attempt === 1) await blocked;
      },
    };
    const first = queue.runDue(slow, { now: start, leaseMs: 10 * SECOND });
    await waitFor(() => runs.length === 1);
    expect((await queue.runDue(slow, { now: new Date(start.getTime() + 5 * SECOND) })).claimed).toBe(0);
    // The first worker "died": its lease ran out and another worker takes the job.
    expect(await queue.runDue(slow, { now: new Date(start.getTime() + 11 * SECOND) })).toMatchObject({ claimed: 1, done: 1 });
    release();
    // The first worker's late answer does not overwrite the second worker's outcome.
    expect(await first).toMatchObject({ claimed: 1, done: 0 });
    expect(runs).toEqual([1, 2]);
    expect((await queue.find(id))?.attempts).toBe(2);
  });

  it('two workers polling at once never run one job twice (FOR UPDATE SKIP LOCKED)', async () => {
    const jobKind = uniqueKind('concurrent');
    const total = 60;
    for (let n = 0; n < total; n++) await queue.enqueue(jobKind, { n });
    const runs = new Map<number, number>();
    const handlers: JobHandlers = {
      [jobKind]: async (payload) => {
        const n = (payload as { n: number }).n;
        runs.set(n, (runs.get(n) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 1));
      },
    };
    const worker = async () => {
      let claimed = 0;
      for (;;) {
        const round = await queue.runDue(handlers, { limit: 7 });
        if (round.claimed === 0) return claimed;
        claimed += round.claimed;
      }
    };
    const [a, b, c] = await Promise.all([worker(), worker(), worker()]);
    expect(a + b + c).toBe(total);
    expect(runs.size).toBe(total);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });

  // Issue 12 (idle: no polling): with an interval of a minute, only a wake-up can run these in time.
  const LONG_INTERVAL = { intervalMs: 60_000 };

  it('a worker sleeping for a minute runs a job enqueued in this process at once (issue 12 idle)', async () => {
    const jobKind = uniqueKind('woken');
    const seen: number[] = [];
    const stop = queue.startWorker({ [jobKind]: async (payload) => void seen.push((payload as { n: number }).n) }, LONG_INTERVAL);
    try {
      // Its first look found nothing; it now sleeps.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await queue.enqueue(jobKind, { n: 1 });
      await waitFor(() => seen.length === 1);
      expect(seen).toEqual([1]);
    } finally {
      await stop();
    }
  });

  it('a sleeping worker runs a job when its run_at comes, not before (issue 12 idle)', async () => {
    const jobKind = uniqueKind('timed');
    const ranAt: number[] = [];
    const stop = queue.startWorker({ [jobKind]: async () => void ranAt.push(Date.now()) }, LONG_INTERVAL);
    try {
      const runAt = Date.now() + 400;
      await queue.enqueue(jobKind, {}, { runAt: new Date(runAt) });
      await waitFor(() => ranAt.length === 1);
      expect(ranAt[0]).toBeGreaterThanOrEqual(runAt);
    } finally {
      await stop();
    }
  });

  it('wakes for a job another process enqueues in a transaction, once it commits (issue 12 idle, NOTIFY)', async () => {
    const jobKind = uniqueKind('notified');
    const seen: number[] = [];
    // The worker's process hears the database; the other process's enqueue cannot reach it in memory.
    const listening = createJobService(database.handle.db, { listen: database.handle.listen });
    const other = createJobService(database.handle.db);
    const stop = listening.startWorker(
      { [jobKind]: async (payload) => void seen.push((payload as { n: number }).n) },
      LONG_INTERVAL,
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await database.handle.db.transaction(async (tx) => {
        await other.enqueue(jobKind, { n: 7 }, { executor: tx });
        // Not committed yet: nothing to run.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(seen).toEqual([]);
      });
      await waitFor(() => seen.length === 1);
      expect(seen).toEqual([7]);
    } finally {
      await stop();
    }
  });

  it('a started worker runs jobs as they become due and stops cleanly', async () => {
    const jobKind = uniqueKind('worker');
    const seen: number[] = [];
    const stop = queue.startWorker(
      { [jobKind]: async (payload) => void seen.push((payload as { n: number }).n) },
      { intervalMs: 20 },
    );
    await queue.enqueue(jobKind, { n: 1 });
    await queue.enqueue(jobKind, { n: 2 });
    await waitFor(() => seen.length === 2);
    await stop();
    await queue.enqueue(jobKind, { n: 3 });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(seen).toEqual([1, 2]);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
