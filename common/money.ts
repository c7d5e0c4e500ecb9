/**
 * Money on the wire: amounts are decimal strings with exactly the currency's minor digits
 * ("12.50"), never floats; inside the server they are integers in minor units (bigint).
 */
export interface Money {
  amount: string;
  currency: string;
}

const MINOR_DIGITS = 2;

export function minorToAmount(minor: bigint): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const units = abs / 100n;
  const cents = (abs % 100n).toString().padStart(MINOR_DIGITS, '0');
  return `${negative ? '-' : ''}${units}.${cents}`;
}

export function money(minor: bigint, currency: string): Money {
  return { amount: minorToAmount(minor), currency };
}

/** Spec §9 number grouping: thousands commas in a string of digits ("1234567" → "1,234,567"). */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Display rule of spec §9: thousands commas, 2 decimals, currency symbol before the amount. */
export function formatMoney(value: Money, symbols: Record<string, string> = CURRENCY_SYMBOLS): string {
  const [units = '0', cents = '00'] = value.amount.replace('-', '').split('.');
  const grouped = groupThousands(units);
  const sign = value.amount.startsWith('-') ? '-' : '';
  const symbol = symbols[value.currency] ?? `${value.currency} `;
  return `${sign}${symbol}${grouped}.${cents.padEnd(2, '0').slice(0, 2)}`;
}

/** Parses a wire amount ("12.50") back to minor units. */
export function amountToMinor(amount: string): bigint {
  const [units = '0', cents = ''] = amount.replace('-', '').split('.');
  const minor = BigInt(units) * 100n + BigInt(cents.padEnd(2, '0').slice(0, 2));
  return amount.startsWith('-') ? -minor : minor;
}

/** Total displayed balance = main + bonus + betting bonus (spec §9). */
export function totalBalance(balances: { balance_main: Money; balance_bonus: Money; balance_betting_bonus: Money }): Money {
  const minor = [balances.balance_main, balances.balance_bonus, balances.balance_betting_bonus].reduce(
    (sum, part) => sum + amountToMinor(part.amount),
    0n,
  );
  return money(minor, balances.balance_main.currency);
}

export const CURRENCY_SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', BRL: 'R$' };
