/**
 * The sandbox's webhook signature: HMAC-SHA256 with the site's secret over
 * `{timestamp}.{raw body}`, sent as two headers. The timestamp is inside the signed bytes, so a
 * captured notification cannot be replayed later with a fresh timestamp: the receiver refuses
 * any signed more than MAX_SIGNATURE_AGE_S away from its own clock.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TIMESTAMP_HEADER = 'x-sandbox-timestamp';
export const SIGNATURE_HEADER = 'x-sandbox-signature';
/** How old (or how far ahead of our clock) a signed notification may be. */
export const MAX_SIGNATURE_AGE_S = 5 * 60;

export function signWebhook(secret: string, timestampS: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestampS}.${rawBody}`).digest('hex');
}

export function webhookHeaders(secret: string, rawBody: string, nowMs = Date.now()): Record<string, string> {
  const timestampS = Math.floor(nowMs / 1000);
  return { [TIMESTAMP_HEADER]: String(timestampS), [SIGNATURE_HEADER]: signWebhook(secret, timestampS, rawBody) };
}

export type SignatureProblem = 'missing' | 'malformed' | 'stale' | 'mismatch';

/** Why a signature is not acceptable, or undefined when it is. */
export function signatureProblem(
  secret: string,
  headers: Headers,
  rawBody: string,
  nowMs = Date.now(),
): SignatureProblem | undefined {
  const timestamp = headers.get(TIMESTAMP_HEADER);
  const signature = headers.get(SIGNATURE_HEADER);
  if (!timestamp || !signature) return 'missing';
  if (!/^\d{1,12}$/.test(timestamp) || !/^[0-9a-f]{64}$/.test(signature)) return 'malformed';
  const timestampS = Number(timestamp);
  if (Math.abs(nowMs / 1000 - timestampS) > MAX_SIGNATURE_AGE_S) return 'stale';
  const expected = Buffer.from(signWebhook(secret, timestampS, rawBody), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex')) ? undefined : 'mismatch';
}
