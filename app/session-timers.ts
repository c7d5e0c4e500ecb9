/**
 * Timing rules of the signed-in session (spec §4, §9), as pure functions.
 */

/** Idle logout: the warning at 80 % of time_to_force_logout, counting down the remaining 20 %. */
export interface IdleSchedule {
  warnAtMs: number;
  logoutAtMs: number;
  countdownS: number;
}

export const IDLE_WARNING_SHARE = 0.8;

export function idleSchedule(timeToForceLogoutS: number): IdleSchedule {
  const logoutAtMs = timeToForceLogoutS * 1000;
  const warnAtMs = Math.round(logoutAtMs * IDLE_WARNING_SHARE);
  return { warnAtMs, logoutAtMs, countdownS: Math.round((logoutAtMs - warnAtMs) / 1000) };
}

/** Balance-refresh settings (spec §3) with the defaults of spec §9. */
export interface BalanceRefreshSettings {
  isEnabledInterval: boolean;
  countSecondsForInterval: number;
  isEnabledTurnOffRequests: boolean;
  countMinutesAfterWhichRequestsTurnedOff: number;
  isEnabledRequestsAfterClick: boolean;
  countSecondsForDelayBetweenClick: number;
}

export const BALANCE_REFRESH_DEFAULTS: BalanceRefreshSettings = {
  isEnabledInterval: false,
  countSecondsForInterval: 10,
  isEnabledTurnOffRequests: true,
  countMinutesAfterWhichRequestsTurnedOff: 5,
  isEnabledRequestsAfterClick: false,
  countSecondsForDelayBetweenClick: 1,
};

export function balanceRefreshSettings(configured: Partial<BalanceRefreshSettings> | undefined): BalanceRefreshSettings {
  return { ...BALANCE_REFRESH_DEFAULTS, ...configured };
}

/**
 * Whether an interval tick should ask for the balance: intervals on, and (with turn-off on) the
 * player active within the last N minutes, so an idle tab stops polling.
 */
export function shouldPollBalance(settings: BalanceRefreshSettings, nowMs: number, lastActivityMs: number): boolean {
  if (!settings.isEnabledInterval) return false;
  if (!settings.isEnabledTurnOffRequests) return true;
  return nowMs - lastActivityMs < settings.countMinutesAfterWhichRequestsTurnedOff * 60_000;
}

/** Whether a click may ask for the balance: clicks on, and the delay since the last request passed. */
export function shouldRefreshOnClick(settings: BalanceRefreshSettings, nowMs: number, lastRequestMs: number): boolean {
  return settings.isEnabledRequestsAfterClick && nowMs - lastRequestMs >= settings.countSecondsForDelayBetweenClick * 1000;
}
