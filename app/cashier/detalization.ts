/**
 * The balance breakdown (spec §3 detalization: enableDetalization, displayedDetalization; shown
 * in the cashier header or the profile menu) and its rows: main, bonus, betting bonus, and the
 * total of the three (spec §9).
 */
import type { AccountInfo } from '#common/api-contract';
import { totalBalance, type Money } from '#common/money';

export type DetalizationPlace = 'header' | 'profile';

export interface DetalizationConfig {
  enableDetalization?: boolean;
  displayedDetalization?: string;
}

/** Where the breakdown shows, or null when it is switched off. */
export function detalizationPlace(config: DetalizationConfig | undefined): DetalizationPlace | null {
  if (!config?.enableDetalization) return null;
  return config.displayedDetalization === 'profile' ? 'profile' : 'header';
}

export type BalanceRowKey = 'main' | 'bonus' | 'betting_bonus' | 'total';

export function balanceRows(balances: AccountInfo['balances']): { key: BalanceRowKey; money: Money }[] {
  return [
    { key: 'main', money: balances.balance_main },
    { key: 'bonus', money: balances.balance_bonus },
    { key: 'betting_bonus', money: balances.balance_betting_bonus },
    { key: 'total', money: totalBalance(balances) },
  ];
}
