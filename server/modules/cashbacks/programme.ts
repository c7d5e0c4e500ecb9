/**
 * A site's cashback programme (issue 13), pure: the `cashback` block of the site's settings, the
 * periods it pays for in the operator's time zone, and what a period's net loss pays back. No
 * database and no clock of its own, so every rule is unit-tested on its own.
 */
import { z } from 'zod';
import { amountToMinor } from '#common/money';
import type { CashbackPayout } from './tables';

const amountsByCurrency = z.record(z.string().regex(/^[A-Z]{3}$/), z.string().regex(/^\d+(\.\d{1,2})?$/));

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const cashbackSettingsSchema = z.object({
  period: z.enum(['daily', 'weekly']),
  /** The operator's time zone (IANA): a day runs from its midnight, a week from its Monday. */
  time_zone: z.string().refine(isTimeZone, 'not a time zone').default('UTC'),
  /** Percent of the period's real-money net loss paid back. */
  percent: z.number().positive().max(100),
  /** The smallest cashback paid per currency: a smaller one is not created. A currency not named gets none. */
  minimum: amountsByCurrency,
  /** The largest cashback paid per currency. */
  cap: amountsByCurrency,
  /** How long the player may take the cashback after it is created. */
  receiving_hours: z
    .number()
    .int()
    .positive()
    .max(24 * 365),
  /**
   * `main`: real money from the house's bonus cost. `{ bonus_template }`: a bonus of the bonus
   * engine whose template is a deposit_percent one; the cashback amount is its qualifying amount,
   * so the template's percent and cap apply to it and its wagering terms follow.
   */
  payout: z.union([z.literal('main'), z.object({ bonus_template: z.string().min(1) })]).default('main'),
  /**
   * The programme's first moment (ISO): no period that starts before it is paid, so turning a
   * programme on never pays back play from before it was announced.
   */
  starts_at: z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), 'not a date')
    .optional(),
  texts: z.record(z.string(), z.object({ title: z.string().max(200), text: z.string().max(2000).default('') })).optional(),
});

export type CashbackSettings = z.infer<typeof cashbackSettingsSchema>;

const reported = new Set<string>();

/** The site's programme, or undefined when it has none or its block does not parse (logged once). */
export function cashbackProgramme(siteId: string, settings: Record<string, unknown> | undefined): CashbackSettings | undefined {
  const block = settings?.cashback;
  if (block === undefined || block === null) return undefined;
  const parsed = cashbackSettingsSchema.safeParse(block);
  if (parsed.success) return parsed.data;
  const key = `${siteId}:${parsed.error.message}`;
  if (!reported.has(key)) {
    reported.add(key);
    console.warn(`the cashback settings of ${siteId} are not valid; no cashback is computed: ${parsed.error.message}`);
  }
  return undefined;
}

export function payoutOf(settings: CashbackSettings): CashbackPayout {
  return settings.payout === 'main' ? { kind: 'main' } : { kind: 'bonus', templateId: settings.payout.bonus_template };
}

export function percentHundredths(settings: CashbackSettings): number {
  return Math.round(settings.percent * 100);
}

/**
 * What a period's net loss pays back in a currency: the percent of the loss, rounded down to the
 * cent (the house never pays a fraction more), capped; nothing when there was no loss, when the
 * currency is not in the programme, or when it comes to less than the minimum.
 */
export function cashbackAmountMinor(settings: CashbackSettings, currency: string, netLossMinor: bigint): bigint {
  const minimum = settings.minimum[currency];
  const cap = settings.cap[currency];
  if (netLossMinor <= 0n || minimum === undefined || cap === undefined) return 0n;
  const amount = (netLossMinor * BigInt(percentHundredths(settings))) / 10_000n;
  if (amount <= 0n || amount < amountToMinor(minimum)) return 0n;
  const capMinor = amountToMinor(cap);
  return amount > capMinor ? capMinor : amount;
}

export interface Period {
  start: Date;
  /** Exclusive. */
  end: Date;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock reading of an instant in a time zone, as if that reading were UTC. */
function wallClockMs(instantMs: number, timeZone: string): number {
  const parts = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(new Date(instantMs))
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>;
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
}

/** The instant a wall-clock reading (given as UTC milliseconds) happens in a time zone. */
function instantOfWallClock(wallMs: number, timeZone: string): number {
  // The zone's offset at a guess, then at the corrected guess: exact except inside a DST gap.
  let instant = wallMs - (wallClockMs(wallMs, timeZone) - wallMs);
  instant = wallMs - (wallClockMs(instant, timeZone) - instant);
  return instant;
}

const DAY_MS = 86_400_000;

/** The period of the programme that contains an instant. */
export function periodContaining(instant: Date, period: 'daily' | 'weekly', timeZone: string): Period {
  const wall = wallClockMs(instant.getTime(), timeZone);
  let dayStart = wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
  // Weeks start on Monday (ISO 8601); getUTCDay of a wall-clock reading is its local weekday.
  if (period === 'weekly') dayStart -= ((new Date(dayStart).getUTCDay() + 6) % 7) * DAY_MS;
  const length = period === 'weekly' ? 7 * DAY_MS : DAY_MS;
  return {
    start: new Date(instantOfWallClock(dayStart, timeZone)),
    end: new Date(instantOfWallClock(dayStart + length, timeZone)),
  };
}

/**
 * The periods the schedule computes now, newest first: those that ended at least `settleMs`
 * ago (every transaction open at the end has committed) and at most `catchUpMs` ago (a process
 * that was down catches up on the periods it missed, but switching a programme on never pays
 * back months of play), none starting before the programme's starts_at.
 */
export function duePeriods(settings: CashbackSettings, now: Date, settleMs: number, catchUpMs: number): Period[] {
  const periods: Period[] = [];
  const oldestEnd = now.getTime() - catchUpMs;
  let current = periodContaining(new Date(now.getTime() - settleMs), settings.period, settings.time_zone);
  for (;;) {
    current = periodContaining(new Date(current.start.getTime() - 1), settings.period, settings.time_zone);
    if (current.end.getTime() < oldestEnd || !isWithinProgramme(settings, current)) return periods;
    periods.push(current);
  }
}

/** A period the programme covers: one that starts at or after its starts_at. */
export function isWithinProgramme(settings: CashbackSettings, period: Period): boolean {
  return settings.starts_at === undefined || period.start.getTime() >= Date.parse(settings.starts_at);
}
