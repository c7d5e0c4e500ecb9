/**
 * The LiveWave rooms: one shared round after another at each live table, for every seated player.
 *
 * A round takes bets for `bettingMs`, then closes: bets still on their way to the wallet are
 * awaited (a bet that arrives after the close is refused, never taken), the table draws one
 * outcome, and every seat is settled once — one `win` (also of nothing) and one `round-end` per
 * player, with transaction ids fixed by the round and the player, so a retry or a duplicate can
 * never pay twice. The result shows for `resultMs`, then the next round opens.
 *
 * At the wallet each player has a round of their own (`{table}-{round}-{player}`): the operator's
 * rounds belong to one player. Each bet is a `bet` in it; a bet whose fate stays unknown is rolled
 * back by reference. Demo seats play on the session's fun balance and call no one.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { PlayError, type Session } from '../sessions';
import type { Rng, SharedTable } from '../title';
import type { WalletOutcome } from '../wallet';

/** At most this many bets a seat may place in one round (a flood is refused, not stored). */
const MAX_BETS_PER_SEAT = 40;

export class BettingClosedError extends Error {
  readonly code = 'BETTING_CLOSED';
}

interface SeatBet {
  spot: string;
  stakeMinor: bigint;
  transactionId: string;
}

interface Seat {
  key: string;
  session: Session;
  walletRoundId: string;
  bets: SeatBet[];
  sequence: number;
  winMinor?: bigint;
}

interface LiveRound {
  id: string;
  number: number;
  phase: 'betting' | 'drawing' | 'result';
  closesAt: number;
  resultUntil: number;
  outcome?: unknown;
  seats: Map<string, Seat>;
  /** Bets on their way to the wallet: the close waits for them. */
  inFlight: Set<Promise<unknown>>;
  settled?: Promise<void>;
}

export interface LiveRoomsOptions {
  tables: ReadonlyMap<string, SharedTable>;
  rng: Rng;
  now?: () => number;
  logger?: Pick<Logger, 'warn' | 'info'>;
  /** Phase lengths for every table instead of each table's own (AGGREGATOR_LIVE_*_MS: shorter in the browser tests). */
  phases?: { bettingMs?: number; resultMs?: number };
}

export interface LiveState {
  table: string;
  spots: readonly string[];
  round: { id: string; number: number; phase: LiveRound['phase']; ms_left: number; outcome: unknown };
  bets: { spot: string; stake: string }[];
  /** The seat's return this round, once settled. */
  win: string | null;
  players: number;
  balance: string;
}

