import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_MESSAGES,
  applyMask,
  normalizeLogin,
  phoneE164,
  validateAddress,
  validateCardHolder,
  validateCardNumber,
  validateCode,
  validateDate,
  validateEmail,
  validateFakename,
  validateIban,
  validateField,
  validateName,
  validatePassword,
  validatePasswordLength,
  validatePostcode,
  validateSum,
  validationMessage,
} from './validators';

const letters = fc.stringMatching(/^[A-Za-zÀ-ÿА-я]{1,20}$/);
const NAME_SYMBOLS = [...'@_"\'!?#$%^&*(){}[]|/\\<>~§+:;`'];

describe('default messages (spec §5, verbatim)', () => {
  it('match the spec texts', () => {
    expect(DEFAULT_MESSAGES).toMatchObject({
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
    });
  });
  it('fill placeholders and can be overridden by the form configuration', () => {
    const result = validatePasswordLength('abc');
    expect(validationMessage(result)).toBe('Min length is 6');
    expect(validationMessage(result, { minLength: 'Minimo $$min$$ caratteri' })).toBe('Minimo 6 caratteri');
    expect(validationMessage({ isValid: true })).toBe('');
  });
});

describe('names (spec §5: no digits and none of the listed symbols)', () => {
  it('accepts letters with spaces and hyphens', () => {
    fc.assert(
      fc.property(letters, letters, (a, b) => {
        expect(validateName(`${a} ${b}-${a}`).isValid).toBe(true);
      }),
    );
  });
  it('refuses any digit or listed symbol, and an empty value is required', () => {
    fc.assert(
      fc.property(letters, fc.constantFrom(...NAME_SYMBOLS, '0', '7'), letters, (a, bad, b) => {
        expect(validateName(`${a}${bad}${b}`)).toEqual({ isValid: false, errorType: 'name' });
      }),
    );
    expect(validateName('  ').errorType).toBe('required');
  });
  it('addresses also allow digits, dashes, pipes and slashes', () => {
    expect(validateAddress('Via Roma 12/3 - int. 4|B').isValid).toBe(true);
    expect(validateAddress('Main st. #5').errorType).toBe('address');
  });
});

describe('email (spec §5: local@domain with one or two dotted parts, no spaces)', () => {
  it('accepts one or two dotted domain parts', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9._+-]{1,12}$/),
        fc.stringMatching(/^[a-z0-9-]{1,10}$/),
        fc.constantFrom('com', 'it', 'co.uk'),
        (local, domain, tld) => {
          expect(validateEmail(`${local}@${domain}.${tld}`).isValid).toBe(true);
        },
      ),
    );
  });
  it('refuses no dot, three dotted parts, spaces and a missing local part', () => {
    for (const bad of ['a@b', 'a@b.c.d.e', 'a b@c.com', '@c.com', 'a@@c.com'])
      expect(validateEmail(bad).errorType, bad).toBe('email');
    expect(validateEmail('').errorType).toBe('required');
  });
});

describe('passwords (spec §5, §9)', () => {
  it('needs at least 6 accepted characters', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9!#$%]{6,20}$/), (pw) => {
        expect(validatePassword(pw).isValid).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{1,5}$/), (pw) => {
        expect(validatePassword(pw)).toEqual({ isValid: false, errorType: 'minLength', params: { min: 6 } });
      }),
    );
  });
  it('lists the offending characters', () => {
    const result = validatePassword('secret★pass😀');
    expect(result.errorType).toBe('passwordSymbols');
    expect(validationMessage(result)).toBe('Not allowed symbols: ★ 😀');
  });
  it('must equal the previous password when one is given', () => {
    expect(validatePassword('abcdef', 'abcdef').isValid).toBe(true);
    expect(validatePassword('abcdef', 'abcdeg').errorType).toBe('sameAs');
  });
  it('the length rule is 6 to 20 characters', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), (n) => {
        const result = validatePasswordLength('x'.repeat(n));
        expect(result.isValid).toBe(n >= 6 && n <= 20);
      }),
    );
  });
});

describe('fake name, card holder, postcode, code (spec §5)', () => {
  it('fake name: at least 4 letters or digits, no separators', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{4,16}$/), (name) => {
        expect(validateFakename(name).isValid).toBe(true);
      }),
    );
    for (const bad of ['ab_cd', 'ab cd', 'ab-cd', "ab'cd", 'ab,cd'])
      expect(validateFakename(bad).errorType, bad).toBe('fakename');
    expect(validateFakename('abc').errorType).toBe('minLength');
  });
  it('card holder: letters, spaces, dot, apostrophe, hyphen', () => {
    expect(validateCardHolder("Mary-Jane O'Neil Jr.").isValid).toBe(true);
    expect(validateCardHolder('John 2').isValid).toBe(false);
  });
  it('postcode: up to 8 digits by default, or a supplied pattern', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,8}$/), (code) => {
        expect(validatePostcode(code).isValid).toBe(true);
      }),
    );
    expect(validatePostcode('123456789').isValid).toBe(false);
    expect(validatePostcode('SW1A 1AA', /^[A-Z0-9 ]{5,8}$/).isValid).toBe(true);
  });
  it('confirmation code: exactly 6 digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{6}$/), (code) => {
        expect(validateCode(code).isValid).toBe(true);
      }),
    );
    for (const bad of ['12345', '1234567', '12a456']) expect(validateCode(bad).errorType).toBe('code');
  });
});

