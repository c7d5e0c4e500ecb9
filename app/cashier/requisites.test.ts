import { describe, expect, it } from 'vitest';
import { paymentFormErrors, requisiteErrors, validateRequisite } from './requisites';

const FIELDS = [
  { name: 'iban', validator: 'iban', isRequired: true },
  { name: 'account_holder', validator: 'name', isRequired: true },
  { name: 'note', validator: 'text', isRequired: false },
];

describe('requisite fields run the validators of spec §5 by their validator type', () => {
  it('reports each failing field under requisites[name], as the server names it', () => {
    expect(requisiteErrors(FIELDS, { iban: 'DE00', account_holder: 'J0hn' })).toEqual({
      'requisites[iban]': 'Wrong iban',
      'requisites[account_holder]': 'Wrong symbols in name',
    });
  });
  it('passes valid values and leaves an optional blank field alone', () => {
    expect(requisiteErrors(FIELDS, { iban: 'DE89 3704 0044 0532 0130 00', account_holder: 'John Smith' })).toEqual({});
  });
  it('uses the configured dictionary for messages', () => {
    expect(requisiteErrors([FIELDS[0]!], {}, { required: 'Obbligatorio' })).toEqual({ 'requisites[iban]': 'Obbligatorio' });
  });
  it('treats an unknown validator as required-unless-optional', () => {
    expect(validateRequisite({ name: 'x', validator: 'mystery', isRequired: true }, '').isValid).toBe(false);
    expect(validateRequisite({ name: 'x', validator: 'mystery', isRequired: true }, 'a').isValid).toBe(true);
  });
  it('checks card numbers with the Luhn rule', () => {
    expect(
      validateRequisite({ name: 'card_number', validator: 'cardNumber', isRequired: true }, '4242 4242 4242 4242').isValid,
    ).toBe(true);
    expect(
      validateRequisite({ name: 'card_number', validator: 'cardNumber', isRequired: true }, '4242 4242 4242 4241').isValid,
    ).toBe(false);
  });
});

describe('a payment form checks the amount by the sum rule and each requisite (spec §5 sum)', () => {
  const holder = [{ name: 'card_holder', validator: 'cardHolder', isRequired: true }];
  it('reports the sum error with both bounds and the requisite error together', () => {
    const errors = paymentFormErrors('5', { min: 10, max: 100, currency: 'EUR' }, holder, { card_holder: 'R2-D2' });
    expect(Object.keys(errors).sort()).toEqual(['amount', 'requisites[card_holder]'].sort());
    expect(errors.amount).toContain('€10.00');
  });
  it('has no errors for a valid amount and requisites', () => {
    expect(paymentFormErrors('50', { min: 10, max: 100, currency: 'EUR' }, holder, { card_holder: 'Ada Lovelace' })).toEqual({});
  });
});