export function createLiveRooms(options: LiveRoomsOptions) {
  const now = options.now ?? Date.now;
  const rounds = new Map<string, LiveRound>();
  let pending: { describe: string; send: () => Promise<WalletOutcome> }[] = [];
  let counter = 0;

  function tableOf(session: Session): SharedTable {
    const table = options.tables.get(session.titleId);
    if (!table) throw new PlayError('INVALID_INPUT', 'This session does not play a live table');
    return table;
  }

  function openRound(table: SharedTable, number: number): LiveRound {
    const round: LiveRound = {
      id: `${table.id}-${randomBytes(6).toString('base64url')}`,
      number,
      phase: 'betting',
      closesAt: now() + (options.phases?.bettingMs ?? table.bettingMs),
      resultUntil: 0,
      seats: new Map(),
      inFlight: new Set(),
    };
    rounds.set(table.id, round);
    return round;
  }

  /** The table's round now, moving it on when its time has come (a closed round settles in the background). */
  function current(table: SharedTable): LiveRound {
    let round = rounds.get(table.id) ?? openRound(table, ++counter);
    if (round.phase === 'betting' && now() >= round.closesAt) void close(table, round);
    if (round.phase === 'result' && now() >= round.resultUntil) round = openRound(table, round.number + 1);
    return round;
  }

  async function mustLand(describe: string, send: () => Promise<WalletOutcome>): Promise<WalletOutcome> {
    const outcome = await send();
    if (outcome.kind === 'unavailable') pending.push({ describe, send });
    else if (outcome.kind === 'refused')
      options.logger?.warn({ describe, code: outcome.code }, 'the operator refused a live-table request');
    return outcome;
  }

  async function settleSeat(table: SharedTable, round: LiveRound, seat: Seat): Promise<void> {
    const winMinor = seat.bets.reduce((sum, bet) => sum + table.settle(bet, round.outcome), 0n);
    const session = seat.session;
    if (!session.player) {
      session.balanceMinor += winMinor;
      seat.winMinor = winMinor;
      return;
    }
    const player = session.player;
    const money = { token: player.token, playerId: player.playerId, roundId: seat.walletRoundId, currency: session.currency };
    const transactionId = `${seat.walletRoundId}-win`;
    const outcome = await mustLand(`live win ${transactionId}`, () =>
      player.wallet.win({ ...money, transactionId, amountMinor: winMinor }),
    );
    session.balanceMinor = outcome.kind === 'ok' ? outcome.balanceMinor : session.balanceMinor + winMinor;
    seat.winMinor = winMinor;
    await mustLand(`live round end ${seat.walletRoundId}`, () =>
      player.wallet.roundEnd({ token: player.token, playerId: player.playerId, roundId: seat.walletRoundId }),
    );
  }

  /** Closes betting, draws the outcome and settles every seat once; later calls get the same promise. */
  function close(table: SharedTable, round: LiveRound): Promise<void> {
    if (round.settled) return round.settled;
    round.phase = 'drawing';
    round.settled = (async () => {
      await Promise.allSettled([...round.inFlight]);
      round.outcome = table.draw(options.rng);
      await Promise.all(
        [...round.seats.values()].filter((seat) => seat.bets.length > 0).map((seat) => settleSeat(table, round, seat)),
      );
      round.phase = 'result';
      round.resultUntil = now() + (options.phases?.resultMs ?? table.resultMs);
    })();
    return round.settled;
  }

  async function sendBet(session: Session, seat: Seat, spot: string, stakeMinor: bigint): Promise<void> {
    const transactionId = `${seat.walletRoundId}-b${seat.sequence++}`;
    if (!session.player) {
      if (stakeMinor > session.balanceMinor) throw new PlayError('INSUFFICIENT_FUNDS', 'The balance does not cover the stake');
      session.balanceMinor -= stakeMinor;
      seat.bets.push({ spot, stakeMinor, transactionId });
      return;
    }
    // Held on the seat while the wallet answers, so parallel bets on one spot see each other's
    // stakes against the limit; taken off again when the bet does not land.
    const held: SeatBet = { spot, stakeMinor, transactionId };
    seat.bets.push(held);
    try {
      await sendRealBet(session, seat, held);
    } catch (error) {
      seat.bets.splice(seat.bets.indexOf(held), 1);
      throw error;
    }
  }

  async function sendRealBet(session: Session, seat: Seat, bet: SeatBet): Promise<void> {
    const { transactionId, stakeMinor } = bet;
    const player = session.player!;
    const money = { token: player.token, playerId: player.playerId, roundId: seat.walletRoundId, currency: session.currency };
    const outcome = await player.wallet.bet({ ...money, transactionId, amountMinor: stakeMinor });
    if (outcome.kind === 'unavailable') {
      // The bet may have landed: it is rolled back by reference and never takes part in the round.
      await mustLand(`live rollback ${transactionId}`, () =>
        player.wallet.rollback({
          ...money,
          transactionId: `${transactionId}-rb`,
          referenceTransactionId: transactionId,
          amountMinor: stakeMinor,
        }),
      );
      throw new PlayError('WALLET_UNAVAILABLE', 'The casino could not be reached; the stake was returned');
    }
    if (outcome.kind === 'refused') {
      if (outcome.balanceMinor !== undefined) session.balanceMinor = outcome.balanceMinor;
      if (outcome.code === 'INSUFFICIENT_FUNDS')
        throw new PlayError('INSUFFICIENT_FUNDS', 'The balance does not cover the stake');
      if (outcome.code === 'PLAYER_BLOCKED')
        throw new PlayError('PLAYER_BLOCKED', 'The operator does not let the player bet now');
      if (outcome.code === 'SESSION_EXPIRED' || outcome.code === 'SESSION_NOT_FOUND')
        throw new PlayError('SESSION_EXPIRED', 'The game session has ended');
      throw new PlayError('REFUSED', `The operator refused the bet (${outcome.code})`);
    }
    session.balanceMinor = outcome.balanceMinor;
  }

  /**
   * The player's seat in the round. A real-money seat follows the player's newest session (a
   * reload launches one): the round's return then lands in the balance that session shows, and
   * a settled seat hands it the balance the wallet answered with.
   */
  function seatOf(round: LiveRound, session: Session): Seat | undefined {
    const seat = round.seats.get(session.player ? `p:${session.player.playerId}` : `s:${session.id}`);
    if (seat && seat.session !== session && session.createdAt >= seat.session.createdAt) {
      if (seat.winMinor !== undefined) session.balanceMinor = seat.session.balanceMinor;
      seat.session = session;
    }
    return seat;
  }

  return {
    /** Places one bet in the table's open round; refused once betting has closed. */
    async placeBet(session: Session, input: unknown): Promise<LiveState> {
      const table = tableOf(session);
      const round = current(table);
      if (round.phase !== 'betting') throw new BettingClosedError('Betting has closed for this round');
      const bet = table.parseBet(input);
      if (!bet) throw new PlayError('INVALID_INPUT', 'The stake or spot is not valid');
      const key = session.player ? `p:${session.player.playerId}` : `s:${session.id}`;
      let seat = seatOf(round, session);
      if (!seat) {
        const who = session.player ? session.player.playerId : session.id.slice(0, 12);
        seat = { key, session, walletRoundId: `${round.id}-${who}`, bets: [], sequence: 0 };
        round.seats.set(key, seat);
      }
      // The same spot's bets together stay inside the table's limit for one bet.
      const onSpot = seat.bets.filter((each) => each.spot === bet.spot).reduce((sum, each) => sum + each.stakeMinor, 0n);
      if (seat.sequence >= MAX_BETS_PER_SEAT || !table.parseBet({ spot: bet.spot, stake: (onSpot + bet.stakeMinor).toString() }))
        throw new PlayError('INVALID_INPUT', 'The bets on this spot would pass the table limit');
      const placing = sendBet(session, seat, bet.spot, bet.stakeMinor);
      round.inFlight.add(placing);
      try {
        await placing;
      } finally {
        round.inFlight.delete(placing);
      }
      return this.state(session);
    },

    /** What the seated player sees: the round, its countdown, its outcome, their bets and return. */
    state(session: Session): LiveState {
      const table = tableOf(session);
      const round = current(table);
      const seat = seatOf(round, session);
      const msLeft =
        round.phase === 'betting' ? round.closesAt - now() : round.phase === 'result' ? round.resultUntil - now() : 0;
      return {
        table: table.id,
        spots: table.spots,
        round: {
          id: round.id,
          number: round.number,
          phase: round.phase,
          ms_left: Math.max(0, msLeft),
          outcome: round.phase === 'result' ? round.outcome : null,
        },
        bets: (seat?.bets ?? []).map((bet) => ({ spot: bet.spot, stake: bet.stakeMinor.toString() })),
        win: round.phase === 'result' && seat?.winMinor !== undefined ? seat.winMinor.toString() : null,
        players: round.seats.size,
        balance: session.balanceMinor.toString(),
      };
    },

    /** Moves every table on (the process calls it on a timer; tests call closeNow instead of waiting). */
    tick(): void {
      for (const table of options.tables.values()) current(table);
    },

    /** Closes a table's open round now and settles it (tests; an operator's "no more bets"). */
    closeNow(tableId: string): Promise<void> {
      const table = options.tables.get(tableId);
      if (!table) throw new Error(`no live table ${tableId}`);
      return close(table, current(table));
    },

    /** Sends the live tables' pending wallet requests again. */
    async retryPending(): Promise<void> {
      const retry = pending;
      pending = [];
      for (const request of retry) if ((await request.send()).kind === 'unavailable') pending.push(request);
    },

    pendingCount: () => pending.length,
  };
}

export type LiveRooms = ReturnType<typeof createLiveRooms>;
