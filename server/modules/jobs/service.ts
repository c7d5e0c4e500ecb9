/**
 * A small job queue in PostgreSQL (PGlite or a server: the same SQL). Jobs are claimed with
 * `FOR UPDATE SKIP LOCKED`, so any number of processes may poll one table and no job runs twice
 * at once; a failed run is tried again later with exponential backoff, up to max_attempts.
 *
 * Workers do not poll (issue 12, idle cost): a worker sleeps until the earliest job it knows is
 * due, and an enqueue wakes it at once, through a NOTIFY on `jobs` that PostgreSQL delivers when
 * the enqueueing transaction commits, to every process listening (and in process, for a
 * database without listeners). The worker's interval is only the longest it sleeps.
 *
 * Delivery is at least once: a worker that dies after its handler's side effect but before
 * marking the job done leaves it to run again when the lease ends, so handlers are idempotent.
 */
import { and, asc, eq, inArray, isNull, lte, or, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Executor } from '../../db/retry';
import { jobs, type JobRow } from './tables';

export interface JobInfo {
  id: number;
  kind: string;
  key: string | null;
  /** This run's number, from 1. */
  attempt: number;
  maxAttempts: number;
}

/** Runs one job; a throw means "try again later" (or give up once attempts are spent). */
export type JobHandler = (payload: unknown, job: JobInfo) => Promise<void>;
export type JobHandlers = Readonly<Record<string, JobHandler>>;

export interface EnqueueOptions {
  /** Not before this moment (default: now). */
  runAt?: Date;
  /** A dedupe key: a second job with the same key is not created. */
  key?: string;
  maxAttempts?: number;
  /** An open transaction: the job then exists only if that transaction commits. */
  executor?: Executor;
}

export interface RunDueOptions {
  /** Most jobs claimed by this call (default 20). */
  limit?: number;
  /** The clock: jobs with run_at at or before it are due (tests pass a later moment). */
  now?: Date;
  /** How long a claim holds a job before another worker may take it (default 5 minutes). */
  leaseMs?: number;
}

export interface RunDueResult {
  claimed: number;
  done: number;
  /** Failed and scheduled again. */
  retried: number;
  /** Failed on their last allowed attempt. */
  gaveUp: number;
  errors: Array<{ id: number; kind: string; attempt: number; message: string }>;
}

export interface WorkerOptions {
  /** The longest the worker sleeps when no job it knows of is due sooner. */
  intervalMs: number;
  batchSize?: number;
  logger?: { warn(object: object, message: string): void; error(object: object, message: string): void };
}

export const DEFAULT_MAX_ATTEMPTS = 10;
export const MAX_BACKOFF_MS = 60 * 60 * 1000;
const DEFAULT_LEASE_MS = 5 * 60 * 1000;
const MAX_ERROR_LENGTH = 2_000;

