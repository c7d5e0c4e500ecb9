import { describe, expect, it } from 'vitest';
import {
  CONFIRM_HINT_MS,
  REGISTRATION_HINT_MS,
  confirmSentKey,
  shouldShowConfirmHint,
  shouldShowRegistrationHint,
} from './hints';

const REG = '2026-11-22T10:00:00.000Z';
const at = (ms: number) => Date.parse(REG) + ms;

describe('registration hint (spec §4: before reg_time + 2 hours, no deposits, can be hidden)', () => {
  it('shows inside the window only, for players without deposits who have not hidden it', () => {
    expect(REGISTRATION_HINT_MS).toBe(7_200_000);
    expect(
      shouldShowRegistrationHint({ regTime: REG, nowMs: at(REGISTRATION_HINT_MS - 1), hasDeposits: false, isHidden: false }),
    ).toBe(true);
    expect(
      shouldShowRegistrationHint({ regTime: REG, nowMs: at(REGISTRATION_HINT_MS), hasDeposits: false, isHidden: false }),
    ).toBe(false);
    expect(shouldShowRegistrationHint({ regTime: REG, nowMs: at(0), hasDeposits: true, isHidden: false })).toBe(false);
    expect(shouldShowRegistrationHint({ regTime: REG, nowMs: at(0), hasDeposits: false, isHidden: true })).toBe(false);
    expect(shouldShowRegistrationHint({ regTime: null, nowMs: at(0), hasDeposits: false, isHidden: false })).toBe(false);
  });
});

describe('confirm-contact hint (spec §4: until reg_time + 5 days, login unconfirmed, no confirm_sent_{userId} flag)', () => {
  it('shows inside 5 days while unconfirmed and no code was sent', () => {
    expect(CONFIRM_HINT_MS).toBe(432_000_000);
    expect(confirmSentKey(42)).toBe('confirm_sent_42');
    expect(
      shouldShowConfirmHint({ regTime: REG, nowMs: at(CONFIRM_HINT_MS - 1), isLoginConfirmed: false, isConfirmSent: false }),
    ).toBe(true);
    expect(
      shouldShowConfirmHint({ regTime: REG, nowMs: at(CONFIRM_HINT_MS), isLoginConfirmed: false, isConfirmSent: false }),
    ).toBe(false);
    expect(shouldShowConfirmHint({ regTime: REG, nowMs: at(1), isLoginConfirmed: true, isConfirmSent: false })).toBe(false);
    expect(shouldShowConfirmHint({ regTime: REG, nowMs: at(1), isLoginConfirmed: false, isConfirmSent: true })).toBe(false);
  });
});
