/**
 * Runs a database transaction again when PostgreSQL aborts it for a serialization failure
 * (40001) or a deadlock (40P01): both mean "nothing was written, try again" (architecture §5).
 */
import type { Database } from './client';

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Transaction;

const RETRYABLE_STATES = new Set(['40001', '40P01']);
/**
 * Unique violations that only mean "another writer got there first; read again": an audit
 * stream's next sequence number, and an idempotency key a twin applied while this transfer
 * waited for its locks (the wallet's lock statement read the keys before the wait; the next
 * attempt finds the key and answers with the first result), and a game round's request id a
 * twin request recorded while this one waited for the seed lock (game-rounds service.ts
 * lockSeedWithRequest; the next attempt replays the twin's round), and a sports ticket's request
 * id a twin slip recorded first (the next attempt answers the twin's ticket).
 */
const RETRYABLE_CONSTRAINTS = new Set([
  'audit_log_stream_seq',
  'ledger_transfers_idempotency_key',
  'game_rounds_request',
  'sport_tickets_request',
]);
const MAX_ATTEMPTS = 8;

let retryCount = 0;

/** How many transactions were retried since start, for /metrics and the benchmark. */
export function transactionRetries(): number {
  return retryCount;
}

/** The SQLSTATE of an error, looking through the wrappers drizzle puts around driver errors. */
export function sqlStateOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code.length === 5) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function constraintOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') return constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Runs fn in a transaction, retrying on 40001/40P01 with a short random back-off. Inside an
 * outer transaction (a Transaction passed as executor) it joins it instead: the outer one owns
 * the retry.
 */
export async function inTransaction<T>(executor: Executor, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  if (isTransaction(executor)) return fn(executor);
  let committed: (() => void)[] = [];
  const result = await withRetry(() => {
    committed = [];
    const attempt = committed;
    return (executor as Database).transaction((tx) => {
      afterCommitOf.set(tx, attempt);
      return fn(tx);
    });
  });
  // Outside the retry: the transaction has committed, and nothing a callback does may run it again
  // or answer its caller with an error.
  for (const callback of committed) runCommitted(callback);
  return result;
}

function runCommitted(callback: () => void): void {
  try {
    callback();
  } catch (error) {
    process.emitWarning(`a callback after a commit failed: ${(error as Error).message}`);
  }
}

/** What each transaction opened by inTransaction runs once it has committed; an attempt that failed runs none of it. */
const afterCommitOf = new WeakMap<Transaction, (() => void)[]>();

/**
 * Runs callback once what the executor wrote is visible to everyone: after the commit of a
 * transaction inTransaction opened (never, should it roll back), at once outside a transaction.
 * For what must not happen before the commit, such as forgetting a cached value: a read between
 * the forgetting and the commit would keep the old one (issue 12). A transaction opened elsewhere
 * (db.transaction directly) has no hook, and the callback runs at once, before its commit.
 */
export function afterCommit(executor: Executor, callback: () => void): void {
  const committed = isTransaction(executor) ? afterCommitOf.get(executor) : undefined;
  if (committed) committed.push(callback);
  else callback();
}

/**
 * Runs work that is atomic by itself (one statement, its own implicit transaction) and retries it
 * on the same failures as inTransaction. Only for work outside any transaction: inside one, the
 * failed statement has aborted the transaction and only its owner can start again.
 */
export async function withRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
      retryCount++;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}

function isRetryable(error: unknown): boolean {
  const state = sqlStateOf(error) ?? '';
  return RETRYABLE_STATES.has(state) || (state === '23505' && RETRYABLE_CONSTRAINTS.has(constraintOf(error) ?? ''));
}

export function isTransaction(executor: Executor): executor is Transaction {
  // Drizzle's transaction objects can roll back; the database object cannot.
  return typeof (executor as { rollback?: unknown }).rollback === 'function';
}