/** Wait before attempt n+1 after attempt n failed: 2^n seconds, at most an hour. */
export function jobBackoffMs(attempt: number): number {
  return Math.min(2 ** attempt * 1000, MAX_BACKOFF_MS);
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/** The NOTIFY channel an enqueue signals on. */
export const JOBS_CHANNEL = 'jobs';

export interface JobServiceOptions {
  /** LISTEN on a channel of the database (DatabaseHandle.listen): how other processes' enqueues wake a worker. */
  listen?: (channel: string, onNotify: (payload: string) => void, onMissed?: () => void) => Promise<() => Promise<void>>;
}

export function createJobService(db: Database, serviceOptions: JobServiceOptions = {}) {
  /** The workers of this process, woken by an enqueue here even without a database listener. */
  const wakers = new Set<() => void>();

  async function findByKey(key: string): Promise<JobRow | undefined> {
    const [row] = await db.select().from(jobs).where(eq(jobs.key, key)).limit(1);
    return row;
  }

  async function enqueue(kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<{ id: number; isNew: boolean }> {
    const executor = options.executor ?? db;
    const [created] = await executor
      .insert(jobs)
      .values({
        kind,
        payload: payload ?? null,
        runAt: options.runAt ?? new Date(),
        key: options.key ?? null,
        maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      })
      .onConflictDoNothing({ target: jobs.key })
      .returning({ id: jobs.id });
    if (created) {
      // Delivered at commit: a worker woken now might not see the job of an open transaction yet.
      await executor.execute(sql`SELECT pg_notify(${JOBS_CHANNEL}, '')`);
      if (!options.executor) for (const wake of wakers) wake();
      return { id: created.id, isNew: true };
    }
    const [existing] = await executor
      .select({ id: jobs.id })
      .from(jobs)
      .where(eq(jobs.key, options.key ?? ''))
      .limit(1);
    if (!existing) throw new Error(`job ${kind} was neither created nor found by its key`);
    return { id: existing.id, isNew: false };
  }

  /** Takes up to `limit` due jobs of the given kinds; other processes skip the rows taken. */
  async function claim(kinds: string[], limit: number, now: Date, leaseMs: number): Promise<JobRow[]> {
    if (kinds.length === 0 || limit <= 0) return [];
    const due = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          isNull(jobs.doneAt),
          isNull(jobs.failedAt),
          lte(jobs.runAt, now),
          inArray(jobs.kind, kinds),
          or(isNull(jobs.lockedUntil), lt(jobs.lockedUntil, now)),
        ),
      )
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(jobs)
      .set({ attempts: sql`${jobs.attempts} + 1`, lockedUntil: new Date(now.getTime() + leaseMs) })
      .where(inArray(jobs.id, due))
      .returning();
    return claimed.sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
  }

  /** Marks the outcome of one run, unless the lease ran out and another worker took the job. */
  async function settle(job: JobRow, now: Date, error: unknown): Promise<'done' | 'retried' | 'gaveUp' | 'lost'> {
    const isOurs = and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts), isNull(jobs.doneAt));
    let values: Partial<typeof jobs.$inferInsert>;
    let outcome: 'done' | 'retried' | 'gaveUp';
    if (error === undefined) {
      values = { doneAt: now, lockedUntil: null };
      outcome = 'done';
    } else if (job.attempts >= job.maxAttempts) {
      values = { failedAt: now, lockedUntil: null, lastError: messageOf(error) };
      outcome = 'gaveUp';
    } else {
      values = { runAt: new Date(now.getTime() + jobBackoffMs(job.attempts)), lockedUntil: null, lastError: messageOf(error) };
      outcome = 'retried';
    }
    const updated = await db.update(jobs).set(values).where(isOurs).returning({ id: jobs.id });
    return updated.length ? outcome : 'lost';
  }

  /** Claims the due jobs that have a handler and runs them one after another, in run_at order. */
  async function runDue(handlers: JobHandlers, options: RunDueOptions = {}): Promise<RunDueResult> {
    const now = options.now ?? new Date();
    const claimed = await claim(Object.keys(handlers), options.limit ?? 20, now, options.leaseMs ?? DEFAULT_LEASE_MS);
    const result: RunDueResult = { claimed: claimed.length, done: 0, retried: 0, gaveUp: 0, errors: [] };
    for (const job of claimed) {
      const handler = handlers[job.kind];
      let failure: unknown;
      try {
        if (!handler) throw new Error(`no handler for ${job.kind}`);
        await handler(job.payload, {
          id: job.id,
          kind: job.kind,
          key: job.key,
          attempt: job.attempts,
          maxAttempts: job.maxAttempts,
        });
      } catch (error) {
        failure = error ?? new Error('job failed');
        result.errors.push({ id: job.id, kind: job.kind, attempt: job.attempts, message: messageOf(failure) });
      }
      // Settled with the caller's clock, so a test that runs "an hour later" sees the backoff from there.
      const outcome = await settle(job, options.now ?? new Date(), failure);
      if (outcome !== 'lost') result[outcome] += 1;
    }
    return result;
  }

  /**
   * Runs due jobs one at a time until none is left (jobs the handlers enqueue included), for
   * tests and scripts: each round takes the single earliest job, so the order is run_at order.
   */
  async function drain(handlers: JobHandlers, options: { now?: Date; maxJobs?: number } = {}): Promise<RunDueResult> {
    const total: RunDueResult = { claimed: 0, done: 0, retried: 0, gaveUp: 0, errors: [] };
    const maxJobs = options.maxJobs ?? 1_000;
    while (total.claimed < maxJobs) {
      const round = await runDue(handlers, { limit: 1, now: options.now });
      if (round.claimed === 0) break;
      total.claimed += round.claimed;
      total.done += round.done;
      total.retried += round.retried;
      total.gaveUp += round.gaveUp;
      total.errors.push(...round.errors);
    }
    return total;
  }

  /** When the earliest waiting job of these kinds may be claimed (its run_at, or its claim's end). */
  async function nextDueAt(kinds: string[]): Promise<number | undefined> {
    if (kinds.length === 0) return undefined;
    const [row] = await db
      .select({ at: sql<string | null>`min(greatest(${jobs.runAt}, coalesce(${jobs.lockedUntil}, ${jobs.runAt})))` })
      .from(jobs)
      .where(and(isNull(jobs.doneAt), isNull(jobs.failedAt), inArray(jobs.kind, kinds)));
    return row?.at ? new Date(row.at).getTime() : undefined;
  }

  /**
   * Runs due jobs until stopped: after each round it sleeps until the next job is due (at most
   * `intervalMs`), or until an enqueue wakes it. The returned function waits for the current round.
   */
  function startWorker(handlers: JobHandlers, options: WorkerOptions): () => Promise<void> {
    const batchSize = options.batchSize ?? 20;
    const kinds = Object.keys(handlers);
    let isStopped = false;
    let timer: NodeJS.Timeout | undefined;
    let timerAt = Infinity;
    let isRunning = false;
    let isWokenWhileRunning = false;
    let current: Promise<void> = Promise.resolve();

    const schedule = (delayMs: number) => {
      if (isStopped) return;
      const at = Date.now() + delayMs;
      // An earlier wake-up stands: the next round will look again anyway.
      if (timer && timerAt <= at) return;
      clearTimeout(timer);
      timerAt = at;
      timer = setTimeout(() => {
        timer = undefined;
        timerAt = Infinity;
        current = tick();
      }, delayMs);
    };
    const wake = () => {
      if (isRunning) isWokenWhileRunning = true;
      else schedule(0);
    };
    const tick = async () => {
      isRunning = true;
      isWokenWhileRunning = false;
      let delayMs = options.intervalMs;
      try {
        const result = await runDue(handlers, { limit: batchSize });
        for (const error of result.errors) options.logger?.warn({ job: error }, 'job failed');
        // A full batch means more may be waiting: go again at once.
        if (result.claimed === batchSize) delayMs = 0;
        else {
          const dueAt = await nextDueAt(kinds);
          if (dueAt !== undefined) delayMs = Math.min(delayMs, Math.max(0, dueAt - Date.now()));
        }
      } catch (error) {
        options.logger?.error({ err: error }, 'job queue poll failed');
      }
      isRunning = false;
      schedule(isWokenWhileRunning ? 0 : delayMs);
    };

    wakers.add(wake);
    // A lost listening connection may have missed an enqueue: look again when it is back.
    const unlisten = serviceOptions.listen?.(JOBS_CHANNEL, wake, wake).catch((error: unknown) => {
      options.logger?.warn({ err: error }, 'job queue listener failed: the worker looks every interval');
      return undefined;
    });
    schedule(0);
    return async () => {
      isStopped = true;
      wakers.delete(wake);
      clearTimeout(timer);
      await (
        await unlisten
      )?.();
      await current;
    };
  }

  return {
    enqueue,
    runDue,
    drain,
    startWorker,
    findByKey,
    async find(id: number): Promise<JobRow | undefined> {
      const [row] = await db.select().from(jobs).where(eq(jobs.id, id)).limit(1);
      return row;
    },
  };
}

export type JobService = ReturnType<typeof createJobService>;
