/** Cashback (issue 13): a percent of each player's real-money net loss per period, paid when the player takes it. */
export {
  createCashbackService,
  cashbackError,
  CASHBACK_PERIOD_JOB,
  type CashbackErrorCode,
  type CashbackService,
  type CashbackServiceDeps,
} from './service';
export { cashbacksMethods } from './methods';
// Pure rules, public so the back office can show an operator what a programme pays and when.
export { cashbackProgramme, cashbackSettingsSchema, periodContaining, type CashbackSettings } from './programme';
export type { CashbackRow, CashbackStatus } from './tables';
