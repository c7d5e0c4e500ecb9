/**
 * The wallet's public face (architecture §3): the service that moves money, its errors and
 * types, the declared pure helpers every module builds a transfer's postings with, and the
 * operator's ledger check (back office, ledger:check, test invariants).
 */
export {
  createWalletService,
  IdempotencyConflictError,
  InsufficientFundsError,
  LedgerError,
  type AccountRef,
  type GroupTransferResult,
  type LedgerCall,
  type Leg,
  type PlayerBalances,
  type TransferInput,
  type TransferBatchResult,
  type TransferResult,
  type WalletService,
} from './service';
export { house, houseShard, move, player, HOUSE_SHARDS, InvalidTransferError } from './postings';
export { createDebts, debtPolicyOf, OpenDebtError, type DebtPolicy, type Debts, type Reclaimed } from './debts';
export { createSharedBalances } from './shared-balances';
export { createBalanceChangeTeller, type BalanceChangeTeller } from './balance-changes';
export { checkLedger, type LedgerCheckReport } from './ledger-check';
export type { HouseAccountType, PlayerAccountType, PlayerDebtRow } from './tables';
