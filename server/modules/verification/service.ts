/**
 * Identity verification (spec §7: setUserOnVerification, createApplicant, getAccessToken) with a
 * built-in sandbox provider. The provider's decision reaches us only through a webhook signed
 * with HMAC-SHA256 over the raw body; each event id is applied once.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { AccountService } from '../account';
import { kycApplicants, kycWebhookEvents, type ApplicantStatus } from './tables';

export const ACCESS_TOKEN_TTL_MS = 20 * 60 * 1000;
export const SIGNATURE_HEADER = 'x-payload-digest';

export interface ReviewEvent {
  event_id: string;
  type: 'applicantPending' | 'applicantReviewed';
  applicant_id: string;
  review?: { answer: 'GREEN' | 'RED'; reject_reason?: string };
}

export function signPayload(secret: string, rawBody: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

export function isSignatureValid(secret: string, rawBody: string, signature: string | undefined): boolean {
  if (!signature || !/^[0-9a-f]{64}$/.test(signature)) return false;
  return timingSafeEqual(Buffer.from(signPayload(secret, rawBody), 'hex'), Buffer.from(signature, 'hex'));
}

/** A short-lived token naming the applicant, for the provider's page (getAccessToken). */
export function createAccessToken(
  secret: string,
  applicantId: string,
  externalActionId: string | undefined,
  nowMs = Date.now(),
): string {
  const body = Buffer.from(
    JSON.stringify({ a: applicantId, x: externalActionId ?? null, exp: nowMs + ACCESS_TOKEN_TTL_MS }),
  ).toString('base64url');
  return `${body}.${signPayload(secret, body)}`;
}

export function readAccessToken(
  secret: string,
  token: string,
  nowMs = Date.now(),
): { applicantId: string; externalActionId: string | null } | undefined {
  const [body = '', signature] = token.split('.');
  if (!isSignatureValid(secret, body, signature)) return undefined;
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { a: string; x: string | null; exp: number };
  return claims.exp > nowMs ? { applicantId: claims.a, externalActionId: claims.x } : undefined;
}

/** What a review means for the account flags of spec §3. */
export function flagsFor(status: ApplicantStatus): {
  isOnVerification: boolean;
  isVerified: boolean;
  isKycBlockEnabled: boolean;
} {
  if (status === 'approved') return { isOnVerification: false, isVerified: true, isKycBlockEnabled: false };
  if (status === 'rejected') return { isOnVerification: false, isVerified: false, isKycBlockEnabled: true };
  return { isOnVerification: true, isVerified: false, isKycBlockEnabled: false };
}

export function createVerificationService(db: Database, accounts: AccountService) {
  async function findApplicantOf(userId: number) {
    const [row] = await db.select().from(kycApplicants).where(eq(kycApplicants.userId, userId)).limit(1);
    return row;
  }

  return {
    findApplicantOf,
    async findApplicant(id: string) {
      const [row] = await db.select().from(kycApplicants).where(eq(kycApplicants.id, id)).limit(1);
      return row;
    },

    async setOnVerification(userId: number): Promise<void> {
      await accounts.setVerificationFlags(userId, { isOnVerification: true });
    },

    /** The player's applicant, created once. */
    async createApplicant(userId: number, siteId: string) {
      const existing = await findApplicantOf(userId);
      if (existing) return existing;
      const [created] = await db
        .insert(kycApplicants)
        .values({ id: `app_${randomBytes(12).toString('hex')}`, userId, siteId })
        .onConflictDoNothing()
        .returning();
      return created ?? (await findApplicantOf(userId));
    },

    /**
     * Applies a verified webhook event of a site; false when the event id was seen before or
     * names an applicant of another site (one site's secret speaks for that site's players only).
     */
    async applyEvent(event: ReviewEvent, siteId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [fresh] = await tx
          .insert(kycWebhookEvents)
          .values({ eventId: event.event_id, applicantId: event.applicant_id, type: event.type })
          .onConflictDoNothing()
          .returning();
        if (!fresh) return false;
        const [applicant] = await tx
          .select()
          .from(kycApplicants)
          .where(eq(kycApplicants.id, event.applicant_id))
          .limit(1)
          .for('update');
        if (!applicant || applicant.siteId !== siteId) return false;
        const status: ApplicantStatus =
          event.type === 'applicantPending' ? 'pending' : event.review?.answer === 'GREEN' ? 'approved' : 'rejected';
        // A final decision is not undone by a late "pending" event delivered out of order.
        if (status === 'pending' && (applicant.status === 'approved' || applicant.status === 'rejected')) return true;
        await tx
          .update(kycApplicants)
          .set({
            status,
            rejectReason: status === 'rejected' ? (event.review?.reject_reason ?? null) : null,
            updatedAt: new Date(),
          })
          .where(eq(kycApplicants.id, applicant.id));
        await accounts.setVerificationFlags(applicant.userId, flagsFor(status), tx);
        return true;
      });
    },
  };
}

export type VerificationService = ReturnType<typeof createVerificationService>;
