/**
 * The two statements a batch of transfers costs besides its audit entries (issue 12: a round
 * was 17–21 sequential statements, each a round trip). The first locks the accounts in id order
 * and, in the same round trip, finds idempotency keys already applied and draws the new
 * transfers' ids; the second writes transfers, postings and cached balances and reads the heads
 * of the audit streams, after the locks, so it sees what the previous lock holder committed.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/retry';

type ArrayItem = string | number | bigint | null;

/**
 * A PostgreSQL array literal, sent as one text parameter and cast by the statement: drizzle
 * would spread a JavaScript array into a list of parameters, and PGlite and node-postgres
 * serialise arrays differently.
 */
export function pgArray(values: readonly ArrayItem[]): string {
  const items = values.map((value) =>
    value === null ? 'NULL' : `"${String(value).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
  );
  return `{${items.join(',')}}`;
}

export interface LockedAccount {
  id: number;
  ownerKind: 'player' | 'house';
  userId: number;
  type: string;
  balanceMinor: bigint;
}

export interface AppliedKey {
  id: number;
  key: string;
  requestHash: string | null;
}

interface LockRow {
  id: string;
  owner_kind: 'player' | 'house';
  user_id: string;
  type: string;
  balance_minor: string;
  applied: AppliedKey[] | string | null;
  new_ids: string[] | string | null;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** PGlite returns json and text[] parsed, node-postgres text[] parsed and json parsed too; be lenient either way. */
function parsedJson<T>(value: T | string | null): T | null {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

function parsedTextArray(value: string[] | string | null): string[] {
  if (value === null) return [];
  if (Array.isArray(value)) return value;
  return value
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean);
}

/**
 * Locks the accounts (`FOR NO KEY UPDATE`, in id order) and reads, in the same statement, the
 * keys of `keys` already applied and `count` fresh transfer ids. The keys are read in the
 * statement's snapshot: a twin that commits while this one waits for a lock is not seen here,
 * and its key makes the later insert fail with a unique violation, which the transaction's retry
 * turns into a replay (retry.ts).
 */
export async function lockAccounts(
  tx: Executor,
  accountIds: readonly number[],
  keys: readonly string[],
  count: number,
): Promise<{ accounts: LockedAccount[]; applied: AppliedKey[]; newIds: number[] }> {
  const rows = rowsOf<LockRow>(
    await tx.execute(sql`
      SELECT a.id::text AS id, a.owner_kind, a.user_id::text AS user_id, a.type, a.balance_minor::text AS balance_minor,
        (SELECT json_agg(json_build_object('id', t.id, 'key', t.idempotency_key, 'requestHash', t.request_hash))
           FROM ledger_transfers t WHERE t.idempotency_key = ANY(${pgArray(keys)}::text[])) AS applied,
        (SELECT array_agg(nextval('ledger_transfers_id_seq'))::text[] FROM generate_series(1, ${count}::int)) AS new_ids
      FROM ledger_accounts a
      WHERE a.id = ANY(${pgArray(accountIds)}::bigint[])
      ORDER BY a.id
      FOR NO KEY UPDATE`),
  );
  const first = rows[0];
  return {
    accounts: rows.map((row) => ({
      id: Number(row.id),
      ownerKind: row.owner_kind,
      userId: Number(row.user_id),
      type: row.type,
      balanceMinor: BigInt(row.balance_minor),
    })),
    applied: (first ? (parsedJson(first.applied) ?? []) : []).map((item) => ({ ...item, id: Number(item.id) })),
    newIds: first ? parsedTextArray(first.new_ids).map(Number) : [],
  };
}

export interface TransferRow {
  id: number;
  siteId: string;
  userId: number | null;
  kind: string;
  currency: string;
  amountMinor: bigint;
  idempotencyKey: string | null;
  requestHash: string | null;
  reference: string | null;
  actor: string;
  reason: string;
}

export interface PostingRow {
  transferId: number;
  accountId: number;
  currency: string;
  amountMinor: bigint;
}

export interface StreamHead {
  stream: string;
  seq: number;
  hash: string;
}

/**
 * Writes the transfers, their postings (ids in leg order) and the accounts' new cached balances
 * in one statement, and returns the current head of each audit stream: the locks are held, so
 * this statement's snapshot sees the head the previous holder committed.
 */
export async function writeTransfers(
  tx: Executor,
  transfers: readonly TransferRow[],
  postings: readonly PostingRow[],
  deltas: ReadonlyMap<number, bigint>,
  streams: readonly string[],
): Promise<StreamHead[]> {
  const changed = [...deltas].filter(([, delta]) => delta !== 0n);
  const column = <K extends keyof TransferRow>(key: K) => pgArray(transfers.map((row) => row[key] as ArrayItem));
  const rows = rowsOf<{ stream: string; seq: number; hash: string }>(
    await tx.execute(sql`
      WITH transfers AS (
        INSERT INTO ledger_transfers (id, site_id, user_id, kind, currency, amount_minor, idempotency_key, request_hash, reference, actor, reason)
        SELECT * FROM unnest(${column('id')}::bigint[], ${column('siteId')}::text[], ${column('userId')}::bigint[], ${column('kind')}::text[],
          ${column('currency')}::text[], ${column('amountMinor')}::bigint[], ${column('idempotencyKey')}::text[], ${column('requestHash')}::text[],
          ${column('reference')}::text[], ${column('actor')}::text[], ${column('reason')}::text[])
      ), postings AS (
        INSERT INTO ledger_postings (transfer_id, account_id, currency, amount_minor)
        SELECT p.transfer_id, p.account_id, p.currency, p.amount
        FROM unnest(${pgArray(postings.map((p) => p.transferId))}::bigint[], ${pgArray(postings.map((p) => p.accountId))}::bigint[],
          ${pgArray(postings.map((p) => p.currency))}::text[], ${pgArray(postings.map((p) => p.amountMinor))}::bigint[])
          WITH ORDINALITY AS p(transfer_id, account_id, currency, amount, n)
        ORDER BY p.n
      ), balances AS (
        UPDATE ledger_accounts AS a SET balance_minor = a.balance_minor + d.delta
        FROM unnest(${pgArray(changed.map(([id]) => id))}::bigint[], ${pgArray(changed.map(([, delta]) => delta))}::bigint[]) AS d(id, delta)
        WHERE a.id = d.id
      )
      SELECT s.stream, h.seq, h.hash
      FROM unnest(${pgArray(streams)}::text[]) AS s(stream)
      CROSS JOIN LATERAL (SELECT seq, hash FROM audit_log WHERE audit_log.stream = s.stream ORDER BY seq DESC LIMIT 1) AS h`),
  );
  return rows.map((row) => ({ stream: row.stream, seq: Number(row.seq), hash: row.hash }));
}
