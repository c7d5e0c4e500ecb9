/**
 * Cashier error messages (spec §8): a field rule from the form dictionary when the server names
 * one, else the cashier's own text for the error (with the amounts it carries), else the error
 * type's text. Withdrawal errors for KYC and contact confirmation carry a button whose link
 * comes from configuration (cashier-config withdrawErrorLinks).
 */
import { isApiError } from '#common/errors';
import { formatMoney } from '#common/money';
import { DEFAULT_MESSAGES, validationMessage, type MessageKey } from '#common/validators';

export interface CashierError {
  type: string;
  /** The form field the server named (amount, requisites[iban], …); absent for form-level errors. */
  field?: string;
  text: string;
  /** A locale-less link for the error's button. */
  link?: string;
}

export const DEFAULT_WITHDRAW_ERROR_LINKS: Record<string, string> = {
  KycWithdrawalException: '/profile/verification',
  UserNeedConfirmContactException: '/profile/settings',
};

type Translate = (key: string, params?: Record<string, string | number>) => string;

function moneyParams(data: Record<string, unknown>, currency: string): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === 'number') params[key] = value;
    else if (typeof value === 'string')
      params[key] = /^-?\d+\.\d{2}$/.test(value) ? formatMoney({ amount: value, currency }) : value;
  }
  return params;
}

export function describeCashierError(
  error: unknown,
  options: { t: Translate; dictionary?: Record<string, string>; currency: string; links?: Record<string, string> },
): CashierError {
  const { t } = options;
  const translated = (key: string, params?: Record<string, string | number>) => {
    const text = t(key, params);
    return text === key ? undefined : text;
  };
  if (!isApiError(error)) return { type: 'UnknownErrorException', text: t('error.UnknownErrorException') };
  const data = error.errorData ?? {};
  const field = typeof data.field === 'string' ? data.field : undefined;
  const errorType = typeof data.errorType === 'string' ? data.errorType : undefined;
  const params = moneyParams(data, options.currency);
  if (params.period !== undefined) params.period = t(`cashier.period.${params.period}`);
  const dictionary = options.dictionary ?? {};
  let text: string | undefined;
  if (errorType && (errorType in dictionary || errorType in DEFAULT_MESSAGES)) {
    text = validationMessage({ isValid: false, errorType: errorType as MessageKey, params }, dictionary);
  }
  text ??= errorType ? translated(`cashier.error.${errorType}`, params) : undefined;
  // A jurisdiction that requires a deposit limit refuses the first deposit until one is set.
  if (data.is_limit_required === true) text ??= translated('cashier.error.depositLimitRequired');
  text ??= translated(`cashier.error.${error.type}`, params) ?? t(`error.${error.type}`);
  const link = { ...DEFAULT_WITHDRAW_ERROR_LINKS, ...options.links }[error.type];
  return { type: error.type, ...(field ? { field } : {}), text, ...(link ? { link } : {}) };
}
