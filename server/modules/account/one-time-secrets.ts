/**
 * Issuing and checking one-time secrets (contact codes, reset tokens): hashed at rest, expiring,
 * at most MAX_ATTEMPTS wrong tries, usable once. A new secret replaces the unused ones before it.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { oneTimeSecrets } from './tables';

export type SecretPurpose = 'contact' | 'password_reset' | 'second_factor';
export const MAX_ATTEMPTS = 5;
export const CODE_TTL_MS = 15 * 60 * 1000;
export const RESET_TTL_MS = 60 * 60 * 1000;
/** How long a social or messenger sign-in waits for the two-factor code. */
export const SECOND_FACTOR_TTL_MS = 5 * 60 * 1000;

const digest = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function createOneTimeSecrets(db: Database) {
  async function issue(userId: number, purpose: SecretPurpose, target: string, secret: string, ttlMs: number): Promise<void> {
    await db.transaction(async (tx) => {
      await tx
        .update(oneTimeSecrets)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(oneTimeSecrets.userId, userId),
            eq(oneTimeSecrets.purpose, purpose),
            eq(oneTimeSecrets.target, target),
            isNull(oneTimeSecrets.usedAt),
          ),
        );
      await tx
        .insert(oneTimeSecrets)
        .values({ userId, purpose, target, secretHash: digest(secret), expiresAt: new Date(Date.now() + ttlMs) });
    });
  }

  return {
    /** A fresh 6-digit code for a contact (spec §5: confirmation code of 6 digits). */
    async issueCode(userId: number, target: string): Promise<string> {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await issue(userId, 'contact', target, code, CODE_TTL_MS);
      return code;
    },

    async issueResetToken(userId: number, target: string): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      await issue(userId, 'password_reset', target, token, RESET_TTL_MS);
      return token;
    },

    /** True when the code matches the newest open secret; a wrong try counts against it. */
    async consumeCode(userId: number, target: string, code: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(oneTimeSecrets)
          .where(
            and(
              eq(oneTimeSecrets.userId, userId),
              eq(oneTimeSecrets.purpose, 'contact'),
              eq(oneTimeSecrets.target, target),
              isNull(oneTimeSecrets.usedAt),
            ),
          )
          .orderBy(desc(oneTimeSecrets.id))
          .limit(1)
          .for('update');
        if (!row || row.expiresAt < new Date() || row.attempts >= MAX_ATTEMPTS) return false;
        if (row.secretHash !== digest(code)) {
          await tx
            .update(oneTimeSecrets)
            .set({ attempts: sql`${oneTimeSecrets.attempts} + 1` })
            .where(eq(oneTimeSecrets.id, row.id));
          return false;
        }
        await tx.update(oneTimeSecrets).set({ usedAt: new Date() }).where(eq(oneTimeSecrets.id, row.id));
        return true;
      });
    },

    /**
     * A ticket for a sign-in that still needs the two-factor code (social or messenger): the
     * outside provider vouched for the player, the code is still to come. Bound to the browser
     * (visitor id) it was issued to.
     */
    async issueSecondFactorTicket(userId: number, visitorId: string): Promise<string> {
      const ticket = randomBytes(32).toString('base64url');
      await issue(userId, 'second_factor', visitorId, ticket, SECOND_FACTOR_TTL_MS);
      return ticket;
    },

    /** The player an open ticket of this browser is for, without using it up (a wrong code keeps it). */
    async secondFactorTicketOwner(ticket: string, visitorId: string): Promise<number | undefined> {
      const [row] = await db
        .select({ userId: oneTimeSecrets.userId })
        .from(oneTimeSecrets)
        .where(
          and(
            eq(oneTimeSecrets.secretHash, digest(ticket)),
            eq(oneTimeSecrets.purpose, 'second_factor'),
            eq(oneTimeSecrets.target, visitorId),
            isNull(oneTimeSecrets.usedAt),
            sql`${oneTimeSecrets.expiresAt} > now()`,
          ),
        )
        .limit(1);
      return row?.userId;
    },

    /** Uses the ticket up; false when another request used it first or it expired meanwhile. */
    async useSecondFactorTicket(ticket: string, visitorId: string): Promise<boolean> {
      const rows = await db
        .update(oneTimeSecrets)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(oneTimeSecrets.secretHash, digest(ticket)),
            eq(oneTimeSecrets.purpose, 'second_factor'),
            eq(oneTimeSecrets.target, visitorId),
            isNull(oneTimeSecrets.usedAt),
            sql`${oneTimeSecrets.expiresAt} > now()`,
          ),
        )
        .returning({ id: oneTimeSecrets.id });
      return rows.length > 0;
    },

    /** The player a reset token belongs to, marking it used; undefined when unknown, used or expired. */
    async consumeResetToken(token: string): Promise<number | undefined> {
      const [row] = await db
        .update(oneTimeSecrets)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(oneTimeSecrets.secretHash, digest(token)),
            eq(oneTimeSecrets.purpose, 'password_reset'),
            isNull(oneTimeSecrets.usedAt),
            sql`${oneTimeSecrets.expiresAt} > now()`,
          ),
        )
        .returning({ userId: oneTimeSecrets.userId });
      return row?.userId;
    },
  };
}

export type OneTimeSecrets = ReturnType<typeof createOneTimeSecrets>;
