/**
 * The sandbox's per-site settings, under `payments.sandbox` in the site's settings:
 *
 * - `secret`: the webhook signing secret shared by the sandbox and our webhook (required). The
 *   registry puts it here from the site secrets (the demo's published value, demo sites only);
 *   a secret written in content is never used;
 * - `duplicateRate` (0…1, default 0): share of notifications sent twice;
 * - `outOfOrder` (default false): a "processing" notification that precedes a scheduled
 *   settlement is sent after the final one instead of before;
 * - `settleDelayMs` (default 3000): how long the sandbox takes to settle what settles later
 *   (instant payments after the bank confirms, arriving transfers, pending cards, payouts).
 *
 * Which notification is duplicated is decided from its id, not from a random draw, so one
 * event always gets the same treatment (tests set the rate to 0 or 1).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

export const DEFAULT_SETTLE_DELAY_MS = 3_000;

const sandboxSettingsSchema = z.object({
  secret: z.string().min(16),
  duplicateRate: z.number().min(0).max(1).default(0),
  outOfOrder: z.boolean().default(false),
  settleDelayMs: z
    .number()
    .int()
    .min(0)
    .max(24 * 60 * 60 * 1000)
    .default(DEFAULT_SETTLE_DELAY_MS),
});

export type SandboxSettings = z.infer<typeof sandboxSettingsSchema>;

/** The sandbox settings of a site's settings object; undefined when absent or invalid. */
export function readSandboxSettings(siteSettings: Record<string, unknown> | undefined): SandboxSettings | undefined {
  const payments = siteSettings?.payments as { sandbox?: unknown } | undefined;
  const parsed = sandboxSettingsSchema.safeParse(payments?.sandbox);
  return parsed.success ? parsed.data : undefined;
}

/** Deterministic "roll": true for about `rate` of all ids, always the same for one id. */
export function isPicked(id: string, rate: number): boolean {
  if (rate <= 0) return false;
  if (rate >= 1) return true;
  return createHash('sha256').update(id).digest().readUInt32BE(0) / 0x1_0000_0000 < rate;
}
