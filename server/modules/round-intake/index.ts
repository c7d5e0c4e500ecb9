/**
 * The round-intake core's public face: the service, the hooks bonuses, tournaments, jackpots and
 * responsible gaming attach to, and the declared pure helpers of a bet's intake and transfers.
 */
export {
  createRoundIntake,
  type RoundIntake,
  type RoundIntakeDeps,
  type SharedRoundMoney,
  type SharedRoundOutcome,
  type StakeMovement,
} from './service';
export type { BetPath, HookPoint, RoundHooks, RoundMoneyEvent } from './hooks';
export type { FundedPayout, FundedStake, RoundFunding } from './funding';
export type { PayoutShare, StakeShare } from './transfers';
export {
  BetParamError,
  betRequestHash,
  ownerKeyOf,
  playingCurrency,
  prepareStake,
  refuseExclusion,
  requireDemoOffered,
  requireSameRequest,
  requireSignedInForReal,
  shortBalanceError,
  type AdmittedBet,
  type BetRequest,
  type Gambler,
  type PlayMode,
  type PlayerLookup,
  type PreparedStake,
} from './admission';
export { DEMO_CREDIT_MINOR, grantDemoCredit } from './demo-credit';
export { payoutTransfer, refundTransfer, stakeTransfer, type RoundMoney, type RoundMovement } from './transfers';
