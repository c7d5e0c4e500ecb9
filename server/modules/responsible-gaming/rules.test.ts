import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NO_LIMIT, changeLimit, effectiveLimit, periodEnd, periodStart, selfExclusionEnd, timeoutEnd } from './rules';

const NOW = new Date('2026-11-22T10:00:00Z'); // a Sunday
const HOUR = 3_600_000;

describe('deposit limits (issue: a raise takes effect after a cooling-off period, a cut at once)', () => {
  it('a first limit and any cut apply at once', () => {
    const first = changeLimit(NO_LIMIT, 50_000n, NOW);
    expect(first).toEqual({ limitMinor: 50_000n, pendingLimitMinor: null, pendingEffectiveAt: null });
    expect(changeLimit(first, 20_000n, NOW).limitMinor).toBe(20_000n);
  });
  it('a raise or a removal waits for the cooling-off period, then applies', () => {
    const current = changeLimit(NO_LIMIT, 50_000n, NOW);
    const raised = changeLimit(current, 90_000n, NOW, 24);
    expect(raised).toEqual({
      limitMinor: 50_000n,
      pendingLimitMinor: 90_000n,
      pendingEffectiveAt: new Date(NOW.getTime() + 24 * HOUR),
    });
    expect(effectiveLimit(raised, new Date(NOW.getTime() + 24 * HOUR - 1)).limitMinor).toBe(50_000n);
    expect(effectiveLimit(raised, new Date(NOW.getTime() + 24 * HOUR)).limitMinor).toBe(90_000n);
    const removed = changeLimit(current, null, NOW, 72);
    expect(removed.limitMinor).toBe(50_000n);
    expect(effectiveLimit(removed, new Date(NOW.getTime() + 72 * HOUR)).limitMinor).toBeNull();
  });
  it('whatever the sequence of requests, the limit in force never rises before its cooling-off ends', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.option(fc.bigInt({ min: 1n, max: 10n ** 7n }), { nil: null }), fc.integer({ min: 0, max: 48 })), {
          maxLength: 20,
        }),
        (steps) => {
          let state = NO_LIMIT;
          let at = NOW.getTime();
          for (const [requested, hoursLater] of steps) {
            const before = effectiveLimit(state, new Date(at)).limitMinor;
            state = changeLimit(state, requested, new Date(at), 24);
            const after = effectiveLimit(state, new Date(at)).limitMinor;
            // At the moment of a request the limit can only tighten or stay.
            if (before !== null) expect(after !== null && after <= before).toBe(true);
            at += hoursLater * HOUR;
          }
        },
      ),
    );
  });
});

describe('limit periods are calendar periods in UTC', () => {
  it('day, week (from Monday) and month', () => {
    expect(periodStart('day', NOW).toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(periodStart('week', NOW).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(periodStart('month', NOW).toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(periodEnd('week', NOW).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(periodEnd('month', new Date('2026-12-31T23:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});

describe('exclusion durations', () => {
  it('time-outs last hours, self-exclusions calendar months or for ever', () => {
    expect(timeoutEnd('7d', NOW).getTime() - NOW.getTime()).toBe(7 * 24 * HOUR);
    expect(selfExclusionEnd('6m', NOW)?.toISOString()).toBe('2027-05-22T10:00:00.000Z');
    expect(selfExclusionEnd('permanent', NOW)).toBeNull();
  });
});
