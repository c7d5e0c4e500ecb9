/**
 * The one call a batch of transfers costs (issue 12: a round was 17–21 sequential statements,
 * each a round trip; then a lock statement, a write statement and an audit insert inside
 * BEGIN … COMMIT). The database function `ledger_write_batch` (migration 0024) locks the accounts
 * in id order, answers replays, checks the balances, writes transfers, postings, balances and the
 * chained audit entries, and answers the accounts as they are after it: the locks are held only
 * while it runs, and without a caller's transaction it is its own. Since migration 0025 one call
 * carries several callers' batches ("groups", each all or nothing on its own; transfer-groups.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import { parsedJson } from '../../db/json-value';
import { pgArray, type ArrayItem } from '../../db/pg-array';
import type { Executor } from '../../db/retry';
import type { PlayerAccountType } from './tables';

/** One transfer of a batch as the function writes it; its audit entry's content already hashed. */
export interface PlannedTransfer {
  siteId: string;
  userId: number | null;
  kind: string;
  currency: string;
  amountMinor: bigint;
  idempotencyKey: string | null;
  requestHash: string;
  reference: string | null;
  actor: string;
  reason: string;
  /** Its account ids, in leg order, and the legs' amounts. */
  postings: { accountId: number; amountMinor: bigint }[];
  /** The audit entry; `at` is the time its content hash was made with. */
  audit: { stream: string; action: string; payload: Record<string, unknown>; contentHash: string; at: Date };
}

export interface LockedAccount {
  id: number;
  ownerKind: 'player' | 'house';
  userId: number;
  type: PlayerAccountType | string;
  /** After the call. */
  balanceMinor: bigint;
}

/** What one group (one caller's all-or-nothing batch) of a call got. */
export type GroupOutcome =
  | { status: 'ok'; transfers: { id: number; isReplay: boolean }[]; accounts: LockedAccount[] }
  | { status: 'insufficient'; type: string }
  | { status: 'conflict'; key: string };

/** A call's answer: each group's outcome, or `missing` for the whole call (an account id is unknown). */
export type CallOutcome = { status: 'ok'; groups: GroupOutcome[] } | { status: 'missing' };

/** A group's answer when it was written alone and its call found an account missing. */
export type AloneOutcome = GroupOutcome | { status: 'missing' };

/** The answer of a call that carried one group. */
export const aloneOutcome = (outcome: CallOutcome): AloneOutcome => (outcome.status === 'ok' ? outcome.groups[0]! : outcome);

interface OutcomeJson {
  status: 'ok' | 'missing';
  groups?: ('ok' | 'insufficient' | 'conflict')[];
  details?: (string | null)[];
  ids?: (number | string | null)[];
  replays?: boolean[];
  accounts?: {
    id: number | string;
    ownerKind: 'player' | 'house';
    userId: number | string;
    type: string;
    balanceMinor: string;
  }[];
}

/** Every account id the groups name, ascending: the order the database locks them in. */
export function accountIdsOf(groups: readonly (readonly PlannedTransfer[])[]): number[] {
  const ids = groups.flatMap((group) => group.flatMap((transfer) => transfer.postings.map((posting) => posting.accountId)));
  return [...new Set(ids)].sort((a, b) => a - b);
}

/**
 * The arguments of a ledger_write_batch call carrying these groups, in its order: for writeBatch,
 * and for a module's own database function that writes its rows and the money in one statement
 * (provider_money, migration 0026) and hands the ledger's answer back (outcomeOf).
 */
export function ledgerCallArguments(groups: readonly (readonly PlannedTransfer[])[]): SQL {
  const transfers = groups.flat();
  const groupOf = groups.flatMap((group, index) => group.map(() => index + 1));
  const column = (pick: (transfer: PlannedTransfer) => ArrayItem) => pgArray(transfers.map(pick));
  const postings = transfers.flatMap((transfer, index) =>
    transfer.postings.map((posting) => ({ ...posting, transfer: index + 1 })),
  );
  return sql`${pgArray(accountIdsOf(groups))}::bigint[], ${pgArray(groupOf)}::int[],
      ${column((t) => t.idempotencyKey)}::text[], ${column((t) => t.requestHash)}::text[],
      ${column((t) => t.siteId)}::text[], ${column((t) => t.userId)}::bigint[], ${column((t) => t.kind)}::text[],
      ${column((t) => t.currency)}::text[], ${column((t) => t.amountMinor)}::bigint[], ${column((t) => t.reference)}::text[],
      ${column((t) => t.actor)}::text[], ${column((t) => t.reason)}::text[], ${column((t) => t.audit.stream)}::text[],
      ${column((t) => t.audit.action)}::text[], ${column((t) => JSON.stringify(t.audit.payload))}::jsonb[],
      ${column((t) => t.audit.contentHash)}::text[], ${column((t) => t.audit.at.toISOString())}::timestamptz[],
      ${pgArray(postings.map((p) => p.transfer))}::int[], ${pgArray(postings.map((p) => p.accountId))}::bigint[],
      ${pgArray(postings.map((p) => p.amountMinor))}::bigint[]`;
}

/**
 * Writes groups of transfers in one call (each group all or nothing on its own; one group is a
 * caller's batch). Each group's answer carries the accounts it named, as they are after the call.
 */
export async function writeBatch(executor: Executor, groups: readonly (readonly PlannedTransfer[])[]): Promise<CallOutcome> {
  const result = await executor.execute(sql`SELECT ledger_write_batch(${ledgerCallArguments(groups)}) AS outcome`);
  const [row] = (result as unknown as { rows: { outcome: OutcomeJson | string }[] }).rows;
  return row ? outcomeOf(groups, row.outcome) : { status: 'missing' };
}

/** What ledger_write_batch answered (its json, parsed or not) for these groups. */
export function outcomeOf(groups: readonly (readonly PlannedTransfer[])[], answered: unknown): CallOutcome {
  const outcome = parsedJson<OutcomeJson>(answered);
  if (outcome.status !== 'ok') return { status: 'missing' };
  const accounts: LockedAccount[] = (outcome.accounts ?? []).map((account) => ({
    id: Number(account.id),
    ownerKind: account.ownerKind,
    userId: Number(account.userId),
    type: account.type,
    balanceMinor: BigInt(account.balanceMinor),
  }));
  let offset = 0;
  return {
    status: 'ok',
    groups: groups.map((group, index): GroupOutcome => {
      const first = offset;
      offset += group.length;
      const status = outcome.groups?.[index];
      const detail = outcome.details?.[index] ?? '';
      if (status === 'insufficient') return { status, type: detail };
      if (status === 'conflict') return { status, key: detail };
      const named = new Set(group.flatMap((transfer) => transfer.postings.map((posting) => posting.accountId)));
      return {
        status: 'ok',
        transfers: group.map((_, at) => ({
          id: Number(outcome.ids?.[first + at]),
          isReplay: outcome.replays?.[first + at] === true,
        })),
        accounts: accounts.filter((account) => named.has(account.id)),
      };
    }),
  };
}
