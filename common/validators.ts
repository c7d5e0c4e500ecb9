/**
 * Field validators of spec §5 as pure functions, shared by the forms (browser) and the API
 * (server). A validator answers with an error type and its parameters; `validationMessage`
 * turns that into text from the form configuration's validationDict, falling back to the
 * spec's default messages verbatim.
 */
import { formatMoney, money } from './money';

export const DEFAULT_MESSAGES = {
  required: 'Field is required',
  email: 'Wrong email address',
  minLength: 'Min length is $$min$$',
  maxLength: 'Max length is $$max$$',
  phone: 'Wrong phone number',
  fakename: 'Wrong fake name',
  password: 'Wrong password',
  name: 'Wrong symbols in name',
  address: 'Wrong address',
  iban: 'Wrong iban',
  minValue: 'Min value is $$min$$',
  maxValue: 'Max value is $$max$$',
  date: 'Wrong date',
  // The spec names these without showing their texts.
  sameAs: 'Passwords are not equal',
  regex: 'Wrong format',
  cardNumber: 'Wrong card number',
  // Messages for rules whose texts the spec describes but does not quote.
  wrongField: 'Wrong value',
  sum: 'Enter an amount from $$min$$ to $$max$$',
  passwordSymbols: 'Not allowed symbols: $$symbols$$',
  code: 'The code must contain 6 digits',
  truthyCheckbox: 'Field is required',
} as const;

export type MessageKey = keyof typeof DEFAULT_MESSAGES;

export interface ValidationResult {
  isValid: boolean;
  errorType?: MessageKey;
  params?: Record<string, string | number>;
}

const VALID: ValidationResult = { isValid: true };
function invalid(errorType: MessageKey, params?: ValidationResult['params']): ValidationResult {
  return params ? { isValid: false, errorType, params } : { isValid: false, errorType };
}

