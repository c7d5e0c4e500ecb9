/**
 * The round-intake core (architecture §3): every bet of every game passes here. In-house rounds
 * (single-request, stateful, live tables, free spins) use both halves; the provider wallet, whose
 * provider did the intake on its side, uses the transfer half. The hooks (hooks.ts) run inside
 * the bet's transaction on every path.
 */
import type { ApiError } from '#common/errors';
import type { GameParams } from '#common/games-contract';
import type { Executor } from '../../db/retry';
import {
  IdempotencyConflictError,
  type GroupTransferResult,
  type TransferBatchResult,
  type TransferInput,
  type TransferResult,
  type WalletService,
} from '../wallet';
import {
  admitStake,
  playingCurrency,
  shortBalanceError,
  type AdmittedBet,
  type BetRequest,
  type Gambler,
  type PlayMode,
  type PlayerLookup,
  type PreparedStake,
} from './admission';
import { grantDemoCredit } from './demo-credit';
import { isFundable, type FundedPayout, type FundedStake, type RoundFunding } from './funding';
import { runHooks, type RoundHooks } from './hooks';
import {
  moneyEvent,
  payoutTransfer,
  refundTransfer,
  roundPlayerAccount,
  stakeTransfer,
  type RoundMoney,
  type RoundMovement,
} from './transfers';

export interface RoundIntakeDeps extends PlayerLookup {
  wallet: WalletService;
  /** Hooks attached from the start; more may be attached later (a module built after the intake). */
  hooks?: readonly RoundHooks[];
}

/**
 * A movement's transfer, and the player's main balance after it when the batch touched it (read
 * under the batch's locks: a caller answering the balance needs no statement more, issue 12).
 */
export type MovedMoney = TransferResult & { mainBalanceMinor?: bigint };

function moved(result: TransferResult, batch: TransferBatchResult, userId: number): MovedMoney {
  const main = batch.playerBalances.find((item) => item.userId === userId && item.type === 'main');
  return { ...result, mainBalanceMinor: main?.balanceMinor };
}

/** A stake's movement; `at` is the clock's now, which picks the day of a demo top-up. */
export type StakeMovement = RoundMovement & { at?: Date };

/** One round of several settled in one ledger call (sharedRoundTransfers). */
export interface SharedRoundMoney {
  round: RoundMoney;
  stake: RoundMovement;
  payout: RoundMovement;
}

/** A shared round's answer: the player's balance after it, or the stake was above it (nothing moved). */
export type SharedRoundOutcome = { status: 'ok'; balanceMinor: bigint } | { status: 'insufficient' };

