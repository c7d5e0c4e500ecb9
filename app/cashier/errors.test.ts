import { describe, expect, it } from 'vitest';
import { ApiError } from '#common/errors';
import en from '../../content/shared/en/translations/common.json';
import it_ from '../../content/shared/it/translations/common.json';
import { describeCashierError } from './errors';

const TABLE: Record<string, string> = {
  'error.UnknownErrorException': 'Something went wrong.',
  'error.KycWithdrawalException': 'Verify your identity to withdraw.',
  'error.UserNeedConfirmContactException': 'Confirm your contact first.',
  'error.AccessDeniedException': 'Access denied.',
  'cashier.error.insufficientFunds': 'More than your balance.',
  'cashier.error.BillingDepositLimitExceededException': 'Up to $$available_amount$$ this $$period$$.',
  'cashier.period.day': 'day',
  'cashier.error.depositLimitRequired': 'Set a deposit limit first.',
};
const t = (key: string, params: Record<string, string | number> = {}) =>
  (TABLE[key] ?? key).replace(/\$\$(\w+)\$\$/g, (_, name: string) => String(params[name] ?? ''));

describe('cashier errors (spec §8: messages by error type; KYC and confirm-contact carry a configured button)', () => {
  it('uses the form dictionary for a field rule the server names', () => {
    const error = new ApiError('InvalidParameterException', 'x', {
      field: 'amount',
      errorType: 'sum',
      min: '€10.00',
      max: '€5,000.00',
    });
    expect(describeCashierError(error, { t, currency: 'EUR', dictionary: { sum: 'From $$min$$ to $$max$$' } })).toEqual({
      type: 'InvalidParameterException',
      field: 'amount',
      text: 'From €10.00 to €5,000.00',
    });
  });
  it('uses the cashier text of an error type the validators do not know', () => {
    const error = new ApiError('InvalidParameterException', 'x', { field: 'amount', errorType: 'insufficientFunds' });
    expect(describeCashierError(error, { t, currency: 'EUR' }).text).toBe('More than your balance.');
  });
  it('fills the amounts an error carries as money in the player currency', () => {
    const error = new ApiError('BillingDepositLimitExceededException', 'x', { period: 'day', available_amount: '15.00' });
    expect(describeCashierError(error, { t, currency: 'EUR' }).text).toBe('Up to €15.00 this day.');
  });
  it('asks for a deposit limit where the jurisdiction requires one before the first deposit', () => {
    const error = new ApiError('BillingDepositLimitExceededException', 'x', {
      is_limit_required: true,
      available_amount: '0.00',
    });
    expect(describeCashierError(error, { t, currency: 'EUR' }).text).toBe('Set a deposit limit first.');
  });
  it('issue 14 debts: a withdrawal refused for an open debt says, in en and it, what is owed and what can be withdrawn', () => {
    const error = new ApiError('WithdrawalDeclinedException', 'x', {
      reason: 'OPEN_DEBT',
      errorType: 'OPEN_DEBT',
      owed_amount: '15.00',
      available_amount: '25.00',
    });
    for (const table of [en, it_] as Record<string, string>[]) {
      const translate = (key: string, params: Record<string, string | number> = {}) =>
        (table[key] ?? key).replace(/\$\$(\w+)\$\$/g, (_, name: string) => String(params[name] ?? ''));
      const { text } = describeCashierError(error, { t: translate, currency: 'EUR' });
      expect(text).toContain('€15.00');
      expect(text).toContain('€25.00');
    }
  });
  it('falls back to the error type text', () => {
    expect(describeCashierError(new ApiError('AccessDeniedException', 'x'), { t, currency: 'EUR' }).text).toBe('Access denied.');
    expect(describeCashierError(new Error('network'), { t, currency: 'EUR' }).type).toBe('UnknownErrorException');
  });
  it('links KYC to verification and confirm-contact to settings, unless configured otherwise', () => {
    expect(describeCashierError(new ApiError('KycWithdrawalException', 'x'), { t, currency: 'EUR' }).link).toBe(
      '/profile/verification',
    );
    expect(describeCashierError(new ApiError('UserNeedConfirmContactException', 'x'), { t, currency: 'EUR' }).link).toBe(
      '/profile/settings',
    );
    const configured = describeCashierError(new ApiError('KycWithdrawalException', 'x'), {
      t,
      currency: 'EUR',
      links: { KycWithdrawalException: '/support' },
    });
    expect(configured).toEqual({ type: 'KycWithdrawalException', text: 'Verify your identity to withdraw.', link: '/support' });
    expect(describeCashierError(new ApiError('AccessDeniedException', 'x'), { t, currency: 'EUR' }).link).toBeUndefined();
  });
});
