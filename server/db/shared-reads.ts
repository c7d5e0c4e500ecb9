/**
 * Reads that requests arriving together share (issue 12: a signed-in page on PostgreSQL read its
 * player's balances with a statement of its own, a third of the page's server CPU, while ten
 * requests of the same player were in flight). Requests for the same key wait for the next read
 * and share its answer; a read asks for every key waiting, in one call.
 *
 * A read is shared only by requests that asked before it started: one that asks while a read is in
 * flight waits for the next, so every answer was read after its request asked, and shows whatever
 * committed before (a player's page right after their bet shows the bet, as a read of its own
 * would). A lone request on a quiet server reads at once: sharing adds no wait of its own.
 *
 * Not for reads inside a transaction, which must see the transaction's own writes.
 */

export interface SharedReadsOptions {
  /** Reads in flight at once (each holds a connection while it runs). */
  lanes: number;
}

interface Waiter<V> {
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

export function createSharedReads<K, V>(readAll: (keys: readonly K[]) => Promise<Map<K, V>>, options: SharedReadsOptions) {
  let waiting = new Map<K, Waiter<V>[]>();
  let inFlight = 0;
  const stats = { reads: 0, requests: 0 };

  function start(): void {
    const batch = waiting;
    waiting = new Map();
    inFlight++;
    stats.reads++;
    const keys = [...batch.keys()];
    readAll(keys)
      .then(
        (values) => {
          for (const [key, waiters] of batch) {
            if (values.has(key)) for (const waiter of waiters) waiter.resolve(values.get(key) as V);
            else
              for (const waiter of waiters) waiter.reject(new Error('the shared read answered no value for a key it was asked'));
          }
        },
        (error: unknown) => {
          for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
        },
      )
      .finally(() => {
        inFlight--;
        if (waiting.size > 0 && inFlight < options.lanes) start();
      });
  }

  return {
    /** The value under `key`, from a read that starts after this call. */
    read(key: K): Promise<V> {
      stats.requests++;
      return new Promise<V>((resolve, reject) => {
        const waiters = waiting.get(key);
        if (waiters) waiters.push({ resolve, reject });
        else waiting.set(key, [{ resolve, reject }]);
        if (inFlight < options.lanes) start();
      });
    },
    /** Reads made and the requests they answered. */
    stats: () => ({ ...stats }),
  };
}
