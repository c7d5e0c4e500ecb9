/**
 * Tells every process whose balances the shared rounds and the provider's money moved, after their
 * commit (issue 12, migration 0031). Their database functions run with the balance trigger's
 * NOTIFY left to the caller: a NOTIFY in the transaction would hold the database's notification
 * lock until its commit is flushed, one such commit after another. Sent from here, outside any
 * transaction and without waiting for the flush (DatabaseHandle.notify: a lost notification costs a
 * stale balance, never money), it serialises nothing of the ledger's.
 *
 * Each notification costs a transaction here and a delivery to every process's listener, so the
 * players written within SEND_INTERVAL_MS go in one: at most one every 20 ms. A round after a quiet
 * spell is told at once; under load, another process hears of a shared round within about 20 ms of
 * its commit, far below what a player can see. Every 2 ms (about one notification a shared call),
 * sending them took 4 % of the server's CPU with ten players' rounds (bench:rounds, profiled), most
 * of it the socket write that wakes the notifier's backend, which then takes a core from the
 * rounds. A notification that fails is sent again with the next ones. What a crash between a
 * commit and its notification loses, the balances' age limit (services.ts) bounds.
 */
import type { DatabaseHandle } from '../../db/client';
import { CACHE_CHANGE_CHANNEL } from '../../db/cache-notifications';

/** Longest list of players in one notification (PostgreSQL refuses payloads of 8000 bytes): past it, everyone. */
const MAX_PLAYERS_TEXT = 7_000;
const RETRY_MS = 1_000;
/** Least time between two notifications' starts. */
const SEND_INTERVAL_MS = 20;

export interface BalanceChangeTeller {
  /** These players' balances were written and committed: every process is told, soon. */
  tell(userIds: readonly number[]): void;
  /** Resolves once everything told so far was sent, or is waiting to be tried again (tests). */
  sent(): Promise<void>;
  /**
   * Sends what is pending once more, then nothing: before the database closes (shutdown, a test's
   * end). Without it, a notification that failed on a closed database was tried again every
   * second for as long as the process lived.
   */
  close(): Promise<void>;
}

export function createBalanceChangeTeller(notify: DatabaseHandle['notify']): BalanceChangeTeller {
  const pending = new Set<number>();
  let sending: Promise<void> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let lastSentAt = 0;
  let isClosed = false;

  async function sendPending(): Promise<void> {
    while (pending.size > 0) {
      const wait = lastSentAt + SEND_INTERVAL_MS - performance.now();
      // The players written meanwhile, this call's other rounds first among them, join this one.
      await new Promise((resolve) => (wait > 0 ? setTimeout(resolve, wait) : setImmediate(resolve)));
      lastSentAt = performance.now();
      const players = [...pending];
      pending.clear();
      const listed = players.join(',');
      const payload = `ledger_accounts ${listed.length > MAX_PLAYERS_TEXT ? '*' : listed}`;
      try {
        await notify(CACHE_CHANGE_CHANNEL, payload);
      } catch (error) {
        players.forEach((userId) => pending.add(userId));
        process.emitWarning(`balance change notification not sent: ${(error as Error).message}`);
        if (isClosed) return;
        retry ??= setTimeout(() => {
          retry = undefined;
          startSending();
        }, RETRY_MS).unref();
        return;
      }
    }
  }

  function startSending(): void {
    if (sending || retry) return;
    sending = sendPending().finally(() => {
      sending = undefined;
    });
  }

  return {
    tell(userIds) {
      if (isClosed) return;
      userIds.forEach((userId) => pending.add(userId));
      startSending();
    },
    async sent() {
      while (sending) await sending;
    },
    async close() {
      isClosed = true;
      clearTimeout(retry);
      retry = undefined;
      startSending();
      while (sending) await sending;
      pending.clear();
    },
  };
}
