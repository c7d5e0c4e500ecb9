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
 * lines can all be decided (settleTicket) pays in its own ledger transfer and records why. The
 * tickets of a market are settled a chunk at a time: one lock statement, one batch of transfers
 * (each ticket's own, with its own key), one update and one wager-record insert per chunk.
 *
 * Rolling back (a rollback of a settlement or of a cancel, or a confirmed correction): the legs
 * the market decided are open again; a settled ticket's payout is taken back (the main balance
 * first, the rest a debt the next deposit clears, or written off by the site's policy:
 * wallet/debts.ts), the ticket is open again and waits for the corrected result, which pays under
 * a new key. A cash-out stands: a rollback after it moves no money (decision 0009).
 */
import { freeBetReturnMinor } from '#common/sportsbook/free-bet';
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
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
import { house, InsufficientFundsError, type DebtPolicy, type Debts } from '../../wallet';
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
  SETTLED_STATUSES,
  type StoredResult,
  type TicketLegRow,
  type TicketRow,
  type OperatorLimitScope,
  type TicketStatus,
} from './tables';
import { ticketView } from './views';
import { ExposureDeltas, marketRefKey, shiftExposure, type MarketRef } from './exposure';
import { exposureLimitsOf, listOperatorLimits, operatorLimits, setOperatorLimit } from './limits';

/** A selection as the market store knows it now. */
export interface SelectionNow {
  oddsUnits: bigint;
  /** The market takes bets: active, and its event neither ended nor suspended. */
  isOpen: boolean;
  /** In play: the bet waits the in-play delay and is checked again. */
  isLive: boolean;
  /** The event's league (tournament id), for the league's limits. */
  tournamentId?: string | null;
}

/** The market store's answer for a slip's selections, in order (undefined: no such selection). */
export interface MarketSource {
  /**
   * `lock`: inside a placement's transaction, hold the markets (FOR SHARE) until it commits, so a
   * settlement applied meanwhile cannot miss the ticket's legs.
   */
  current(
    executor: Executor,
    selections: readonly SlipSelection[],
    options?: { lock?: boolean },
  ): Promise<(SelectionNow | undefined)[]>;
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
  /** Whether the player's bonus is a free bet (its stake is not returned); false for one the player has not. */
  isFreeBet(executor: Executor, bonus: { siteId: string; userId: number; bonusId: number }): Promise<boolean>;
}

export interface TicketBookDeps {
  db: Database;
  intake: RoundIntake;
  markets: MarketSource;
  bettingBonuses: BettingBonusFunding;
  /** The site's sportsbook limits per currency (settings.sportsbook.limits), read before the transaction. */
  siteLimits: (siteId: string, currency: string) => Promise<BetLimit[]>;
  /** Players' debts: a rollback takes back a payout the player may have spent (wallet/debts.ts). */
  debts: Debts;
  /** The site's policy for what a rollback cannot take back (settings.wallet.debt_policy), read in the feed's transaction. */
  debtPolicy: (tx: Executor, siteId: string) => Promise<DebtPolicy>;
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
  /** Set by place(): the bonus is a free bet, whose return is its winnings only. */
  freeBet?: boolean;
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

/** Tickets are settled and rolled back this many at a time: one lock, one batch of transfers, one update each. */
const CHUNK = 1000;

function chunksOf<T>(items: readonly T[], size = CHUNK): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** Each settlement of a ticket pays under its own key (a rollback reopens it; the corrected result pays again). */
export const payoutKeyOf = (ticketId: number, settlement: number) =>
  settlement <= 1 ? `sport:${ticketId}:payout` : `sport:${ticketId}:payout:${settlement}`;
export const reversalKeyOf = (ticketId: number, settlement: number) => `sport:${ticketId}:reversal:${Math.max(1, settlement)}`;

/** The refusal of a slip over a limit: the code the slip shows, the limit (minor units) and the scope that set it. */
function limitRefusal(
  code: string,
  message: string,
  limit: { minor: bigint; scope: string },
  extra: Record<string, unknown> = {},
) {
  return slipRefusal(code, message, { limit: limit.minor.toString(), scope: limit.scope, ...extra });
}

const BREACH_CODES = {
  min_stake: ['STAKE_MINIMUM', 'The stake per line is below the minimum'],
  stake: ['STAKE_LIMIT', 'The stake is above the maximum'],
  payout: ['PAYOUT_LIMIT', 'The potential return is above the maximum payout'],
} as const;

type Change = { ticketId: number; status: TicketStatus; reason: string };

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
    const now = await deps.markets.current(executor, request.selections, { lock: true });
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

