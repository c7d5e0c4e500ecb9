/** A signed-in player's account as account.getInfo answers it (spec §3), for tests of what pages show of it. */
import type { AccountInfo } from '#common/api-contract';

/** Balances in the order main, bonus, betting bonus, fun. */
export type Amounts = [main: string, bonus: string, bettingBonus: string, fun: string];

export function accountInfo(
  overrides: Partial<AccountInfo> = {},
  amounts: Amounts = ['0.00', '0.00', '0.00', '0.00'],
): AccountInfo {
  const [main, bonus, betting, fun] = amounts;
  return {
    uid: 7,
    reg_time: '2026-11-29T10:00:00.000Z',
    login: 'anna@example.com',
    fakename: '',
    is_subscribed: false,
    balances: {
      balance_main: { amount: main, currency: 'EUR' },
      balance_bonus: { amount: bonus, currency: 'EUR' },
      balance_betting_bonus: { amount: betting, currency: 'EUR' },
      balance_fun: { amount: fun, currency: 'EUR' },
    },
    is_on_verification: false,
    is_verified: false,
    is_kyc_block_enabled: false,
    is_registration_completed: true,
    country_code: null,
    locale: 'en',
    two_factor_auth: false,
    ...overrides,
  };
}
