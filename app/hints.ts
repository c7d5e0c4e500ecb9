/** When the onboarding hints show (spec §4), as pure functions. */

export const REGISTRATION_HINT_MS = 2 * 60 * 60 * 1000;
export const CONFIRM_HINT_MS = 5 * 24 * 60 * 60 * 1000;

export function confirmSentKey(uid: number): string {
  return `confirm_sent_${uid}`;
}

/** Registration hint: while now is before reg_time + 2 hours, for a player with no deposits. */
export function shouldShowRegistrationHint(input: {
  regTime: string | null;
  nowMs: number;
  hasDeposits: boolean;
  isHidden: boolean;
}): boolean {
  if (!input.regTime || input.hasDeposits || input.isHidden) return false;
  return input.nowMs < Date.parse(input.regTime) + REGISTRATION_HINT_MS;
}

/** Confirm-contact hint: until reg_time + 5 days, while the login contact is unconfirmed and no code was sent. */
export function shouldShowConfirmHint(input: {
  regTime: string | null;
  nowMs: number;
  isLoginConfirmed: boolean;
  isConfirmSent: boolean;
}): boolean {
  if (!input.regTime || input.isLoginConfirmed || input.isConfirmSent) return false;
  return input.nowMs < Date.parse(input.regTime) + CONFIRM_HINT_MS;
}
