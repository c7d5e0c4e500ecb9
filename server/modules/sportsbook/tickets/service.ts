/**
 * The ticket book (issue 14 "Bet slip", "Settlement"): placing a slip as one idempotent call and
 * settling its legs as the feed settles or cancels their markets.
 *
 * Placing: the slip's rules (rules/slip.ts), the current prices from the market store (a
 * MarketSource: a changed price is taken only as the player's setting allows, a suspended or
 * closed market refuses), the most restrictive stake and payout limits, then — in one
 * transaction — the ticket, its legs, its first wager-record entry and the stake: from the main
 * balance through the round intake (path `sportsbook`: `sport_bet`), or from a betting bonus
 * through the bonus engine's betting service. A request id seen before answers the first ticket.
 *
 * Settling: the feed's store hands over each settled or cancelled market in the transaction that
 * applied it (onMarketEffects). Every open leg of that market gets its result; a ticket whose
 * lines can all be decided (settleTicket) pays in its own ledger transfer and records why.
 */
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import { canonicalJson } from '#common/canonical-json';
import { ApiError } from '#common/errors';
import { invalidParameter } from '#common/parameter-errors';
import { ONE, ratio } from '#common/sportsbook/ratio';
import type { BetType } from '#common/sportsbook/bet-types';
import type { OddsChangeAcceptance } from '#common/sportsbook/types';
import type { TicketView } from '#common/contract/sportsbook-bets';
import type { Locale } from '#common/locale';
import type { Database } from '../../../db/client';
import { inTransaction, type Executor } from '../../../db/retry';
import type { Gambler, RoundIntake, RoundMoney } from '../../round-intake';
import { InsufficientFundsError } from '../../wallet';
import type { MarketEffect } from '../feed/market-state';
import { cancelCovers } from '../feed/messages';
import type { OutcomeResult } from '../rules/settlement';
import { settleTicket } from '../rules/settlement';
import { cashOutPrice, partialCashOut, type CashOutLeg } from '../rules/cash-out';
import {
  acceptsOddsChange,
  limitBreaches,
  mostRestrictive,
  quoteSlip,
  validateSlip,
  type BetLimit,
  type SlipSelection,
} from '../rules/slip';
import { expandLines } from '#common/sportsbook/bet-types';
import {
  sportTicketChanges,
  sportTicketLegs,
  sportTickets,
  type StoredResult,
  type TicketLegRow,
  type TicketRow,
  type TicketStatus,
} from './tables';
import { ticketView } from './views';

/** A selection as the market store knows it now. */
export interface SelectionNow {
  oddsUnits: bigint;
  /** The market takes bets: active, and its event neither ended nor suspended. */
  isOpen: boolean;
  /** In play: the bet waits the in-play delay and is checked again. */
  isLive: boolean;
}

/** The market store's answer for a slip's selections, in order (undefined: no such selection). */
export interface MarketSource {
  current(executor: Executor, selections: readonly SlipSelection[]): Promise<(SelectionNow | undefined)[]>;
}

export interface LegRef {
  eventId: string;
  marketKey: string;
  outcomeId: string;
}

export interface LegNames {
  event: string;
  market: string;
  outcome: string;
}

/** The betting bonus service (bonuses/betting.ts) as the ticket book calls it. */
export interface BettingBonusFunding {
  stake(
    tx: Executor,
    stake: {
      siteId: string;
      userId: number;
      currency: string;
      bonusId: number;
      betRef: string;
      stakeMinor: bigint;
      odds: number;
    },
  ): Promise<void>;
  settle(
    tx: Executor,
    settlement: { siteId: string; userId: number; betRef: string; payoutMinor: bigint; odds: number },
  ): Promise<boolean>;
}