export function createRoundIntake(deps: RoundIntakeDeps) {
  const { wallet } = deps;
  const attached: RoundHooks[] = [...(deps.hooks ?? [])];
  let funding: RoundFunding | undefined;

  const fundStake = (tx: Executor, round: RoundMoney, stakeMinor: bigint, settlesLater: boolean) =>
    funding && isFundable(round) ? funding.fundStake(tx, round, stakeMinor, settlesLater) : undefined;
  const fundPayout = (tx: Executor, round: RoundMoney, payoutMinor: bigint, stake: FundedStake | undefined) =>
    funding && isFundable(round) ? funding.fundPayout(tx, round, payoutMinor, stake) : undefined;

  /**
   * Whether a one-request round's money may share a ledger call with other players' rounds: real
   * money from main alone. Not while hooks are attached (a hook refuses its bet by throwing, which
   * would take the other rounds of the transaction with it), nor with a bonus wagered (the funding
   * locks and writes per round), nor for demo money (the daily top-up) or a free spin.
   */
  function canShareMoney(round: RoundMoney): boolean {
    const isFundingIdle = !funding || !isFundable(round) || round.hasWageredBonus === false;
    return attached.length === 0 && round.mode === 'real' && !round.freespinPack && isFundingIdle;
  }

  return {
    canShareMoney,

    /**
     * The transfers of one round of several that share one ledger call (issue 12: ≥ 1,000
     * rounds/s needs rounds to share statements): its stake and payout, one group all or nothing
     * on its own, the same transfers stakeAndSettle writes for a round main pays alone. The round
     * must pass canShareMoney.
     */
    sharedRoundTransfers({ round, stake, payout }: SharedRoundMoney): TransferInput[] {
      if (!canShareMoney(round)) throw new Error('a round that cannot share its ledger call');
      return [stakeTransfer(round, stake), ...payoutTransfers(round, payout, undefined)];
    },

    /**
     * A shared round's answer from its group's result: the player's balance after it, or a stake
     * above it (nothing of the round moved). A key bound to another request is an error.
     */
    sharedRoundOutcome(round: RoundMoney, result: GroupTransferResult): SharedRoundOutcome {
      if (result.status === 'insufficient') return { status: 'insufficient' };
      if (result.status === 'conflict') throw new IdempotencyConflictError(result.key);
      const side = roundPlayerAccount(round);
      const balance = result.playerBalances.find((item) => item.userId === round.userId && item.type === side.type);
      if (!balance) throw new Error('a shared round moved no money of its player');
      return { status: 'ok', balanceMinor: balance.balanceMinor };
    },

    /** Attaches a set of hooks to every bet path; returns the function that detaches it. */
    attach(hooks: RoundHooks): () => void {
      attached.push(hooks);
      return () => {
        const index = attached.indexOf(hooks);
        if (index >= 0) attached.splice(index, 1);
      };
    },

    /** Attaches the bonus engine's funding (one at most): real-money stakes may then draw on bonus money. */
    fundWith(attachedFunding: RoundFunding): void {
      funding = attachedFunding;
    },

    playingCurrency: (who: Gambler) => playingCurrency(who, deps),

    /** The intake of an in-house bet once its game is found and its mode allowed (admission.ts admitStake). */
    admitStake<P extends PreparedStake>(
      who: Gambler,
      request: BetRequest,
      game: { game_params: GameParams },
      prepare: () => P,
      hashExtra?: Record<string, unknown>,
    ): Promise<AdmittedBet<P>> {
      return admitStake(who, request, game, prepare, deps, hashExtra);
    },

    /**
     * Moves a stake of a round that settles in a later transaction: the hooks first (they may
     * refuse it), a demo top-up or the bonus funding's share, the transfer.
     */
    async stake(tx: Executor, round: RoundMoney, movement: StakeMovement): Promise<MovedMoney> {
      await runHooks(attached, 'beforeStake', tx, moneyEvent(round, movement.amountMinor));
      const funded = await fundStake(tx, round, movement.amountMinor, true);
      if (round.mode === 'demo')
        await grantDemoCredit(
          wallet,
          tx,
          { siteId: round.siteId, uid: round.userId },
          round.currency,
          movement.amountMinor,
          movement.at,
        );
      const batch = await wallet.transferAll([stakeTransfer(round, movement, funded?.share)], tx);
      return moved(batch.results[0]!, batch, round.userId);
    },

    /**
     * Settles a round's payout (no transfer for nothing, unless the funding moves money with it:
     * a conversion), then tells the hooks what it paid.
     */
    async settle(tx: Executor, round: RoundMoney, movement: RoundMovement): Promise<MovedMoney | undefined> {
      const funded = await fundPayout(tx, round, movement.amountMinor, undefined);
      const transfers = payoutTransfers(round, movement, funded);
      const batch = transfers.length > 0 ? await wallet.transferAll(transfers, tx) : undefined;
      await runHooks(attached, 'afterSettle', tx, moneyEvent(round, movement.amountMinor));
      return movement.amountMinor > 0n && batch ? moved(batch.results[0]!, batch, round.userId) : undefined;
    },

    /**
     * Settles many rounds' payouts at once, for rounds no bonus funds (sports tickets from the
     * main balance: issue 14's settlement of a market's every bet): one batch of transfers per
     * call (one lock, one write, one audit insert), each with its own key, then the hooks per
     * round as `settle` runs them. A payout of nothing moves nothing.
     */
    async settleAll(tx: Executor, payouts: readonly { round: RoundMoney; movement: RoundMovement }[]): Promise<void> {
      if (payouts.some(({ round }) => funding && isFundable(round)))
        throw new Error('settleAll is for rounds no bonus funds; settle them one by one');
      const transfers = payouts
        .filter(({ movement }) => movement.amountMinor > 0n)
        .map(({ round, movement }) => payoutTransfer(round, movement));
      if (transfers.length > 0) await wallet.transferAll(transfers, tx);
      for (const { round, movement } of payouts)
        await runHooks(attached, 'afterSettle', tx, moneyEvent(round, movement.amountMinor));
    },

    /**
     * A round that takes its stake and settles in the same request (the single-request games):
     * the same hooks and demo top-up as stake then settle, with the stake and the payout written
     * as one batch of two transfers (one lock, one write, one audit insert), with a bonus
     * conversion the round completed in the same batch. Returns the player's balance of the
     * round's account after the round, read under the batch's locks, and the bonus balance
     * when the round moved bonus money.
     */
    async stakeAndSettle(
      tx: Executor,
      round: RoundMoney,
      stake: StakeMovement,
      payout: RoundMovement,
    ): Promise<{ results: TransferResult[]; balanceMinor: bigint; bonusBalanceMinor?: bigint }> {
      await runHooks(attached, 'beforeStake', tx, moneyEvent(round, stake.amountMinor));
      const fundedStake = await fundStake(tx, round, stake.amountMinor, false);
      const fundedPayout = fundedStake ? await fundPayout(tx, round, payout.amountMinor, fundedStake) : undefined;
      if (round.mode === 'demo')
        await grantDemoCredit(
          wallet,
          tx,
          { siteId: round.siteId, uid: round.userId },
          round.currency,
          stake.amountMinor,
          stake.at,
        );
      const transfers = [stakeTransfer(round, stake, fundedStake?.share), ...payoutTransfers(round, payout, fundedPayout)];
      const { results, playerBalances } = await wallet.transferAll(transfers, tx);
      await runHooks(attached, 'afterSettle', tx, moneyEvent(round, payout.amountMinor));
      const side = roundPlayerAccount(round);
      const balanceOf = (type: string) =>
        playerBalances.find((item) => item.userId === round.userId && item.type === type)?.balanceMinor;
      // A stake paid all by bonus money leaves main untouched, so the batch did not read it.
      const balanceMinor = balanceOf(side.type) ?? (await wallet.balances(round.siteId, round.userId, round.currency, tx)).main;
      return { results, balanceMinor, bonusBalanceMinor: fundedStake ? balanceOf('bonus') : undefined };
    },

    /** Gives a stake back, then tells the hooks. */
    async refund(tx: Executor, round: RoundMoney, movement: RoundMovement): Promise<MovedMoney> {
      const batch = await wallet.transferAll([refundTransfer(round, movement)], tx);
      await runHooks(attached, 'afterRefund', tx, moneyEvent(round, movement.amountMinor));
      return moved(batch.results[0]!, batch, round.userId);
    },

    /** The answer to a stake the balance did not cover; reads the balance after the bet's transaction is gone. */
    async shortBalance(who: Gambler, mode: PlayMode, currency: string, field: string): Promise<ApiError> {
      return shortBalanceError(await wallet.balances(who.siteId, who.uid, currency), mode, field);
    },
  };
}

/** A payout's transfer (none for nothing) and what the funding moves after it (a conversion). */
function payoutTransfers(round: RoundMoney, payout: RoundMovement, funded: FundedPayout | undefined) {
  const transfers = payout.amountMinor > 0n ? [payoutTransfer(round, payout, funded?.share)] : [];
  return [...transfers, ...(funded?.then ?? [])];
}

export type RoundIntake = ReturnType<typeof createRoundIntake>;