  function legsByTicket(legs: readonly TicketLegRow[]): Map<number, TicketLegRow[]> {
    const grouped = new Map<number, TicketLegRow[]>();
    for (const leg of legs) grouped.set(leg.ticketId, [...(grouped.get(leg.ticketId) ?? []), leg]);
    return grouped;
  }

  /**
   * The ticket's potential return joins every market it has a leg on; a market over its limit
   * refuses the slip (and the transaction takes the addition back), naming the limit and what
   * the market could still take.
   */
  async function addExposure(
    tx: Executor,
    ticket: TicketRow,
    accepted: readonly SlipSelection[],
    limits: ReadonlyMap<string, { minor: bigint; scope: string }>,
  ) {
    const deltas = new Map<string, { ref: MarketRef; deltaMinor: bigint }>();
    for (const selection of accepted)
      deltas.set(marketRefKey(selection), { ref: selection, deltaMinor: ticket.potentialReturnMinor });
    const totals = await shiftExposure(tx, ticket.siteId, ticket.currency, deltas);
    accepted.forEach((selection, index) => {
      const key = marketRefKey(selection);
      const limit = limits.get(key);
      const total = totals.get(key) ?? 0n;
      if (!limit || total <= limit.minor) return;
      const room = limit.minor - (total - ticket.potentialReturnMinor);
      throw limitRefusal('EXPOSURE_LIMIT', 'This market takes no more bets of this size', limit, {
        selections: [index],
        available: (room > 0n ? room : 0n).toString(),
      });
    });
  }

