/**
 * The cashback programme's pure rules (issue 13 "a scheduled job computes each player's
 * real-money net loss per period (daily or weekly, percentage, minimum and cap)"): the periods
 * in the operator's time zone, which periods are complete, and what a loss pays back.
 */
import { describe, expect, it } from 'vitest';
import { amountToMinor } from '#common/money';
import { readSiteSeeds } from '../../../test/fixtures';
import { cashbackAmountMinor, cashbackProgramme, cashbackSettingsSchema, duePeriods, periodContaining } from './programme';

const settings = cashbackSettingsSchema.parse({
  period: 'daily',
  percent: 10,
  minimum: { EUR: '1.00' },
  cap: { EUR: '500.00' },
  receiving_hours: 72,
});

const at = (iso: string) => new Date(iso);
const hours = (start: Date, end: Date) => (end.getTime() - start.getTime()) / 3_600_000;

describe('cashback periods', () => {
  it('a daily period runs from midnight to midnight in the time zone, UTC when none is set', () => {
    expect(settings.time_zone).toBe('UTC');
    expect(periodContaining(at('2026-11-24T10:00:00Z'), 'daily', 'UTC')).toEqual({
      start: at('2026-11-24T00:00:00Z'),
      end: at('2026-11-25T00:00:00Z'),
    });
    // 22:00 on the 23rd in New York (UTC−5) is still the 23rd there.
    expect(periodContaining(at('2026-11-24T03:00:00Z'), 'daily', 'America/New_York')).toEqual({
      start: at('2026-11-23T05:00:00Z'),
      end: at('2026-11-24T05:00:00Z'),
    });
  });

  it('a weekly period starts on Monday at local midnight', () => {
    // Tuesday 24 November 2026; Rome is UTC+1 in winter.
    const week = periodContaining(at('2026-11-24T10:00:00Z'), 'weekly', 'Europe/Rome');
    expect(week).toEqual({ start: at('2026-11-22T23:00:00Z'), end: at('2026-11-29T23:00:00Z') });
    // Sunday late evening local time belongs to the week that began the Monday before.
    expect(periodContaining(at('2026-11-29T22:30:00Z'), 'weekly', 'Europe/Rome')).toEqual(week);
    expect(periodContaining(at('2026-11-29T23:00:00Z'), 'weekly', 'Europe/Rome').start).toEqual(week.end);
  });

  it('a week across the change to summer time is an hour shorter, its bounds still local midnights', () => {
    // Clocks in Rome go forward on Sunday 29 March 2026.
    const week = periodContaining(at('2026-03-25T12:00:00Z'), 'weekly', 'Europe/Rome');
    expect(week).toEqual({ start: at('2026-03-22T23:00:00Z'), end: at('2026-03-29T22:00:00Z') });
    expect(hours(week.start, week.end)).toBe(167);
  });

  it('a period is due once the settling time after its end has passed, and only within the catch-up time', () => {
    const settleMs = 15 * 60_000;
    const catchUpMs = 3 * 24 * 3_600_000;
    expect(duePeriods(settings, at('2026-11-25T00:10:00Z'), settleMs, catchUpMs)[0]?.start).toEqual(at('2026-11-23T00:00:00Z'));
    const due = duePeriods(settings, at('2026-11-25T00:20:00Z'), settleMs, catchUpMs);
    expect(due[0]).toEqual({ start: at('2026-11-24T00:00:00Z'), end: at('2026-11-25T00:00:00Z') });
    expect(due[1]?.end).toEqual(due[0]?.start);
    // Days that ended within the last three days: the 24th, 23rd and 22nd, not the 21st.
    expect(due.map((period) => period.start.toISOString().slice(0, 10))).toEqual(['2026-11-24', '2026-11-23', '2026-11-22']);
  });

  it('a programme never pays for a period that starts before its starts_at', () => {
    const fresh = { ...settings, starts_at: '2026-11-23T00:00:00Z' };
    const due = duePeriods(fresh, at('2026-11-25T00:20:00Z'), 15 * 60_000, 3 * 24 * 3_600_000);
    expect(due.map((period) => period.start.toISOString().slice(0, 10))).toEqual(['2026-11-24', '2026-11-23']);
  });
});

describe('what a period pays back', () => {
  it('the percent of the loss, rounded down to the cent', () => {
    expect(cashbackAmountMinor(settings, 'EUR', amountToMinor('123.45'))).toBe(amountToMinor('12.34'));
  });

  it('nothing for no loss, under the minimum, or in a currency the programme does not name', () => {
    expect(cashbackAmountMinor(settings, 'EUR', 0n)).toBe(0n);
    expect(cashbackAmountMinor(settings, 'EUR', -amountToMinor('50.00'))).toBe(0n);
    expect(cashbackAmountMinor(settings, 'EUR', amountToMinor('9.99'))).toBe(0n);
    expect(cashbackAmountMinor(settings, 'EUR', amountToMinor('10.00'))).toBe(amountToMinor('1.00'));
    expect(cashbackAmountMinor(settings, 'USD', amountToMinor('100.00'))).toBe(0n);
  });

  it('at most the cap', () => {
    expect(cashbackAmountMinor(settings, 'EUR', amountToMinor('9000.00'))).toBe(amountToMinor('500.00'));
  });
});

describe('the cashback settings block', () => {
  it('refuses an unknown time zone and a percent over 100', () => {
    expect(cashbackSettingsSchema.safeParse({ ...settings, time_zone: 'Mars/Olympus' }).success).toBe(false);
    expect(cashbackSettingsSchema.safeParse({ ...settings, percent: 150 }).success).toBe(false);
  });

  it('the demo sites run a programme that parses (content/sites.json)', () => {
    const seeds = readSiteSeeds();
    const withBlock = seeds.filter((seed) => seed.settings?.cashback !== undefined);
    expect(withBlock.length).toBeGreaterThan(0);
    for (const seed of withBlock) expect(cashbackProgramme(seed.id, seed.settings), seed.id).toBeDefined();
  });
});
