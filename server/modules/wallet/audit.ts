/**
 * The hash-chained audit log (architecture §5): every transfer and every operator action
 * appends an entry; each entry's hash covers its fields and the previous hash of its stream, so
 * editing or removing an entry breaks the chain from there on.
 */
import { createHash } from 'node:crypto';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/retry';
import { auditLog } from './tables';
import { CanonicalText, canonicalJson } from '#common/canonical-json';

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

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** Version 1: every field, the previous hash among them, in one hash made by the application. */
export function entryHash(entry: HashedFields): string {
  const { stream, seq, at, actor, action, subject, reason, payload, prevHash } = entry;
  return sha256Hex(canonicalJson({ stream, seq, at: at.toISOString(), actor, action, subject, reason, payload, prevHash }));
}

/**
 * Version 2 (transfers, written by the database function ledger_write_batch, migration 0024): the
 * application hashes the entry's content before it knows its place in the stream; the database
 * chains that hash to the stream's head with the entry's sequence number and subject.
 */
export function contentHash(
  entry: Pick<HashedFields, 'stream' | 'at' | 'actor' | 'action' | 'reason'> & {
    payload: HashedFields['payload'] | CanonicalText;
  },
): string {
  const { stream, at, actor, action, reason, payload } = entry;
  return sha256Hex(canonicalJson({ stream, at: at.toISOString(), actor, action, reason, payload }));
}

/** Version 2's chain step, exactly as ledger_write_batch computes it. */
export function chainedHash(prevHash: string, stream: string, seq: number, subject: string, content: string): string {
  return sha256Hex(`${prevHash}|${stream}|${seq}|${subject}|${content}`);
}

/** What an entry's hash must be, by the version it was written with. */
export function expectedHash(entry: HashedFields & { hashVersion: number }): string {
  if (entry.hashVersion === 2) return chainedHash(entry.prevHash, entry.stream, entry.seq, entry.subject, contentHash(entry));
  return entryHash(entry);
}

/** The payload as it reads back from the database (bigints as strings, keys sorted): what is hashed. */
const storedPayload = (payload: Record<string, unknown>) => JSON.parse(canonicalJson(payload)) as Record<string, unknown>;

/**
 * A new entry's payload as stored, and its version 2 content hash, from one serialisation of the
 * payload: the same hash as contentHash of the stored payload, without serialising it again.
 */
export function storedAndHashed(
  fields: Pick<HashedFields, 'stream' | 'at' | 'actor' | 'action' | 'reason'>,
  payload: Record<string, unknown>,
): { payload: Record<string, unknown>; contentHash: string } {
  const text = canonicalJson(payload);
  return {
    payload: JSON.parse(text) as Record<string, unknown>,
    contentHash: contentHash({ ...fields, payload: new CanonicalText(text) }),
  };
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
  const payload = storedPayload(input.payload);
  // Postgres keeps microseconds, JavaScript milliseconds: hash what will be read back.
  const fields: HashedFields = { ...input, payload, seq: (last?.seq ?? 0) + 1, at, prevHash: last?.hash ?? GENESIS_HASH };
  await tx.insert(auditLog).values({ ...fields, hash: entryHash(fields) });
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
      if (expectedHash(row) !== row.hash)
        problems.push({ stream: row.stream, seq: row.seq, problem: 'entry hash does not match its content' });
      heads.set(row.stream, { seq: row.seq, hash: row.hash });
    }
  }
  return { entries, streams: heads.size, problems };
}