describe("date (spec §5: digits and , . ' - only; 4-digit year; within bounds)", () => {
  it('accepts real dates in dd.mm.yyyy and refuses impossible ones', () => {
    expect(validateDate('29.02.2024').isValid).toBe(true);
    expect(validateDate('29.02.2023').errorType).toBe('date');
    expect(validateDate('01/02/2000').errorType).toBe('date');
    expect(validateDate('01.02.00').errorType).toBe('date');
  });
  it('checks the bounds', () => {
    const bounds = { min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(2008, 0, 1)) };
    expect(validateDate('31.12.2007', bounds).isValid).toBe(true);
    expect(validateDate('02.01.2008', bounds).isValid).toBe(false);
  });
});

describe('sum (spec §5: commas removed, positive whole number, bounds as currency)', () => {
  const bounds = { min: 10, max: 5000, currency: 'EUR' };
  it('accepts whole numbers in bounds, with thousands commas', () => {
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 5000 }), (n) => {
        expect(validateSum(n.toLocaleString('en-US'), bounds).isValid).toBe(true);
      }),
    );
  });
  it('shows both bounds formatted as currency when out of bounds (USD by default)', () => {
    expect(validationMessage(validateSum('5001', bounds))).toBe('Enter an amount from €10.00 to €5,000.00');
    expect(validateSum('1', { min: 5, max: 10 }).params).toEqual({ min: '$5.00', max: '$10.00' });
  });
  it('refuses leading zeros, fractions, negatives and text as a wrong field', () => {
    for (const bad of ['010', '10.5', '-10', 'abc', '0']) expect(validateSum(bad, bounds).errorType, bad).toBe('wrongField');
  });
});

describe('the rest of the field types (spec §5)', () => {
  it('promo is always valid and a truthy checkbox must be checked', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(validateField('promo', value).isValid).toBe(true);
      }),
    );
    expect(validateField('truthyCheckbox', 'true').isValid).toBe(true);
    expect(validateField('truthyCheckbox', '').errorType).toBe('truthyCheckbox');
  });
  it('required types honour "not required"', () => {
    expect(validateField('documentNumber', '').errorType).toBe('required');
    expect(validateField('documentNumber', '', { isRequired: false }).isValid).toBe(true);
  });
  it('phone uses the phone input verdict when given', () => {
    expect(validateField('phone', '+39 333 1234567').isValid).toBe(true);
    expect(validateField('phone', '12').errorType).toBe('phone');
    expect(validateField('phone', '12', { isPhoneValid: true }).isValid).toBe(true);
  });
});

describe('login and masks (spec §5)', () => {
  it('removes leading plus signs from the login', () => {
    expect(normalizeLogin('++393331234567')).toBe('393331234567');
    expect(normalizeLogin(' user@example.com ')).toBe('user@example.com');
  });
  it('applies # digit, @ letter, * letter-or-digit tokens', () => {
    expect(applyMask('###-###', '123456')).toBe('123-456');
    expect(applyMask('@@-##', 'ab12')).toBe('ab-12');
    expect(applyMask('***', 'a1!b')).toBe('a1b');
    expect(applyMask('(###) ###', 'x9876543')).toBe('(987) 654');
  });
});

describe('iban and cardNumber validators (spec §5 default messages iban, cardNumber)', () => {
  it('accepts IBANs whose mod-97 check passes, with or without spaces', () => {
    expect(validateIban('DE89 3704 0044 0532 0130 00').isValid).toBe(true);
    expect(validateIban('GB82WEST12345698765432').isValid).toBe(true);
  });
  it('refuses an IBAN with one digit changed, a malformed one, and an empty one (required)', () => {
    expect(validateIban('DE89370400440532013001')).toMatchObject({ isValid: false, errorType: 'iban' });
    expect(validateIban('12345')).toMatchObject({ isValid: false, errorType: 'iban' });
    expect(validateIban(' ')).toMatchObject({ isValid: false, errorType: 'required' });
  });
  it('accepts card numbers that pass the Luhn check and refuses others', () => {
    expect(validateCardNumber('4242 4242 4242 4242').isValid).toBe(true);
    expect(validateCardNumber('4242424242424241')).toMatchObject({ isValid: false, errorType: 'cardNumber' });
    expect(validateCardNumber('4242')).toMatchObject({ isValid: false, errorType: 'cardNumber' });
    expect(validateField('cardNumber', '')).toMatchObject({ isValid: false, errorType: 'required' });
  });
});

describe('phones in E.164 (issue 15: stored phone numbers lost their "+")', () => {
  it('keeps the "+" and the country code, dropping spaces, dashes, brackets and extra pluses', () => {
    expect(phoneE164('+39 333 123-4567')).toBe('+393331234567');
    expect(phoneE164('++44 (20) 7946 0958')).toBe('+442079460958');
    expect(phoneE164('+39 333 1234567', '+44')).toBe('+393331234567');
  });

  it('puts the country code given before a national number, and reads a number without "+" or code as international (as a login, spec §5)', () => {
    expect(phoneE164('333 1234567', '+39')).toBe('+393331234567');
    expect(phoneE164('3331234567', '39')).toBe('+393331234567');
    expect(phoneE164('393331234567')).toBe('+393331234567');
  });
});
