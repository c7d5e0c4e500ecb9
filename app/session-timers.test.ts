import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BALANCE_REFRESH_DEFAULTS,
  balanceRefreshSettings,
  idleSchedule,
  shouldPollBalance,
  shouldRefreshOnClick,
} from './session-timers';

describe('idle logout schedule (spec §4: warning at 80 %, countdown of the remaining 20 %)', () => {
  it('warns at 80 % and logs out at 100 %, counting down the rest in seconds', () => {
    expect(idleSchedule(1800)).toEqual({ warnAtMs: 1_440_000, logoutAtMs: 1_800_000, countdownS: 360 });
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 86_400 }), (seconds) => {
        const schedule = idleSchedule(seconds);
        expect(schedule.logoutAtMs).toBe(seconds * 1000);
        expect(Math.abs(schedule.warnAtMs - seconds * 800)).toBeLessThanOrEqual(1);
        expect(Math.abs(schedule.countdownS - seconds * 0.2)).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('balance refresh (spec §3 settings, §9 defaults)', () => {
  it('has the spec defaults: interval off, clicks off, turn-off on, 10 s, 1 s, 5 min', () => {
    expect(BALANCE_REFRESH_DEFAULTS).toEqual({
      isEnabledInterval: false,
      countSecondsForInterval: 10,
      isEnabledTurnOffRequests: true,
      countMinutesAfterWhichRequestsTurnedOff: 5,
      isEnabledRequestsAfterClick: false,
      countSecondsForDelayBetweenClick: 1,
    });
    expect(balanceRefreshSettings({ isEnabledInterval: true }).countSecondsForInterval).toBe(10);
  });
  it('polls only with intervals on, and stops 5 minutes after the last activity when turn-off is on', () => {
    const on = balanceRefreshSettings({ isEnabledInterval: true });
    expect(shouldPollBalance(BALANCE_REFRESH_DEFAULTS, 1000, 1000)).toBe(false);
    expect(shouldPollBalance(on, 299_999, 0)).toBe(true);
    expect(shouldPollBalance(on, 300_000, 0)).toBe(false);
    expect(shouldPollBalance({ ...on, isEnabledTurnOffRequests: false }, 10 ** 9, 0)).toBe(true);
  });
  it('refreshes on click only when enabled and the delay between clicks has passed', () => {
    const clicks = balanceRefreshSettings({ isEnabledRequestsAfterClick: true });
    expect(shouldRefreshOnClick(BALANCE_REFRESH_DEFAULTS, 5000, 0)).toBe(false);
    expect(shouldRefreshOnClick(clicks, 999, 0)).toBe(false);
    expect(shouldRefreshOnClick(clicks, 1000, 0)).toBe(true);
  });
});
