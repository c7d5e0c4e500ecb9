/**
 * Requisite fields of a payment method (spec §3 requisites): each names the validator of spec §5
 * that the form and the server both run. Errors are keyed as the server names its fields,
 * `requisites[name]`, so a server answer lands on the same field.
 */
import type { RequisiteField } from '#common/cashier-contract';
import {
  validateField,
  validateRequired,
  validateSum,
  validationMessage,
  type FieldType,
  type SumBounds,
  type ValidationResult,
} from '#common/validators';

const FIELD_TYPES: ReadonlySet<string> = new Set<FieldType>([
  'sum',
  'name',
  'first_name',
  'last_name',
  'address',
  'date',
  'birth_date',
  'sex',
  'text',
  'login',
  'cardHolder',
  'documentType',
  'documentNumber',
  'cpf',
  'postcode',
  'phone',
  'email',
  'password',
  'newPassword',
  'newPasswordRepeated',
  'fakename',
  'custom',
  'promo',
  'truthyCheckbox',
  'code',
  'iban',
  'cardNumber',
]);

export function requisiteKey(name: string): string {
  return `requisites[${name}]`;
}

/** One field: its validator, or "required unless optional" for a validator the site does not know. */
export function validateRequisite(field: RequisiteField, value: string): ValidationResult {
  if (!field.isRequired && value.trim() === '') return { isValid: true };
  if (!FIELD_TYPES.has(field.validator)) return validateRequired(value, field.isRequired);
  return validateField(field.validator as FieldType, value, { isRequired: field.isRequired });
}

/** The messages of every failing field, by `requisites[name]`; empty when all pass. */
export function requisiteErrors(
  fields: readonly RequisiteField[],
  values: Record<string, string>,
  dictionary: Record<string, string> = {},
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const result = validateRequisite(field, values[field.name] ?? '');
    if (!result.isValid) errors[requisiteKey(field.name)] = validationMessage(result, dictionary);
  }
  return errors;
}

/** Every error of a payment form (amount by the sum rule of spec §5, then each requisite), by field. */
export function paymentFormErrors(
  amount: string,
  bounds: SumBounds,
  fields: readonly RequisiteField[],
  values: Record<string, string>,
  dictionary: Record<string, string> = {},
): Record<string, string> {
  const errors = requisiteErrors(fields, values, dictionary);
  const sum = validateSum(amount, bounds);
  if (!sum.isValid) errors.amount = validationMessage(sum, dictionary);
  return errors;
}