export function fillMessage(text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/\$\$(\w+)\$\$/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The message of a failed result, from the configured dictionary or the default. */
export function validationMessage(result: ValidationResult, dictionary: Partial<Record<string, string>> = {}): string {
  if (result.isValid || !result.errorType) return '';
  return fillMessage(dictionary[result.errorType] ?? DEFAULT_MESSAGES[result.errorType], result.params);
}

const isBlank = (value: string | null | undefined) => value === null || value === undefined || value.trim() === '';

/** Characters forbidden in names (spec §5): @ _ quotes ! ? # $ % ^ & * ( ) { } [ ] | / \ < > ~ § + : ; ` */
const NAME_FORBIDDEN = /[@_"'«»!?#$%^&*(){}[\]|/\\<>~§+:;`]/;
/** Addresses may also hold digits, dashes, pipes and slashes. */
const ADDRESS_FORBIDDEN = /[@_"'«»!?#$%^&*(){}[\]\\<>~§+:;`]/;

export function validateName(value: string): ValidationResult {
  if (isBlank(value)) return invalid('required');
  return /\d/.test(value) || NAME_FORBIDDEN.test(value) ? invalid('name') : VALID;
}

export function validateAddress(value: string): ValidationResult {
  if (isBlank(value)) return invalid('required');
  return ADDRESS_FORBIDDEN.test(value) ? invalid('address') : VALID;
}

export function validateRequired(value: string | null | undefined, isRequired = true): ValidationResult {
  return isRequired && isBlank(value) ? invalid('required') : VALID;
}

/** local@domain with one or two dotted domain parts, no spaces (spec §5). */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+){1,2}$/;
export function validateEmail(value: string): ValidationResult {
  if (isBlank(value)) return invalid('required');
  return EMAIL.test(value.trim()) ? VALID : invalid('email');
}

/** Phone numbers: digits with an optional leading +, spaces, dashes and brackets, 7 to 15 digits. */
export function validatePhone(value: string, isValidByPhoneInput?: boolean): ValidationResult {
  if (isBlank(value)) return invalid('required');
  if (isValidByPhoneInput !== undefined) return isValidByPhoneInput ? VALID : invalid('phone');
  const digits = value.replace(/[\s()-]/g, '');
  return /^\+?\d{7,15}$/.test(digits) ? VALID : invalid('phone');
}

/**
 * The accepted-characters set (spec §5): letters (Latin, Cyrillic, Latvian diacritics), digits
 * and common punctuation.
 */
export const ACCEPTED_CHARACTER = /[A-Za-z\u0400-\u04FFĀāČčĒēĢģĪīĶķĻļŅņŠšŪūŽž0-9 !"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~€£]/u;

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 20;

/** password, newPassword, newPasswordRepeated (spec §5). */
export function validatePassword(value: string, previousPassword?: string): ValidationResult {
  if (isBlank(value)) return invalid('required');
  if ([...value].length < PASSWORD_MIN) return invalid('minLength', { min: PASSWORD_MIN });
  const offending = [...new Set([...value].filter((ch) => !ACCEPTED_CHARACTER.test(ch) || ch === ' '))];
  if (offending.length > 0) return invalid('passwordSymbols', { symbols: offending.join(' ') });
  if (previousPassword !== undefined && value !== previousPassword) return invalid('sameAs');
  return VALID;
}

/** The other password rule (spec §5, §9): required, 6 to 20 characters. */
export function validatePasswordLength(value: string): ValidationResult {
  if (isBlank(value)) return invalid('required');
  const length = [...value].length;
  if (length < PASSWORD_MIN) return invalid('minLength', { min: PASSWORD_MIN });
  if (length > PASSWORD_MAX) return invalid('maxLength', { max: PASSWORD_MAX });
  return VALID;
}

/** Card holder: letters, spaces, dot, apostrophe, hyphen only. */
export function validateCardHolder(value: string): ValidationResult {
  if (isBlank(value)) return invalid('required');
  return /^[\p{L} .'-]+$/u.test(value) ? VALID : invalid('wrongField');
}

/** IBAN: country letters, check digits, up to 30 letters or digits, and the ISO 13616 mod-97 check. */
export function validateIban(value: string): ValidationResult {
  if (isBlank(value)) return invalid('required');
  const compact = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(compact)) return invalid('iban');
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1 ? VALID : invalid('iban');
}

/** Card number: 12 to 19 digits (spaces allowed) passing the Luhn check. */
export function validateCardNumber(value: string): ValidationResult {
  if (isBlank(value)) return invalid('required');
  const digits = value.replace(/\s+/g, '');
  if (!/^\d{12,19}$/.test(digits)) return invalid('cardNumber');
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0 ? VALID : invalid('cardNumber');
}

export const FAKENAME_MIN = 4;
/** Fake name: at least 4 characters; letters and digits only (no comma, underscore, space, quotes, hyphen or other symbols). */
export function validateFakename(value: string): ValidationResult {
  if (isBlank(value)) return invalid('required');
  if ([...value].length < FAKENAME_MIN) return invalid('minLength', { min: FAKENAME_MIN });
  return /^[\p{L}\p{N}]+$/u.test(value) ? VALID : invalid('fakename');
}

export const POSTCODE_DEFAULT = /^\d{1,8}$/;
export function validatePostcode(value: string, pattern: RegExp = POSTCODE_DEFAULT): ValidationResult {
  if (isBlank(value)) return invalid('required');
  return pattern.test(value.trim()) ? VALID : invalid('wrongField');
}

/** Confirmation code: required, digits only, exactly 6 (spec §5, §9). */
export function validateCode(value: string): ValidationResult {
  if (isBlank(value)) return invalid('required');
  return /^\d{6}$/.test(value.trim()) ? VALID : invalid('code');
}

export function validateCustom(value: string, pattern?: RegExp): ValidationResult {
  if (pattern) return pattern.test(value) ? VALID : invalid('regex');
  return isBlank(value) ? invalid('required') : VALID;
}

export function validateCheckbox(isChecked: boolean): ValidationResult {
  return isChecked ? VALID : invalid('truthyCheckbox');
}

export interface DateBounds {
  min?: Date;
  max?: Date;
}

/** Parses dd.mm.yyyy (also with , ' - as separators) into a UTC date, or undefined. */
export function parseDisplayDate(value: string): Date | undefined {
  const match = /^(\d{1,2})[.,'-](\d{1,2})[.,'-](\d{4})$/.exec(value.trim());
  if (!match) return undefined;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : undefined;
}

/** Date: only digits, comma, dot, apostrophe, hyphen; a 4-digit year; within the bounds. */
export function validateDate(value: string, bounds: DateBounds = {}): ValidationResult {
  if (isBlank(value)) return invalid('required');
  if (!/^[\d.,'-]+$/.test(value.trim())) return invalid('date');
  const date = parseDisplayDate(value);
  if (!date) return invalid('date');
  if ((bounds.min && date < bounds.min) || (bounds.max && date > bounds.max)) return invalid('date');
  return VALID;
}

export interface SumBounds {
  min: number;
  max: number;
  currency?: string;
}

/**
 * Sum (spec §5): commas removed; a positive whole number without leading zero; within min and
 * max, else the sum error showing both bounds as currency (USD by default).
 */
export function validateSum(value: string, bounds: SumBounds): ValidationResult {
  const cleaned = value.replace(/,/g, '').trim();
  if (cleaned === '') return invalid('required');
  if (!/^[1-9]\d*$/.test(cleaned)) return invalid('wrongField');
  const amount = Number(cleaned);
  if (amount < bounds.min || amount > bounds.max) {
    const currency = bounds.currency ?? 'USD';
    return invalid('sum', {
      min: formatMoney(money(BigInt(bounds.min) * 100n, currency)),
      max: formatMoney(money(BigInt(bounds.max) * 100n, currency)),
    });
  }
  return VALID;
}

/**
 * A phone number as stored and shown: E.164, a "+" and the digits with the country code (issue 15:
 * stored phones lost their "+"). Spaces, dashes, brackets and extra pluses go. A number written
 * without "+" is national when a country code is given ("+39" with "333 1234567"), otherwise it
 * starts with its country code already, as a login does once its "+" is removed (spec §5).
 */
export function phoneE164(raw: string, countryCode?: string | null): string {
  const compact = raw.trim().replace(/[\s()-]/g, '');
  const digits = compact.replace(/^\++/, '');
  const code = compact.startsWith('+') || !countryCode ? '' : countryCode.replace(/^\++/, '');
  return `+${code}${digits}`;
}

/** Leading plus signs are removed from the login before sending (spec §5). */
export function normalizeLogin(login: string): string {
  return login.trim().replace(/^\++/, '');
}

export type FieldType =
  | 'sum'
  | 'name'
  | 'first_name'
  | 'last_name'
  | 'address'
  | 'date'
  | 'birth_date'
  | 'sex'
  | 'text'
  | 'login'
  | 'cardHolder'
  | 'documentType'
  | 'documentNumber'
  | 'cpf'
  | 'postcode'
  | 'phone'
  | 'email'
  | 'password'
  | 'newPassword'
  | 'newPasswordRepeated'
  | 'fakename'
  | 'custom'
  | 'promo'
  | 'truthyCheckbox'
  | 'code'
  | 'iban'
  | 'cardNumber';

export interface FieldOptions {
  isRequired?: boolean;
  previousPassword?: string;
  sum?: SumBounds;
  date?: DateBounds;
  pattern?: RegExp;
  isPhoneValid?: boolean;
}

/** One entry point by field type, as the forms and the API name their fields. */
export function validateField(type: FieldType, value: string, options: FieldOptions = {}): ValidationResult {
  switch (type) {
    case 'sum':
      return validateSum(value, options.sum ?? { min: 1, max: Number.MAX_SAFE_INTEGER });
    case 'name':
    case 'first_name':
    case 'last_name':
      return validateName(value);
    case 'address':
      return validateAddress(value);
    case 'date':
    case 'birth_date':
      return validateDate(value, options.date);
    case 'sex':
      return validateRequired(value);
    case 'text':
    case 'login':
    case 'documentType':
    case 'documentNumber':
    case 'cpf':
      return validateRequired(value, options.isRequired ?? true);
    case 'cardHolder':
      return options.isRequired === false && isBlank(value) ? VALID : validateCardHolder(value);
    case 'postcode':
      return validatePostcode(value, options.pattern);
    case 'phone':
      return validatePhone(value, options.isPhoneValid);
    case 'email':
      return validateEmail(value);
    case 'password':
    case 'newPassword':
    case 'newPasswordRepeated':
      return validatePassword(value, options.previousPassword);
    case 'fakename':
      return validateFakename(value);
    case 'custom':
      return validateCustom(value, options.pattern);
    case 'promo':
      return VALID;
    case 'truthyCheckbox':
      return validateCheckbox(value === 'true' || value === '1' || value === 'on');
    case 'code':
      return validateCode(value);
    case 'iban':
      return validateIban(value);
    case 'cardNumber':
      return validateCardNumber(value);
  }
}

/** Input masks (spec §5): # a digit, @ a letter, * a letter or digit; other mask characters are literal. */
export function applyMask(mask: string, input: string): string {
  const chars = [...input];
  let out = '';
  let index = 0;
  for (const token of mask) {
    if (index >= chars.length) break;
    const test = token === '#' ? /\d/ : token === '@' ? /\p{L}/u : token === '*' ? /[\p{L}\d]/u : null;
    if (!test) {
      out += token;
      if (chars[index] === token) index++;
      continue;
    }
    while (index < chars.length && !test.test(chars[index] ?? '')) index++;
    if (index >= chars.length) break;
    out += chars[index++];
  }
  return out;
}
