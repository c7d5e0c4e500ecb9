/**
 * Key-value storage per visitor or player (spec §7 storage.*). Bounded: a key of at most 64
 * characters, a value of at most 4 KiB, at most 100 keys per owner; past that,
 * StorageQuotaExceededException and nothing is written.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { storageEntries } from './tables';
import { ApiError } from '#common/errors';
import { STORAGE_LIMITS } from '#common/contract/storage';

export { STORAGE_LIMITS };

export function storageOwner(identity: { uid: number; visitorId: string }): string {
  return identity.uid > 0 ? `u:${identity.uid}` : `v:${identity.visitorId}`;
}

export function createStorageService(db: Database) {
  return {
    async get(owner: string, keys: string[]): Promise<Record<string, string | null>> {
      const wanted = [...new Set(keys)];
      if (wanted.length === 0) return {};
      const rows = await db
        .select({ key: storageEntries.key, value: storageEntries.value })
        .from(storageEntries)
        .where(and(eq(storageEntries.owner, owner), inArray(storageEntries.key, wanted)));
      const found = new Map(rows.map((row) => [row.key, row.value]));
      return Object.fromEntries(wanted.map((key) => [key, found.get(key) ?? null]));
    },

    async getKeys(owner: string): Promise<string[]> {
      const rows = await db
        .select({ key: storageEntries.key })
        .from(storageEntries)
        .where(eq(storageEntries.owner, owner))
        .orderBy(asc(storageEntries.key));
      return rows.map((row) => row.key);
    },

    /** The stored value, or `create()` stored first; two racing processes end with the same value. */
    async getOrCreate(owner: string, key: string, create: () => string): Promise<string> {
      await db.insert(storageEntries).values({ owner, key, value: create() }).onConflictDoNothing();
      const [row] = await db
        .select({ value: storageEntries.value })
        .from(storageEntries)
        .where(and(eq(storageEntries.owner, owner), eq(storageEntries.key, key)));
      if (!row) throw new Error(`storage ${owner}/${key} vanished`);
      return row.value;
    },

    async set(owner: string, key: string, value: string): Promise<void> {
      if (Buffer.byteLength(value, 'utf8') > STORAGE_LIMITS.valueBytes) {
        throw new ApiError('StorageQuotaExceededException', 'The value is too large', {
          field: 'value',
          max_bytes: STORAGE_LIMITS.valueBytes,
        });
      }
      await db.transaction(async (tx) => {
        // Serialise writers of one owner so two parallel sets cannot both pass the key count.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${owner}))`);
        const [existing] = await tx
          .select({ key: storageEntries.key })
          .from(storageEntries)
          .where(and(eq(storageEntries.owner, owner), eq(storageEntries.key, key)));
        if (!existing) {
          const [count] = await tx
            .select({ n: sql<number>`count(*)::int` })
            .from(storageEntries)
            .where(eq(storageEntries.owner, owner));
          if ((count?.n ?? 0) >= STORAGE_LIMITS.keysPerOwner) {
            throw new ApiError('StorageQuotaExceededException', 'Too many stored keys', {
              max_keys: STORAGE_LIMITS.keysPerOwner,
            });
          }
        }
        await tx
          .insert(storageEntries)
          .values({ owner, key, value })
          .onConflictDoUpdate({
            target: [storageEntries.owner, storageEntries.key],
            set: { value, updatedAt: new Date() },
          });
      });
    },
  };
}

export type StorageService = ReturnType<typeof createStorageService>;
