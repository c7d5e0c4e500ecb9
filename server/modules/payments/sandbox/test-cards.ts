/**
 * The sandbox's test cards and its card-form checks. Which card is typed decides what happens,
 * as with real providers' test modes; docs/sandbox-psp.md and the card page list them.
 */

export type CardOutcome = 'success' | 'decline' | 'challenge' | 'pending';

export const TEST_CARDS: ReadonlyArray<{ number: string; outcome: CardOutcome }> = [
  { number: '4242424242424242', outcome: 'success' },
  { number: '4000000000000002', outcome: 'decline' },
  { number: '4000000000003220', outcome: 'challenge' },
  { number: '4000000000000077', outcome: 'pending' },
];

/** The one-time code the 3-D Secure page shows and accepts; any other code fails the payment. */
export const CHALLENGE_CODE = '123456';

/** A payout to an IBAN, account or card whose digits end like this is declined by the bank. */
export const PAYOUT_DECLINE_SUFFIX = '0002';
/** An IBAN that passes the mod-97 check and is declined (for trying withdrawals). */
export const PAYOUT_DECLINE_IBAN = 'DE40370400440532010002';

export type CardField = 'number' | 'holder' | 'expiry' | 'cvc';
export type CardProblem = 'required' | 'invalid' | 'unknownCard' | 'expired';

export interface CardInput {
  number: string;
  holder: string;
  expiry: string;
  cvc: string;
}

export function compactCardNumber(value: string): string {
  return value.replace(/[\s-]/g, '');
}

export function isLuhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

export function testCardOutcome(number: string): CardOutcome | undefined {
  const compact = compactCardNumber(number);
  return TEST_CARDS.find((card) => card.number === compact)?.outcome;
}

/** The form's problems by field (empty when it can be charged); `now` decides expiry. */
export function cardProblems(input: CardInput, now = new Date()): Partial<Record<CardField, CardProblem>> {
  const problems: Partial<Record<CardField, CardProblem>> = {};
  const number = compactCardNumber(input.number);
  if (!number) problems.number = 'required';
  else if (!/^\d{12,19}$/.test(number) || !isLuhnValid(number)) problems.number = 'invalid';
  else if (!testCardOutcome(number)) problems.number = 'unknownCard';

  const holder = input.holder.trim();
  if (!holder) problems.holder = 'required';
  else if (!/^[\p{L}][\p{L} .'-]{1,63}$/u.test(holder)) problems.holder = 'invalid';

  const expiry = /^(\d{2})\s*\/\s*(\d{2}|\d{4})$/.exec(input.expiry.trim());
  if (!input.expiry.trim()) problems.expiry = 'required';
  else if (!expiry || Number(expiry[1]) < 1 || Number(expiry[1]) > 12) problems.expiry = 'invalid';
  else {
    const month = Number(expiry[1]);
    const year = Number(expiry[2]) + ((expiry[2] ?? '').length === 2 ? 2000 : 0);
    // A card is good through the last day of its expiry month.
    if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) problems.expiry = 'expired';
  }

  if (!input.cvc.trim()) problems.cvc = 'required';
  else if (!/^\d{3,4}$/.test(input.cvc.trim())) problems.cvc = 'invalid';
  return problems;
}

/** Whether a payout's requisites name an account the sandbox bank declines. */
export function isDeclinedPayout(requisites: Record<string, string>): boolean {
  return Object.entries(requisites).some(
    ([name, value]) =>
      /iban|account|card_number|pix/i.test(name) &&
      !/holder|name/i.test(name) &&
      value.replace(/[\s-]/g, '').toUpperCase().endsWith(PAYOUT_DECLINE_SUFFIX),
  );
}