export interface TicketBookDeps {
  db: Database;
  intake: RoundIntake;
  markets: MarketSource;
  bettingBonuses: BettingBonusFunding;
  /** The site's sportsbook limits per currency (settings.sportsbook.limits), read before the transaction. */
  siteLimits: (siteId: string, currency: string) => Promise<BetLimit[]>;
  /** The event, market and outcome names of legs in a language (the market store knows the competitors). */
  describeLegs: (executor: Executor, legs: readonly LegRef[], locale: Locale) => Promise<LegNames[]>;
  /** How long an in-play bet waits before it is checked again (0 in tests). */
  inPlayDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface PlaceTicketRequest {
  siteId: string;
  userId: number;
  /** Set by place(): the account's currency, read with the exclusion check. */
  currency: string;
  selections: SlipSelection[];
  betType: BetType;
  stakePerLineMinor: bigint;
  oddsChange: OddsChangeAcceptance;
  /** A betting bonus (free bet or bonus money) to stake from instead of the main balance. */
  bonusId?: number;
  requestId: string;
  channel: string;
}

export interface PlacedTicket {
  ticket: TicketRow;
  legs: TicketLegRow[];
  isReplay: boolean;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function requestHashOf(request: PlaceTicketRequest): string {
  return sha256(
    canonicalJson({
      selections: request.selections.map((item) => ({ ...item, oddsUnits: item.oddsUnits.toString() })),
      betType: request.betType,
      stake: request.stakePerLineMinor.toString(),
      bonusId: request.bonusId ?? null,
    }),
  );
}

/** The refusal a player sees for a slip that cannot be placed: the slip problem codes, with the selections concerned. */
function slipRefusal(code: string, message: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError('InvalidParameterException', message, { field: 'selections', errorType: code, ...extra });
}

const storedResult = (result: OutcomeResult, by: StoredResult['by']): StoredResult => ({
  won: result.won,
  void: [result.voidFactor.num.toString(), result.voidFactor.den.toString()],
  deadHeat: [result.deadHeatFactor.num.toString(), result.deadHeatFactor.den.toString()],
  by,
});

const resultOf = (stored: StoredResult): OutcomeResult => ({
  won: stored.won,
  voidFactor: ratio(BigInt(stored.void[0]), BigInt(stored.void[1])),
  deadHeatFactor: ratio(BigInt(stored.deadHeat[0]), BigInt(stored.deadHeat[1])),
});

const selectionOf = (leg: TicketLegRow): SlipSelection => ({
  eventId: leg.eventId,
  marketKey: leg.marketKey,
  outcomeId: leg.outcomeId,
  oddsUnits: leg.oddsUnits,
});

function cashOutRefusal(code: string, message: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError('InvalidParameterException', message, { field: 'ticket_id', errorType: code, ...extra });
}

/** A cancelled market's legs are void: the stake on them comes back. */
const VOID_RESULT: OutcomeResult = { won: false, voidFactor: ONE, deadHeatFactor: ONE };

/** The combined odds of a whole slip as a number, for the betting bonus's minimum odds rule. */
function totalOdds(selections: readonly { oddsUnits: bigint }[]): number {
  return selections.reduce((odds, item) => odds * (Number(item.oddsUnits) / 10_000), 1);
}

export function createTicketBook(deps: TicketBookDeps) {
  const { db, intake } = deps;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  const ticketMoney = (ticket: Pick<TicketRow, 'id' | 'siteId' | 'userId' | 'currency'>): RoundMoney => ({
    path: 'sportsbook',
    siteId: ticket.siteId,
    userId: ticket.userId,
    currency: ticket.currency,
    mode: 'real',
    sysname: 'sportsbook',
    reference: `sport:${ticket.id}`,
    actor: `player:${ticket.userId}`,
  });

  /** The prices now; refuses a closed market or a moved price the player's setting does not take. */
  async function checkPrices(executor: Executor, request: PlaceTicketRequest): Promise<SlipSelection[]> {
    const now = await deps.markets.current(executor, request.selections);
    return request.selections.map((selection, index) => {
      const current = now[index];
      if (!current || !current.isOpen)
        throw slipRefusal('SELECTION_UNAVAILABLE', 'This selection is not available for betting now.', { selections: [index] });
      if (!acceptsOddsChange(request.oddsChange, selection.oddsUnits, current.oddsUnits))
        throw slipRefusal('ODDS_CHANGED', 'The price has changed: check the new price and place the bet again.', {
          selections: [index],
          old_odds: selection.oddsUnits.toString(),
          new_odds: current.oddsUnits.toString(),
        });
      return { ...selection, oddsUnits: current.oddsUnits };
    });
  }

  async function findByRequest(executor: Executor, request: PlaceTicketRequest): Promise<PlacedTicket | undefined> {
    const [ticket] = await executor
      .select()
      .from(sportTickets)
      .where(
        and(
          eq(sportTickets.siteId, request.siteId),
          eq(sportTickets.userId, request.userId),
          eq(sportTickets.requestKey, request.requestId),
        ),
      );
    if (!ticket) return undefined;
    if (ticket.requestHash !== requestHashOf(request))
      throw invalidParameter('request_id', 'This request id was used for another bet');
    return { ticket, legs: await legsOf(executor, [ticket.id]), isReplay: true };
  }

  function legsOf(executor: Executor, ticketIds: number[]): Promise<TicketLegRow[]> {
    if (ticketIds.length === 0) return Promise.resolve([]);
    return executor
      .select()
      .from(sportTicketLegs)
      .where(inArray(sportTicketLegs.ticketId, ticketIds))
      .orderBy(asc(sportTicketLegs.ticketId), asc(sportTicketLegs.position));
  }

  async function writeTicket(tx: Executor, request: PlaceTicketRequest, accepted: SlipSelection[]): Promise<PlacedTicket> {
    const quote = quoteSlip(accepted, request.betType, request.stakePerLineMinor);
    const [ticket] = await tx
      .insert(sportTickets)
      .values({
        siteId: request.siteId,
        userId: request.userId,
        currency: request.currency,
        betType: request.betType,
        stakePerLineMinor: request.stakePerLineMinor,
        totalStakeMinor: quote.totalStakeMinor,
        potentialReturnMinor: quote.potentialReturnMinor,
        bonusId: request.bonusId ?? null,
        status: 'open',
        channel: request.channel,
        requestKey: request.requestId,
        requestHash: requestHashOf(request),
      })
      .returning();
    if (!ticket) throw new Error('the ticket could not be recorded');
    const legs = await tx
      .insert(sportTicketLegs)
      .values(
        accepted.map((selection, position) => ({
          ticketId: ticket.id,
          position,
          eventId: selection.eventId,
          marketKey: selection.marketKey,
          outcomeId: selection.outcomeId,
          oddsUnits: selection.oddsUnits,
        })),
      )
      .returning();
    await tx.insert(sportTicketChanges).values({ ticketId: ticket.id, status: 'open', reason: `placed (${request.channel})` });
    await stakeTicket(tx, ticket, accepted, request);
    return { ticket, legs, isReplay: false };
  }

  async function stakeTicket(tx: Executor, ticket: TicketRow, accepted: SlipSelection[], request: PlaceTicketRequest) {
    if (request.bonusId === undefined) {
      await intake.stake(tx, ticketMoney(ticket), {
        amountMinor: ticket.totalStakeMinor,
        idempotencyKey: `sport:${ticket.id}:stake`,
      });
      return;
    }
    await deps.bettingBonuses.stake(tx, {
      siteId: ticket.siteId,
      userId: ticket.userId,
      currency: ticket.currency,
      bonusId: request.bonusId,
      betRef: String(ticket.id),
      stakeMinor: ticket.totalStakeMinor,
      odds: totalOdds(accepted),
    });
  }

  /**
   * Settles what can be settled of these tickets (locked, in id order): each leg's result is
   * already written; a ticket whose lines are all decided is paid and closed.
   */
  async function settleTickets(tx: Executor, ticketIds: number[], reason: string): Promise<void> {
    if (ticketIds.length === 0) return;
    const tickets = await tx
      .select()
      .from(sportTickets)
      .where(and(inArray(sportTickets.id, ticketIds), eq(sportTickets.status, 'open')))
      .orderBy(asc(sportTickets.id))
      .for('update');
    const legs = await legsOf(
      tx,
      tickets.map((ticket) => ticket.id),
    );
    for (const ticket of tickets)
      await settleOne(
        tx,
        ticket,
        legs.filter((leg) => leg.ticketId === ticket.id),
        reason,
      );
  }

  async function settleOne(tx: Executor, ticket: TicketRow, legs: TicketLegRow[], reason: string) {
    const settled = legs.map((leg) => ({ oddsUnits: leg.oddsUnits, result: leg.result ? resultOf(leg.result) : undefined }));
    const lines = expandLines(ticket.betType, legs.length).map((line) => line.map((position) => settled[position]!));
    const outcome = settleTicket(ticket.stakePerLineMinor, lines);
    if (outcome.state === 'open') return;
    await payTicket(tx, ticket, outcome.payoutMinor);
    await tx
      .update(sportTickets)
      // What a partial cash-out paid before counts in the ticket's payout.
      .set({ status: outcome.outcome, payoutMinor: ticket.cashedOutMinor + outcome.payoutMinor, settledAt: new Date() })
      .where(eq(sportTickets.id, ticket.id));
    await tx.insert(sportTicketChanges).values({ ticketId: ticket.id, status: outcome.outcome, reason });
  }

  async function payTicket(tx: Executor, ticket: TicketRow, payoutMinor: bigint) {
    if (ticket.bonusId !== null) {
      const legs = await legsOf(tx, [ticket.id]);
      await deps.bettingBonuses.settle(tx, {
        siteId: ticket.siteId,
        userId: ticket.userId,
        betRef: String(ticket.id),
        payoutMinor,
        odds: totalOdds(legs),
      });
      return;
    }
    await intake.settle(tx, ticketMoney(ticket), {
      amountMinor: payoutMinor,
      idempotencyKey: `sport:${ticket.id}:payout`,
      actor: 'system',
    });
  }

  /**
   * Writes a market's result on its open legs (of the tickets `covers` accepts, by placement time);
   * returns the tickets concerned.
   */
  async function resultLegs(
    tx: Executor,
    eventId: string,
    marketKey: string,
    resultFor: (outcomeId: string) => StoredResult,
    covers: (placedAt: Date) => boolean = () => true,
  ) {
    const open = await tx
      .select({ leg: sportTicketLegs, placedAt: sportTickets.placedAt })
      .from(sportTicketLegs)
      .innerJoin(sportTickets, eq(sportTickets.id, sportTicketLegs.ticketId))
      .where(and(eq(sportTicketLegs.eventId, eventId), eq(sportTicketLegs.marketKey, marketKey), isNull(sportTicketLegs.result)))
      .orderBy(asc(sportTicketLegs.id));
    const concerned = open.filter((row) => covers(row.placedAt)).map((row) => row.leg);
    for (const leg of concerned)
      await tx
        .update(sportTicketLegs)
        .set({ result: resultFor(leg.outcomeId) })
        .where(eq(sportTicketLegs.id, leg.id));
    return [...new Set(concerned.map((leg) => leg.ticketId))];
  }

  /** The view with the legs' names and, for an open ticket, its cash-out price now. */
  async function viewOf(ticket: TicketRow, legs: TicketLegRow[], locale: Locale, isReplay?: boolean): Promise<TicketView> {
    const [names, cashOut] = await Promise.all([
      deps.describeLegs(db, legs, locale),
      ticket.status === 'open' ? cashOutPriceOf(db, ticket, legs) : undefined,
    ]);
    return ticketView(ticket, legs, { names, cashOutMinor: cashOut }, isReplay);
  }

  async function lockOwnTicket(tx: Executor, who: Gambler, ticketId: number): Promise<TicketRow> {
    const [ticket] = await tx.select().from(sportTickets).where(eq(sportTickets.id, ticketId)).for('update');
    // Another player's ticket and an unknown id look the same.
    if (!ticket || ticket.siteId !== who.siteId || ticket.userId !== who.uid) throw invalidParameter('ticket_id');
    if (ticket.status !== 'open') throw cashOutRefusal('CASH_OUT_UNAVAILABLE', 'This bet is settled');
    return ticket;
  }

  /** A single or multiple staked from the main balance, priced from its legs now; undefined when none is offered. */
  async function cashOutPriceOf(tx: Executor, ticket: TicketRow, legs: TicketLegRow[]): Promise<bigint | undefined> {
    if (ticket.bonusId !== null || (ticket.betType.kind !== 'single' && ticket.betType.kind !== 'multiple')) return undefined;
    if (ticket.betType.kind === 'single' && legs.length !== 1) return undefined;
    const now = await deps.markets.current(tx, legs.map(selectionOf));
    const priced: CashOutLeg[] = legs.map((leg, index) => {
      if (leg.result) return { state: 'settled', placedOddsUnits: leg.oddsUnits, result: resultOf(leg.result) };
      const current = now[index];
      return current?.isOpen
        ? { state: 'open', placedOddsUnits: leg.oddsUnits, currentOddsUnits: current.oddsUnits }
        : { state: 'suspended', placedOddsUnits: leg.oddsUnits };
    });
    return cashOutPrice(ticket.stakePerLineMinor, priced);
  }

  async function closeCashedOut(tx: Executor, ticket: TicketRow, paidMinor: bigint): Promise<TicketRow> {
    const [row] = await tx
      .update(sportTickets)
      .set({
        status: 'cashed_out',
        payoutMinor: ticket.payoutMinor + paidMinor,
        cashedOutMinor: ticket.cashedOutMinor + paidMinor,
        cashOuts: ticket.cashOuts + 1,
        settledAt: new Date(),
      })
      .where(eq(sportTickets.id, ticket.id))
      .returning();
    await tx
      .insert(sportTicketChanges)
      .values({ ticketId: ticket.id, status: 'cashed_out', reason: `cashed out for ${paidMinor} (minor units)` });
    if (!row) throw new Error('the ticket vanished inside its own transaction');
    return row;
  }

  /** A partial cash-out: the rest of the stake stays on the bet at its placed odds. */
  async function keepOpen(
    tx: Executor,
    ticket: TicketRow,
    legs: TicketLegRow[],
    remainingStakeMinor: bigint,
    paidMinor: bigint,
  ): Promise<TicketRow> {
    const quote = quoteSlip(legs.map(selectionOf), ticket.betType, remainingStakeMinor);
    const [row] = await tx
      .update(sportTickets)
      .set({
        stakePerLineMinor: remainingStakeMinor,
        totalStakeMinor: remainingStakeMinor,
        potentialReturnMinor: quote.potentialReturnMinor,
        payoutMinor: ticket.payoutMinor + paidMinor,
        cashedOutMinor: ticket.cashedOutMinor + paidMinor,
        cashOuts: ticket.cashOuts + 1,
      })
      .where(eq(sportTickets.id, ticket.id))
      .returning();
    await tx.insert(sportTicketChanges).values({
      ticketId: ticket.id,
      status: 'open',
      reason: `partly cashed out for ${paidMinor}; ${remainingStakeMinor} stays on the bet`,
    });
    if (!row) throw new Error('the ticket vanished inside its own transaction');
    return row;
  }

  return {
    /**
     * sportsbook.placeBet: one idempotent call; refusals move nothing. A player who is gone or
     * excluded from play is refused before anything else, as at the casino (round-intake).
     */
    async place(who: Gambler, slip: Omit<PlaceTicketRequest, 'siteId' | 'userId' | 'currency'>): Promise<PlacedTicket> {
      const currency = await intake.playingCurrency(who);
      const request: PlaceTicketRequest = { ...slip, siteId: who.siteId, userId: who.uid, currency };
      const earlier = await findByRequest(db, request);
      if (earlier) return earlier;
      const problems = validateSlip(request.selections, request.betType, request.stakePerLineMinor);
      const [problem] = problems;
      if (problem) throw slipRefusal(problem.code, problem.message, { selections: problem.selections });
      const limits = mostRestrictive(await deps.siteLimits(request.siteId, request.currency));
      const breach = limitBreaches(quoteSlip(request.selections, request.betType, request.stakePerLineMinor), limits)[0];
      if (breach)
        throw slipRefusal(breach.kind === 'stake' ? 'STAKE_LIMIT' : 'PAYOUT_LIMIT', `The ${breach.kind} is outside the limits`, {
          limit: breach.limitMinor.toString(),
        });
      const first = await deps.markets.current(db, request.selections);
      // In play the price may move under the player's click: the bet waits, then is checked again.
      if (first.some((item) => item?.isLive) && deps.inPlayDelayMs > 0) await sleep(deps.inPlayDelayMs);
      try {
        return await inTransaction(db, async (tx) => {
          const again = await findByRequest(tx, request);
          if (again) return again;
          return writeTicket(tx, request, await checkPrices(tx, request));
        });
      } catch (error) {
        if (!(error instanceof InsufficientFundsError)) throw error;
        if (request.bonusId !== undefined) throw invalidParameter('stake', 'The stake is above the betting bonus');
        throw await intake.shortBalance(who, 'real', currency, 'stake');
      }
    },

    /**
     * The feed's store applied a message that settled, cancelled or rolled back markets of an
     * event, in this transaction: settle what it decides. Rollbacks of a confirmed settlement or of
     * a cancel are not applied to tickets yet (decision 0009 says what remains).
     */
    async onMarketEffects(tx: Executor, eventId: string, effects: readonly MarketEffect[]): Promise<void> {
      for (const effect of effects) {
        // Tickets settle on confirmed results only: a provisional result may still be corrected or
        // rolled back (the feed says so), and money paid on it would have to be taken back.
        if (effect.kind === 'settle' && effect.certainty === 'confirmed') {
          const tickets = await resultLegs(tx, eventId, effect.key, (outcomeId) =>
            storedResult(effect.results[outcomeId] ?? VOID_RESULT, 'settlement'),
          );
          await settleTickets(tx, tickets, `market ${effect.key} settled`);
        } else if (effect.kind === 'cancel') {
          // A cancel voids the bets placed in its window (all of them when it names none).
          const covers = (placedAt: Date) =>
            cancelCovers({ start_time: effect.startTime, end_time: effect.endTime }, placedAt.getTime());
          const tickets = await resultLegs(tx, eventId, effect.key, () => storedResult(VOID_RESULT, 'cancel'), covers);
          await settleTickets(tx, tickets, `market ${effect.key} cancelled`);
        }
      }
    },

    /**
     * Cash-out (issue 14): an open single or multiple staked from the main balance is bought back
     * at its price from current odds less the margin, in full or in part. The player names the
     * price they saw: a moved price or a suspended market refuses, and nothing moves. The ticket
     * row's lock orders a cash-out against its settlement and against a second tab's cash-out.
     */
    async cashOut(
      who: Gambler,
      request: { ticketId: number; expectedPriceMinor: bigint; amountMinor?: bigint },
    ): Promise<{ ticket: TicketRow; legs: TicketLegRow[]; paidMinor: bigint }> {
      return inTransaction(db, async (tx) => {
        const ticket = await lockOwnTicket(tx, who, request.ticketId);
        const legs = await legsOf(tx, [ticket.id]);
        const price = await cashOutPriceOf(tx, ticket, legs);
        if (price === undefined) throw cashOutRefusal('CASH_OUT_UNAVAILABLE', 'Cash-out is not available for this bet now');
        if (price !== request.expectedPriceMinor)
          throw cashOutRefusal('CASH_OUT_PRICE_CHANGED', 'The cash-out price has changed', { price: price.toString() });
        const amount = request.amountMinor ?? price;
        if (amount <= 0n || amount > price) throw invalidParameter('amount', 'A cash-out is above zero and up to the price');
        const sequence = ticket.cashOuts + 1;
        await intake.settle(tx, ticketMoney(ticket), {
          amountMinor: amount,
          idempotencyKey: `sport:${ticket.id}:cashout:${sequence}`,
        });
        // A part so close to the whole that no stake would stay on the bet closes it.
        const remaining = amount === price ? 0n : partialCashOut(ticket.stakePerLineMinor, price, amount).remainingStakeMinor;
        const updated =
          remaining === 0n ? await closeCashedOut(tx, ticket, amount) : await keepOpen(tx, ticket, legs, remaining, amount);
        return { ticket: updated, legs, paidMinor: amount };
      });
    },

    /** The player's tickets, newest first, with their legs, the names in `locale`, and what an open one can be cashed out for now. */
    async list(
      siteId: string,
      userId: number,
      query: { status: 'open' | 'settled' | 'all'; offset: number; count: number },
      locale: Locale = 'en',
    ): Promise<TicketView[]> {
      const statusFilter =
        query.status === 'open'
          ? eq(sportTickets.status, 'open')
          : query.status === 'settled'
            ? inArray(sportTickets.status, ['won', 'lost', 'void', 'partial', 'cashed_out'] satisfies TicketStatus[])
            : undefined;
      const tickets = await db
        .select()
        .from(sportTickets)
        .where(and(eq(sportTickets.siteId, siteId), eq(sportTickets.userId, userId), statusFilter))
        .orderBy(desc(sportTickets.id))
        .offset(query.offset)
        .limit(query.count);
      const legs = await legsOf(
        db,
        tickets.map((ticket) => ticket.id),
      );
      return Promise.all(
        tickets.map((ticket) =>
          viewOf(
            ticket,
            legs.filter((leg) => leg.ticketId === ticket.id),
            locale,
          ),
        ),
      );
    },

    /** A ticket as its player sees it (after placing or cashing out). */
    view: (placed: { ticket: TicketRow; legs: TicketLegRow[] }, locale: Locale, isReplay?: boolean) =>
      viewOf(placed.ticket, placed.legs, locale, isReplay),

    /** The wager record of a ticket: every status change with its reason (back office, regulator). */
    changesOf(ticketId: number) {
      return db
        .select()
        .from(sportTicketChanges)
        .where(eq(sportTicketChanges.ticketId, ticketId))
        .orderBy(asc(sportTicketChanges.id));
    },
  };
}

export type TicketBook = ReturnType<typeof createTicketBook>;
