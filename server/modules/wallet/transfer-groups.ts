/**
 * Group commit for transfers made outside any caller's transaction (issue 12: ledger transfers
 * between many players ≥ 1.0 × pgbench TPC-B, one contended player ≥ 0.5 ×). Callers whose
 * batches arrive while the database is busy with earlier calls wait in a queue; the next free lane
 * sends everything waiting as one call to ledger_write_batch, so they share one round trip, one
 * lock statement and one commit, and a hot account is locked once for all of them instead of once
 * each. A lone caller on a quiet server goes out at once: grouping never adds a wait of its own.
 *
 * Each group stays all or nothing on its own (the function undoes a refused group and goes on
 * with the next), and each caller learns only its own group's answer. Should the call fail as a
 * whole (an error, or an account id the database does not know), no group of it was written: each
 * is sent again alone, so one caller's fault never becomes another's.
 */
import { aloneOutcome, type AloneOutcome, type CallOutcome, type PlannedTransfer } from './transfer-sql';

/** One call's worth of groups in, their outcomes out (the call retried as the caller sees fit). */
export type WriteGroups = (groups: readonly (readonly PlannedTransfer[])[]) => Promise<CallOutcome>;

export interface TransferGroupsOptions {
  /** Calls in flight at once (each holds a connection while it runs). */
  lanes: number;
  /** Transfers per call at most; a group larger than this goes alone. */
  maxTransfers: number;
}

interface Waiting {
  group: readonly PlannedTransfer[];
  /** The accounts the group names. */
  accounts: ReadonlySet<number>;
  resolve: (outcome: AloneOutcome) => void;
  reject: (error: unknown) => void;
}

export function createTransferGroups(write: WriteGroups, options: TransferGroupsOptions) {
  const queue: Waiting[] = [];
  let inFlight = 0;
  const stats = { calls: 0, groups: 0 };

  /** Accounts the calls in flight hold (or will hold) locked; no two calls in flight share one. */
  const busyAccounts = new Set<number>();

  /**
   * The waiting groups, oldest first, up to the call's size, leaving for later any group that
   * names an account a call in flight holds: that group would only wait on the database's row
   * lock while holding a connection, and the groups behind it that touch other accounts would
   * wait with it. It goes in the first call after the one that holds its account.
   */
  function takeCall(): { call: Waiting[]; accounts: Set<number> } {
    const call: Waiting[] = [];
    const accounts = new Set<number>();
    let transfers = 0;
    for (let index = 0; index < queue.length;) {
      const next = queue[index]!;
      if (call.length > 0 && transfers + next.group.length > options.maxTransfers) break;
      if ([...next.accounts].some((id) => busyAccounts.has(id))) {
        index++;
        continue;
      }
      call.push(...queue.splice(index, 1));
      for (const id of next.accounts) accounts.add(id);
      transfers += next.group.length;
    }
    return { call, accounts };
  }

  async function writeAlone(waiting: Waiting): Promise<void> {
    try {
      waiting.resolve(aloneOutcome(await write([waiting.group])));
    } catch (error) {
      waiting.reject(error);
    }
  }

  async function run(call: Waiting[]): Promise<void> {
    if (call.length === 1) return writeAlone(call[0]!);
    let outcome: CallOutcome | undefined;
    try {
      outcome = await write(call.map((waiting) => waiting.group));
    } catch {
      outcome = undefined;
    }
    if (outcome?.status === 'ok') {
      call.forEach((waiting, index) => waiting.resolve(outcome.groups[index]!));
      return;
    }
    // Nothing of the call was written: each group again, alone, meets only its own fault.
    await Promise.all(call.map(writeAlone));
  }

  function pump(): void {
    while (inFlight < options.lanes && queue.length > 0) {
      const { call, accounts } = takeCall();
      if (call.length === 0) return;
      for (const id of accounts) busyAccounts.add(id);
      inFlight++;
      stats.calls++;
      stats.groups += call.length;
      void run(call).finally(() => {
        for (const id of accounts) busyAccounts.delete(id);
        inFlight--;
        pump();
      });
    }
  }

  return {
    /** Writes one caller's batch, all or nothing, grouped with whatever else is waiting. */
    write(group: readonly PlannedTransfer[]): Promise<AloneOutcome> {
      const accounts = new Set(group.flatMap((transfer) => transfer.postings.map((posting) => posting.accountId)));
      return new Promise((resolve, reject) => {
        queue.push({ group, accounts, resolve, reject });
        pump();
      });
    },

    /** Calls made and groups they carried since the start (groups ÷ calls: how much grouping saved). */
    stats(): { calls: number; groups: number } {
      return { ...stats };
    },
  };
}

export type TransferGroups = ReturnType<typeof createTransferGroups>;
