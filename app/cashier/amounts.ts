/**
 * Amount rules of the cashier forms: the deposit presets of cashier-config (spec §3: a list per
 * currency) and the whole-unit bounds the sum validator (spec §5) checks against.
 */
import { amountToMinor } from '#common/money';
import type { SumBounds } from '#common/validators';

/** One entry of cashier-config amountList. */
export interface AmountPresetList {
  currency: string;
  amounts: number[];
}

/** Whole-unit bounds from wire amounts: the minimum rounded up, the maximum rounded down. */
export function wholeUnitBounds(minAmount: string, maxAmount: string, currency: string): SumBounds {
  const minMinor = amountToMinor(minAmount);
  const maxMinor = amountToMinor(maxAmount);
  const min = Number((minMinor + 99n) / 100n);
  return { min: Math.max(1, min), max: Number(maxMinor / 100n), currency };
}

/** Withdrawal bounds: from the method's minimum to the smaller of its maximum and what is available. */
export function withdrawalBounds(
  method: { min_amount: string; max_amount: string },
  availableAmount: string,
  currency: string,
): SumBounds {
  const cap = amountToMinor(availableAmount) < amountToMinor(method.max_amount) ? availableAmount : method.max_amount;
  return wholeUnitBounds(method.min_amount, cap, currency);
}

/** The player's currency presets that a method accepts, in the configured order, without duplicates. */
export function amountPresets(lists: readonly AmountPresetList[] | undefined, currency: string, bounds: SumBounds): number[] {
  const list = lists?.find((entry) => entry.currency === currency);
  const amounts = (list?.amounts ?? []).filter(
    (amount) => Number.isInteger(amount) && amount >= bounds.min && amount <= bounds.max,
  );
  return [...new Set(amounts)];
}

/** The amount a deposit form starts with: the first preset, else the method's minimum. */
export function initialAmount(presets: readonly number[], bounds: SumBounds): string {
  const first = presets[0] ?? bounds.min;
  return first > 0 ? String(first) : '';
}

/** The sum field's value as sent: commas removed (spec §5), spaces trimmed. */
export function normalizeSum(value: string): string {
  return value.replace(/,/g, '').trim();
}
