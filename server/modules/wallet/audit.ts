/**
 * The hash-chained audit log (architecture §5): every transfer and every operator action
 * appends an entry; each entry's hash covers its fields and the previous hash of its stream, so
 * editing or removing an entry breaks the chain from there on.
 */
import { createHash } from 'node:crypto';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/retry';
import { auditLog } from './tables';
import { canonicalJson } from '#common/canonical-json';

export const GENESIS_HASH = '0'.repeat(64);

export interface AuditEntryInput {
  /** Whose chain: `player:{id}`, `house:{siteId}` or `operators`. */
  stream: string;
  actor: string;
  action: string;
  subject: string;
  reason: string;
  payload: Record<string, unknown>;
}

interface HashedFields extends AuditEntryInput {
  seq: number;
  at: Date;
  prevHash: string;
}

export function entryHash(entry: HashedFields): string {
  const { stream, seq, at, actor, action, subject, reason, payload, prevHash } = entry;
  return createHash('sha256')
    .update(canonicalJson({ stream, seq, at: at.toISOString(), actor, action, subject, reason, payload, prevHash }))
    .digest('hex');
}

/**
 * Appends to a stream. The caller holds the locks that serialise writers of this stream (a
 * player's accounts for `player:*`); a rare race on other streams ends in a unique violation
 * and the transaction is retried by the caller.
 */
export async function appendAudit(
  tx: Executor,
  input: AuditEntryInput,
  at = new Date(),
  head?: { seq: number; hash: string } | null,
): Promise<void> {
  // head: the stream's last entry when the caller has read it already (null: the stream is empty).
  const last =
    head !== undefined
      ? head
      : (
          await tx
            .select({ seq: auditLog.seq, hash: auditLog.hash })
            .from(auditLog)
            .where(eq(auditLog.stream, input.stream))
            .orderBy(desc(auditLog.seq))
            .limit(1)
        )[0];
  const payload = JSON.parse(canonicalJson(input.payload)) as Record<string, unknown>;
  // Postgres keeps microseconds, JavaScript milliseconds: hash what will be read back.
  const fields: HashedFields = { ...input, payload, seq: (last?.seq ?? 0) + 1, at, prevHash: last?.hash ?? GENESIS_HASH };
  await tx.insert(auditLog).values({ ...fields, hash: entryHash(fields) });
}

/**
 * Appends several entries in one statement, chaining each after the last of its stream: `heads`
 * are the streams' last entries as read under the locks that serialise their writers (a stream
 * absent from it is empty).
 */
export async function appendAuditEntries(
  tx: Executor,
  inputs: readonly AuditEntryInput[],
  heads: ReadonlyMap<string, { seq: number; hash: string }>,
  at = new Date(),
): Promise<void> {
  if (inputs.length === 0) return;
  const last = new Map(heads);
  const rows = inputs.map((input) => {
    const head = last.get(input.stream);
    const payload = JSON.parse(canonicalJson(input.payload)) as Record<string, unknown>;
    const fields: HashedFields = { ...input, payload, seq: (head?.seq ?? 0) + 1, at, prevHash: head?.hash ?? GENESIS_HASH };
    const hash = entryHash(fields);
    last.set(input.stream, { seq: fields.seq, hash });
    return { ...fields, hash };
  });
  await tx.insert(auditLog).values(rows);
}

export interface ChainProblem {
  stream: string;
  seq: number;
  problem: string;
}

/** Walks every stream from its first entry, recomputing hashes; reports each break. */
export async function verifyAuditChains(
  db: Executor,
  pageSize = 5_000,
): Promise<{ entries: number; streams: number; problems: ChainProblem[] }> {
  const problems: ChainProblem[] = [];
  const heads = new Map<string, { seq: number; hash: string }>();
  let afterId = 0;
  let entries = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.id} > ${afterId}`)
      .orderBy(asc(auditLog.id))
      .limit(pageSize);
    if (rows.length === 0) break;
    for (const row of rows) {
      entries++;
      afterId = row.id;
      const head = heads.get(row.stream) ?? { seq: 0, hash: GENESIS_HASH };
      if (row.seq !== head.seq + 1)
        problems.push({ stream: row.stream, seq: row.seq, problem: `sequence jumps from ${head.seq} to ${row.seq}` });
      if (row.prevHash !== head.hash)
        problems.push({ stream: row.stream, seq: row.seq, problem: 'previous hash does not match' });
      if (entryHash(row) !== row.hash)
        problems.push({ stream: row.stream, seq: row.seq, problem: 'entry hash does not match its content' });
      heads.set(row.stream, { seq: row.seq, hash: row.hash });
    }
  }
  return { entries, streams: heads.size, problems };
}