  async function writeTicket(
    tx: Executor,
    request: PlaceTicketRequest,
    accepted: SlipSelection[],
    exposureLimits: ReadonlyMap<string, { minor: bigint; scope: string }>,
  ): Promise<PlacedTicket> {
    const quote = quoteSlip(accepted, request.betType, request.stakePerLineMinor, { freeBet: request.freeBet });
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
    // Exposure before money: its rows are always locked before the wallet's accounts.
    await addExposure(tx, ticket, accepted, exposureLimits);
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
   * The limits a slip meets (the most restrictive of player, market, league and site) checked
   * before its transaction, and each market's exposure limit, checked in it.
   */
  async function checkLimits(request: PlaceTicketRequest, now: readonly (SelectionNow | undefined)[]) {
    const leagues = now.map((item) => item?.tournamentId);
    const site = await deps.siteLimits(request.siteId, request.currency);
    const operator = await operatorLimits(db, { ...request, leagues });
    const quote = quoteSlip(request.selections, request.betType, request.stakePerLineMinor, { freeBet: request.freeBet });
    const [breach] = limitBreaches(quote, mostRestrictive([...site, ...operator]), request.stakePerLineMinor);
    if (breach) {
      const [code, message] = BREACH_CODES[breach.kind];
      throw limitRefusal(code, message, { minor: breach.limitMinor, scope: breach.scope });
    }
    const exposure = new Map<string, { minor: bigint; scope: string }>();
    request.selections.forEach((selection, index) => {
      const limit = mostRestrictive(exposureLimitsOf(site, operator, selection, leagues[index])).maxExposure;
      if (limit) exposure.set(marketRefKey(selection), limit);
    });
    return exposure;
  }

  /** How each ticket stands now: settled (with its payout and outcome) or still open. */
  function decide(ticket: TicketRow, legs: readonly TicketLegRow[]) {
    const settled = legs.map((leg) => ({ oddsUnits: leg.oddsUnits, result: leg.result ? resultOf(leg.result) : undefined }));
    const lines = expandLines(ticket.betType, legs.length).map((line) => line.map((position) => settled[position]!));
    return settleTicket(ticket.stakePerLineMinor, lines);
  }

  /**
   * Settles what can be settled of these tickets (each leg's result is already written), a chunk
   * at a time: the chunk's open tickets locked in id order, the decided ones taken off their
   * markets' exposure, paid (each in its own transfer, under the key of this settlement, in one
   * batch), closed and recorded.
   */
  async function settleTickets(tx: Executor, ticketIds: readonly number[], reason: string): Promise<void> {
    const ids = [...new Set(ticketIds)].sort((a, b) => a - b);
    for (const chunk of chunksOf(ids)) await settleChunk(tx, chunk, reason);
  }

  async function settleChunk(tx: Executor, ids: number[], reason: string): Promise<void> {
    const tickets = await tx
      .select()
      .from(sportTickets)
      .where(and(inArray(sportTickets.id, ids), eq(sportTickets.status, 'open')))
      .orderBy(asc(sportTickets.id))
      .for('update');
    const legs = legsByTicket(
      await legsOf(
        tx,
        tickets.map((ticket) => ticket.id),
      ),
    );
    const decided = tickets.flatMap((ticket) => {
      const outcome = decide(ticket, legs.get(ticket.id) ?? []);
      return outcome.state === 'open'
        ? []
        : [{ ticket, payoutMinor: outcome.payoutMinor, status: outcome.outcome, sequence: ticket.settlements + 1 }];
    });
    if (decided.length === 0) return;
    const exposure = new ExposureDeltas();
    for (const { ticket } of decided)
      exposure.add(ticket.siteId, ticket.currency, legs.get(ticket.id) ?? [], -ticket.potentialReturnMinor);
    await exposure.apply(tx);
    await intake.settleAll(
      tx,
      decided
        .filter(({ ticket }) => ticket.bonusId === null)
        .map(({ ticket, payoutMinor, sequence }) => ({
          round: ticketMoney(ticket),
          movement: { amountMinor: payoutMinor, idempotencyKey: payoutKeyOf(ticket.id, sequence), actor: 'system' },
        })),
    );
    const paid = new Map<number, bigint>();
    for (const { ticket, payoutMinor } of decided)
      if (ticket.bonusId !== null) paid.set(ticket.id, await payFromBonus(tx, ticket, legs.get(ticket.id) ?? [], payoutMinor));
    // What a partial cash-out paid before counts in the ticket's payout.
    const rows = decided.map(
      ({ ticket, payoutMinor, status, sequence }) =>
        sql`(${ticket.id}::bigint, ${status}::text, ${(ticket.cashedOutMinor + (paid.get(ticket.id) ?? payoutMinor)).toString()}::bigint, ${sequence}::int)`,
    );
    await tx.execute(sql`UPDATE sport_tickets AS t
      SET status = v.status, payout_minor = v.payout, settlements = v.sequence, settled_at = now()
      FROM (VALUES ${sql.join(rows, sql`, `)}) AS v(id, status, payout, sequence) WHERE t.id = v.id`);
    await tx.insert(sportTicketChanges).values(decided.map(({ ticket, status }) => ({ ticketId: ticket.id, status, reason })));
  }

  /** Settles a betting bonus's ticket through the bonus engine; returns the ticket's payout (a free bet's winnings only). */
  async function payFromBonus(tx: Executor, ticket: TicketRow, legs: readonly TicketLegRow[], payoutMinor: bigint) {
    await deps.bettingBonuses.settle(tx, {
      siteId: ticket.siteId,
      userId: ticket.userId,
      betRef: String(ticket.id),
      payoutMinor,
      odds: totalOdds(legs),
    });
    const bonus = { siteId: ticket.siteId, userId: ticket.userId, bonusId: ticket.bonusId! };
    return (await deps.bettingBonuses.isFreeBet(tx, bonus))
      ? freeBetReturnMinor(payoutMinor, ticket.totalStakeMinor)
      : payoutMinor;
  }

  /**
   * Writes a market's result on its open legs (of the tickets `covers` accepts, by placement
   * time), one statement per outcome and chunk; returns the tickets concerned.
   */
  async function resultLegs(
    tx: Executor,
    eventId: string,
    marketKey: string,
    resultFor: (outcomeId: string) => StoredResult,
    covers: (placedAt: Date) => boolean = () => true,
  ): Promise<number[]> {
    const open = await tx
      .select({
        id: sportTicketLegs.id,
        ticketId: sportTicketLegs.ticketId,
        outcomeId: sportTicketLegs.outcomeId,
        placedAt: sportTickets.placedAt,
      })
      .from(sportTicketLegs)
      .innerJoin(sportTickets, eq(sportTickets.id, sportTicketLegs.ticketId))
      .where(and(eq(sportTicketLegs.eventId, eventId), eq(sportTicketLegs.marketKey, marketKey), isNull(sportTicketLegs.result)))
      .orderBy(asc(sportTicketLegs.id));
    const concerned = open.filter((row) => covers(row.placedAt));
    const byOutcome = new Map<string, number[]>();
    for (const leg of concerned) byOutcome.set(leg.outcomeId, [...(byOutcome.get(leg.outcomeId) ?? []), leg.id]);
    for (const [outcomeId, legIds] of byOutcome)
      for (const chunk of chunksOf(legIds))
        await tx
          .update(sportTicketLegs)
          .set({ result: resultFor(outcomeId) })
          .where(inArray(sportTicketLegs.id, chunk));
    return [...new Set(concerned.map((leg) => leg.ticketId))];
  }

  /**
   * A rollback of what a market decided (`by`: its settlement or its cancel): the legs it decided
   * are open again, and the tickets are put back as they were before it; then whatever can still
   * be decided without it (a multiple lost on another leg) settles again.
   */
  async function rollbackMarket(tx: Executor, eventId: string, marketKey: string, by: StoredResult['by'], why: string) {
    const decidedLegs = await tx
      .select({ id: sportTicketLegs.id, ticketId: sportTicketLegs.ticketId })
      .from(sportTicketLegs)
      .where(
        and(
          eq(sportTicketLegs.eventId, eventId),
          eq(sportTicketLegs.marketKey, marketKey),
          sql`${sportTicketLegs.result}->>'by' = ${by}`,
        ),
      );
    const ids = [...new Set(decidedLegs.map((leg) => leg.ticketId))].sort((a, b) => a - b);
    const policies = new Map<string, DebtPolicy>();
    const reopened: number[] = [];
    for (const chunk of chunksOf(ids)) {
      const legIds = decidedLegs.filter((leg) => chunk.includes(leg.ticketId)).map((leg) => leg.id);
      reopened.push(...(await rollbackChunk(tx, chunk, legIds, why, policies)));
    }
    await settleTickets(tx, reopened, `settled again after the ${why}`);
  }

  async function rollbackChunk(
    tx: Executor,
    ids: number[],
    legIds: number[],
    why: string,
    policies: Map<string, DebtPolicy>,
  ): Promise<number[]> {
    const tickets = await tx
      .select()
      .from(sportTickets)
      .where(inArray(sportTickets.id, ids))
      .orderBy(asc(sportTickets.id))
      .for('update');
    // A betting bonus's settlement has converted or consumed the bonus: it stands (decision 0009).
    const isKept = (ticket: TicketRow) => ticket.bonusId !== null && ticket.status !== 'open';
    const cleared = new Set(tickets.filter((ticket) => !isKept(ticket)).map((ticket) => ticket.id));
    if (cleared.size > 0)
      await tx
        .update(sportTicketLegs)
        .set({ result: null })
        .where(and(inArray(sportTicketLegs.id, legIds), inArray(sportTicketLegs.ticketId, [...cleared])));
    const settled = tickets.filter(
      (ticket) => cleared.has(ticket.id) && (SETTLED_STATUSES as readonly string[]).includes(ticket.status),
    );
    const legs = legsByTicket(
      await legsOf(
        tx,
        settled.map((ticket) => ticket.id),
      ),
    );
    // Back on its markets' exposure before any money moves (the lock order).
    const exposure = new ExposureDeltas();
    for (const ticket of settled)
      exposure.add(ticket.siteId, ticket.currency, legs.get(ticket.id) ?? [], ticket.potentialReturnMinor);
    await exposure.apply(tx);
    const changes: Change[] = [];
    for (const ticket of settled)
      changes.push({ ticketId: ticket.id, status: 'open', reason: await takeBack(tx, ticket, why, policies) });
    if (settled.length > 0)
      await tx
        .update(sportTickets)
        .set({ status: 'open', payoutMinor: sql`${sportTickets.cashedOutMinor}`, settledAt: null })
        .where(
          inArray(
            sportTickets.id,
            settled.map((ticket) => ticket.id),
          ),
        );
    for (const ticket of tickets) {
      if (ticket.status === 'open')
        changes.push({ ticketId: ticket.id, status: 'open', reason: `${why}: the leg waits for the corrected result` });
      else if (ticket.status === 'cashed_out')
        changes.push({ ticketId: ticket.id, status: 'cashed_out', reason: `${why} after the cash-out: the cash-out stands` });
      else if (isKept(ticket))
        changes.push({
          ticketId: ticket.id,
          status: ticket.status,
          reason: `${why}: a betting bonus bet's settlement stands, for the operator to review`,
        });
    }
    if (changes.length > 0) await tx.insert(sportTicketChanges).values(changes);
    return settled.map((ticket) => ticket.id);
  }

  /** Takes a settled ticket's payout back (not what a partial cash-out paid before: that stands); says what it did. */
  async function takeBack(tx: Executor, ticket: TicketRow, why: string, policies: Map<string, DebtPolicy>): Promise<string> {
    const amountMinor = ticket.payoutMinor - ticket.cashedOutMinor;
    if (amountMinor <= 0n) return `${why}: nothing was paid; waits for the corrected result`;
    const policy = policies.get(ticket.siteId) ?? (await deps.debtPolicy(tx, ticket.siteId));
    policies.set(ticket.siteId, policy);
    const reclaimed = await deps.debts.reclaim(
      tx,
      {
        siteId: ticket.siteId,
        userId: ticket.userId,
        currency: ticket.currency,
        amountMinor,
        to: house('game', ticket.userId),
        kind: 'sport_reversal',
        idempotencyKey: reversalKeyOf(ticket.id, ticket.settlements),
        reference: `sport:${ticket.id}`,
        actor: 'system',
        reason: `sportsbook ${why}`,
      },
      policy,
    );
    const debt =
      reclaimed.debtMinor === 0n
        ? ''
        : `, ${reclaimed.debtMinor} of it ${policy === 'write_off' ? 'written off by the site policy' : 'owed as a debt'}`;
    return `${why}: payout of ${amountMinor} taken back${debt}; waits for the corrected result`;
  }

  /** The views of several tickets: their legs' names in one call, the open ones' cash-out prices from one read of the market store. */
  async function viewsOf(
    tickets: readonly TicketRow[],
    legs: readonly TicketLegRow[],
    locale: Locale,
    isReplay?: boolean,
  ): Promise<TicketView[]> {
    const grouped = legsByTicket(legs);
    const ordered = tickets.flatMap((ticket) => grouped.get(ticket.id) ?? []);
    const offered = tickets.filter((ticket) => ticket.status === 'open' && offersCashOut(ticket, grouped.get(ticket.id) ?? []));
    const offeredLegs = offered.flatMap((ticket) => grouped.get(ticket.id) ?? []);
    const [names, now] = await Promise.all([
      deps.describeLegs(db, ordered, locale),
      offeredLegs.length > 0 ? deps.markets.current(db, offeredLegs.map(selectionOf)) : Promise.resolve([]),
    ]);
    const namesOf = new Map(ordered.map((leg, index) => [leg.id, names[index]!]));
    const nowOf = new Map(offeredLegs.map((leg, index) => [leg.id, now[index]]));
    return tickets.map((ticket) => {
      const own = grouped.get(ticket.id) ?? [];
      const cashOut = offered.includes(ticket)
        ? priceFrom(
            ticket,
            own,
            own.map((leg) => nowOf.get(leg.id)),
          )
        : undefined;
      return ticketView(ticket, own, { names: own.map((leg) => namesOf.get(leg.id)!), cashOutMinor: cashOut }, isReplay);
    });
  }

  async function lockOwnTicket(tx: Executor, who: Gambler, ticketId: number): Promise<TicketRow> {
    const [ticket] = await tx.select().from(sportTickets).where(eq(sportTickets.id, ticketId)).for('update');
    // Another player's ticket and an unknown id look the same.
    if (!ticket || ticket.siteId !== who.siteId || ticket.userId !== who.uid) throw invalidParameter('ticket_id');
    if (ticket.status !== 'open') throw cashOutRefusal('CASH_OUT_UNAVAILABLE', 'This bet is settled');
    return ticket;
  }

  /** Cash-out is offered on singles and multiples staked from the main balance. */
  function offersCashOut(ticket: TicketRow, legs: readonly TicketLegRow[]): boolean {
    if (ticket.bonusId !== null || (ticket.betType.kind !== 'single' && ticket.betType.kind !== 'multiple')) return false;
    return ticket.betType.kind !== 'single' || legs.length === 1;
  }

  function priceFrom(
    ticket: TicketRow,
    legs: readonly TicketLegRow[],
    now: readonly (SelectionNow | undefined)[],
  ): bigint | undefined {
    const priced: CashOutLeg[] = legs.map((leg, index) => {
      if (leg.result) return { state: 'settled', placedOddsUnits: leg.oddsUnits, result: resultOf(leg.result) };
      const current = now[index];
      return current?.isOpen
        ? { state: 'open', placedOddsUnits: leg.oddsUnits, currentOddsUnits: current.oddsUnits }
        : { state: 'suspended', placedOddsUnits: leg.oddsUnits };
    });
    return cashOutPrice(ticket.stakePerLineMinor, priced);
  }

  /** A single or multiple staked from the main balance, priced from its legs now; undefined when none is offered. */
  async function cashOutPriceOf(tx: Executor, ticket: TicketRow, legs: TicketLegRow[]): Promise<bigint | undefined> {
    if (!offersCashOut(ticket, legs)) return undefined;
    return priceFrom(ticket, legs, await deps.markets.current(tx, legs.map(selectionOf)));
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
    remainingStakeMinor: bigint,
    potentialReturnMinor: bigint,
    paidMinor: bigint,
  ): Promise<TicketRow> {
    const [row] = await tx
      .update(sportTickets)
      .set({
        stakePerLineMinor: remainingStakeMinor,
        totalStakeMinor: remainingStakeMinor,
        potentialReturnMinor,
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
      const base = { ...slip, siteId: who.siteId, userId: who.uid, currency };
      const freeBet =
        slip.bonusId !== undefined &&
        (await deps.bettingBonuses.isFreeBet(db, { siteId: who.siteId, userId: who.uid, bonusId: slip.bonusId }));
      const request: PlaceTicketRequest = { ...base, freeBet };
      const earlier = await findByRequest(db, request);
      if (earlier) return earlier;
      const problems = validateSlip(request.selections, request.betType, request.stakePerLineMinor);
      const [problem] = problems;
      if (problem) throw slipRefusal(problem.code, problem.message, { selections: problem.selections });
      const first = await deps.markets.current(db, request.selections);
      const exposureLimits = await checkLimits(request, first);
      // In play the price may move under the player's click: the bet waits, then is checked again.
      if (first.some((item) => item?.isLive) && deps.inPlayDelayMs > 0) await sleep(deps.inPlayDelayMs);
      try {
        return await inTransaction(db, async (tx) => {
          const again = await findByRequest(tx, request);
          if (again) return again;
          return writeTicket(tx, request, await checkPrices(tx, request), exposureLimits);
        });
      } catch (error) {
        if (!(error instanceof InsufficientFundsError)) throw error;
        if (request.bonusId !== undefined) throw invalidParameter('stake', 'The stake is above the betting bonus');
        throw await intake.shortBalance(who, 'real', currency, 'stake');
      }
    },

    /**
     * The feed's store applied a message that settled, cancelled or rolled back markets of an
     * event, in this transaction: settle, void or reopen what it decides.
     */
    async onMarketEffects(tx: Executor, eventId: string, effects: readonly MarketEffect[]): Promise<void> {
      for (const effect of effects) {
        // Tickets settle on confirmed results only: a provisional result may still be corrected or
        // rolled back (the feed says so), and money paid on it would have to be taken back.
        if (effect.kind === 'settle' && effect.certainty === 'confirmed') {
          // A confirmed result that differs from an earlier one replaces it: the earlier is rolled back first.
          if (effect.correction)
            await rollbackMarket(tx, eventId, effect.key, 'settlement', `correction of market ${effect.key}`);
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
        } else if (effect.kind === 'rollback_settlement') {
          await rollbackMarket(tx, eventId, effect.key, 'settlement', `rollback of the settlement of market ${effect.key}`);
        } else if (effect.kind === 'rollback_cancel') {
          await rollbackMarket(tx, eventId, effect.key, 'cancel', `rollback of the cancel of market ${effect.key}`);
        }
      }
    },

    /**
     * Cash-out (issue 14): an open single or multiple staked from the main balance is bought back
     * at its price from current odds less the margin, in full or in part. The player names the
     * price they saw: a moved price or a suspended market refuses, and nothing moves. The ticket
     * row's lock orders a cash-out against its settlement, a rollback and a second tab's cash-out.
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
        // A part so close to the whole that no stake would stay on the bet closes it.
        const remaining = amount === price ? 0n : partialCashOut(ticket.stakePerLineMinor, price, amount).remainingStakeMinor;
        const potential =
          remaining === 0n ? 0n : quoteSlip(legs.map(selectionOf), ticket.betType, remaining).potentialReturnMinor;
        // Exposure before money (the lock order): what the bet may still return.
        const exposure = new ExposureDeltas();
        exposure.add(ticket.siteId, ticket.currency, legs, potential - ticket.potentialReturnMinor);
        await exposure.apply(tx);
        await intake.settle(tx, ticketMoney(ticket), {
          amountMinor: amount,
          idempotencyKey: `sport:${ticket.id}:cashout:${sequence}`,
        });
        const updated =
          remaining === 0n ? await closeCashedOut(tx, ticket, amount) : await keepOpen(tx, ticket, remaining, potential, amount);
        return { ticket: updated, legs, paidMinor: amount };
      });
    },

    /**
     * The player's tickets, newest first, with their legs, the names in `locale`, and what an
     * open one can be cashed out for now: four reads for the whole page (tickets, legs, names,
     * prices), whatever its length.
     */
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
      return viewsOf(tickets, legs, locale);
    },

    /** A ticket as its player sees it (after placing or cashing out). */
    view: async (placed: { ticket: TicketRow; legs: TicketLegRow[] }, locale: Locale, isReplay?: boolean) =>
      (await viewsOf([placed.ticket], placed.legs, locale, isReplay))[0]!,

    /** The operator's player, market and league limits of a site (back office). */
    limits: (siteId: string, scope?: OperatorLimitScope) => listOperatorLimits(db, siteId, scope),

    /** Sets one player's, market type's or league's limits (back office; null: no limit of that kind). */
    async setLimit(limit: Parameters<typeof setOperatorLimit>[1]) {
      const row = await setOperatorLimit(db, limit);
      if (!row) throw new Error('the limit could not be recorded');
      return row;
    },

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
