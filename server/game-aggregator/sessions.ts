/**
 * The aggregator's game sessions and rounds, in memory (it has no database of ours, and a demo
 * aggregator restarted simply forgets its sessions: the site launches again).
 *
 * A real-money round: the title draws the step, the stake goes to the operator as a bet, the win
 * as a win (also a win of nothing, so the operator knows the round paid), then round end. When a
 * bet's fate stays unknown it is rolled back by reference; a win or round end the operator could
 * not take is kept and sent again until it lands; a round left open (no action for
 * roundTimeoutMs) has its bets rolled back and is ended. Demo rounds play on the session's fun
 * balance and call no one.
 *
 * A player who reloads the game gets a new session (the site launches again): a real-money session
 * takes over the open round of the player's previous session of the same title and site, and
 * knows its last finished round, so the client resumes the hand or shows how it ended instead of
 * an empty table while the round waits for its timeout (issue 15, Three Card Poker).
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { PlayerTitle, Rng } from './title';
import { newTransactionId, type WalletClient, type WalletOutcome } from './wallet';

export type Mode = 'real' | 'demo';
export type Language = 'en' | 'it';

/** Fun money a demo session starts with: 1,000.00. */
export const DEMO_BALANCE_MINOR = 100_000n;

export interface Session {
  id: string;
  mode: Mode;
  titleId: string;
  language: Language;
  currency: string;
  returnUrl: string;
  /** The site the game is framed by (frame-ancestors). */
  siteOrigin: string;
  balanceMinor: bigint;
  createdAt: number;
  lastSeenAt: number;
  /** Real money only. */
  player?: { token: string; playerId: string; wallet: WalletClient };
  openRound?: OpenRound;
  /** The last round played to its end in this session (or the player's previous one of the title). */
  lastRound?: FinishedRound;
}

interface OpenRound {
  id: string;
  state: unknown;
  /** Bets taken in the round: rolled back when it cannot finish. */
  bets: { transactionId: string; amountMinor: bigint }[];
  sequence: number;
  lastActionAt: number;
  /** The last step's view: what a client that comes back draws. */
  view: unknown;
  /** What the round's steps so far took and paid. */
  stakedMinor: bigint;
  wonMinor: bigint;
}

/** A round played to its end, as a client that comes back shows it. */
export interface FinishedRound {
  id: string;
  view: unknown;
  stake: string;
  win: string;
}

export interface RoundAnswer {
  round: { id: string; done: boolean; view: unknown; stake: string; win: string };
  balance: string;
}

export type PlayErrorCode =
  | 'INVALID_INPUT'
  | 'INSUFFICIENT_FUNDS'
  | 'PLAYER_BLOCKED'
  | 'SESSION_EXPIRED'
  | 'ROUND_IN_PROGRESS'
  | 'ROUND_NOT_FOUND'
  | 'WALLET_UNAVAILABLE'
  | 'REFUSED';

export class PlayError extends Error {
  constructor(
    readonly code: PlayErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The operator's refusal as the client's error. */
export function refusalError(outcome: Extract<WalletOutcome, { kind: 'refused' }>): PlayError {
  if (outcome.code === 'INSUFFICIENT_FUNDS') return new PlayError('INSUFFICIENT_FUNDS', 'The balance does not cover the stake');
  if (outcome.code === 'PLAYER_BLOCKED') return new PlayError('PLAYER_BLOCKED', 'The operator does not let the player bet now');
  if (outcome.code === 'SESSION_EXPIRED' || outcome.code === 'SESSION_NOT_FOUND')
    return new PlayError('SESSION_EXPIRED', 'The game session has ended');
  return new PlayError('REFUSED', `The operator refused the bet (${outcome.code})`);
}

export interface SessionStoreOptions {
  titles: ReadonlyMap<string, PlayerTitle>;
  rng: Rng;
  roundTimeoutMs: number;
  sessionIdleMs: number;
  logger?: Pick<Logger, 'warn' | 'info'>;
  now?: () => number;
  /** The action played for a round left open, by title (tables: Three Card Poker folds); others are rolled back. */
  abandonedRoundActions?: Readonly<Record<string, unknown>>;
}

export function createSessionStore(options: SessionStoreOptions) {
  const now = options.now ?? Date.now;
  const sessions = new Map<string, Session>();
  /** Wallet requests that must land (wins, round ends, rollbacks), sent again by sweep(). */
  let pending: { describe: string; send: () => Promise<WalletOutcome> }[] = [];

  /** Sends now; a request not answered joins the pending list. */
  async function mustLand(describe: string, send: () => Promise<WalletOutcome>): Promise<WalletOutcome> {
    const outcome = await send();
    if (outcome.kind === 'unavailable') pending.push({ describe, send });
    else if (outcome.kind === 'refused') options.logger?.warn({ describe, code: outcome.code }, 'the operator refused a request');
    return outcome;
  }

  function rollbackBets(session: Session, roundId: string, bets: OpenRound['bets']): Promise<unknown> {
    const player = session.player!;
    return Promise.all(
      bets.map((bet) =>
        mustLand(`rollback ${bet.transactionId}`, () =>
          player.wallet.rollback({
            token: player.token,
            playerId: player.playerId,
            roundId,
            transactionId: `${bet.transactionId}-rb`,
            referenceTransactionId: bet.transactionId,
            amountMinor: bet.amountMinor,
            currency: session.currency,
          }),
        ),
      ),
    );
  }

  function endRound(session: Session, roundId: string): Promise<WalletOutcome> {
    const player = session.player!;
    return mustLand(`round end ${roundId}`, () =>
      player.wallet.roundEnd({ token: player.token, playerId: player.playerId, roundId }),
    );
  }

  /** Plays one step of a round: stake, win, and the round's end when it is done. */
  async function playStep(
    session: Session,
    round: OpenRound,
    step: NonNullable<ReturnType<PlayerTitle['start']>>,
  ): Promise<RoundAnswer> {
    // Kept on the round only once this step's money has moved (a refused bet leaves the round as it was).
    const progress = {
      view: step.view,
      stakedMinor: round.stakedMinor + step.stakeMinor,
      wonMinor: round.wonMinor + step.winMinor,
    };
    const finished = (): FinishedRound => ({
      id: round.id,
      view: step.view,
      stake: progress.stakedMinor.toString(),
      win: progress.wonMinor.toString(),
    });
    const answer = (balance: bigint): RoundAnswer => ({
      round: { id: round.id, done: step.done, view: step.view, stake: step.stakeMinor.toString(), win: step.winMinor.toString() },
      balance: balance.toString(),
    });
    if (session.mode === 'demo') {
      if (step.stakeMinor > session.balanceMinor)
        throw new PlayError('INSUFFICIENT_FUNDS', 'The balance does not cover the stake');
      session.balanceMinor += step.winMinor - step.stakeMinor;
      session.openRound = step.done ? undefined : { ...round, ...progress, state: step.state, lastActionAt: now() };
      if (step.done) session.lastRound = finished();
      return answer(session.balanceMinor);
    }

    const player = session.player!;
    const money = { token: player.token, playerId: player.playerId, roundId: round.id, currency: session.currency };
    if (step.stakeMinor > 0n) {
      const transactionId = `${round.id}-bet-${round.sequence++}`;
      const outcome = await player.wallet.bet({ ...money, transactionId, amountMinor: step.stakeMinor });
      if (outcome.kind === 'unavailable') {
        // The bet may have landed: it is rolled back, with the round's earlier bets.
        await rollbackBets(session, round.id, [...round.bets, { transactionId, amountMinor: step.stakeMinor }]);
        if (round.bets.length) await endRound(session, round.id);
        holderOf(session, round.id).openRound = undefined;
        throw new PlayError('WALLET_UNAVAILABLE', 'The casino could not be reached; the stake was returned');
      }
      if (outcome.kind === 'refused') {
        if (outcome.balanceMinor !== undefined) session.balanceMinor = outcome.balanceMinor;
        throw refusalError(outcome);
      }
      round.bets.push({ transactionId, amountMinor: step.stakeMinor });
      session.balanceMinor = outcome.balanceMinor;
    }
    if (step.winMinor > 0n || step.done) {
      const transactionId = `${round.id}-win-${round.sequence++}`;
      const outcome = await mustLand(`win ${transactionId}`, () =>
        player.wallet.win({ ...money, transactionId, amountMinor: step.winMinor }),
      );
      // A win still on its way shows in the balance the player sees: it will land.
      session.balanceMinor = outcome.kind === 'ok' ? outcome.balanceMinor : session.balanceMinor + step.winMinor;
    }
    const holder = holderOf(session, round.id);
    if (holder !== session) holder.balanceMinor = session.balanceMinor;
    if (step.done) {
      holder.openRound = undefined;
      holder.lastRound = finished();
      await endRound(session, round.id);
    } else holder.openRound = { ...round, ...progress, state: step.state, lastActionAt: now() };
    return answer(session.balanceMinor);
  }

  /** Plays a left round's documented closing action (a fold), when its title has one; true when that ended it. */
  async function finishAbandoned(session: Session, round: OpenRound): Promise<boolean> {
    const action = options.abandonedRoundActions?.[session.titleId];
    const title = options.titles.get(session.titleId);
    if (action === undefined || !title?.act) return false;
    const step = title.act(round.state, action, options.rng);
    if (!step?.done || step.stakeMinor !== 0n) return false;
    options.logger?.info({ round: round.id }, 'closing a round left open with its title’s closing action');
    await playStep(session, round, step);
    return true;
  }

  /** Rounds with an action under way (at the wallet): no second action, no timeout, until it is played. */
  const stepping = new Set<string>();

  /** The newest real-money session of each player, title and site (see resumeKey). */
  const newestOfPlayer = new Map<string, Session>();

  /** One player's sessions of one title on one operator site and currency: a reload's new session and the one it replaces. */
  const resumeKey = (session: Session) =>
    session.player && `${session.siteOrigin} ${session.currency} ${session.player.playerId} ${session.titleId}`;

  /**
   * A reload launches a new session: it takes the player's open round over from the previous
   * session (which can no longer act in it) and learns its last finished round.
   */
  function takeOverFromPrevious(created: Session): void {
    const key = resumeKey(created);
    if (!key) return;
    const previous = newestOfPlayer.get(key);
    newestOfPlayer.set(key, created);
    if (!previous) return;
    created.lastRound = previous.lastRound;
    // A round whose first step is still with the wallet stays where it is (it has nothing to show yet).
    if (previous.openRound?.view === undefined) return;
    created.openRound = previous.openRound;
    previous.openRound = undefined;
  }

  /** The session that holds the round now: a reload may have taken it over while the wallet answered. */
  function holderOf(session: Session, roundId: string): Session {
    const key = resumeKey(session);
    const newest = key ? newestOfPlayer.get(key) : undefined;
    return newest && newest !== session && newest.openRound?.id === roundId ? newest : session;
  }

  function forget(session: Session): void {
    sessions.delete(session.id);
    const key = resumeKey(session);
    if (key && newestOfPlayer.get(key) === session) newestOfPlayer.delete(key);
  }

  function titleOf(session: Session): PlayerTitle {
    const title = options.titles.get(session.titleId);
    if (!title) throw new PlayError('INVALID_INPUT', 'This session does not play a round-based title');
    return title;
  }

  return {
    open(session: Omit<Session, 'id' | 'createdAt' | 'lastSeenAt'>): Session {
      const created: Session = { ...session, id: randomBytes(24).toString('base64url'), createdAt: now(), lastSeenAt: now() };
      sessions.set(created.id, created);
      takeOverFromPrevious(created);
      return created;
    },

    get(id: string): Session | undefined {
      const session = sessions.get(id);
      if (session) session.lastSeenAt = now();
      return session;
    },

    /** The balance the player has now (the operator's, asked again, for real money). */
    async refreshBalance(session: Session): Promise<bigint> {
      if (!session.player) return session.balanceMinor;
      const outcome = await session.player.wallet.balance(session.player.token, session.player.playerId);
      if (outcome.kind === 'ok') session.balanceMinor = outcome.balanceMinor;
      return session.balanceMinor;
    },

    async start(session: Session, input: unknown): Promise<RoundAnswer> {
      const title = titleOf(session);
      if (session.openRound) throw new PlayError('ROUND_IN_PROGRESS', 'Finish the round in play first');
      const step = title.start(input, options.rng);
      if (!step) throw new PlayError('INVALID_INPUT', 'The stake or choice is not valid');
      const round: OpenRound = {
        id: newTransactionId('r'),
        state: undefined,
        bets: [],
        sequence: 0,
        lastActionAt: now(),
        view: undefined,
        stakedMinor: 0n,
        wonMinor: 0n,
      };
      // Claimed before the first await, so a second start on this session waits its turn.
      if (!step.done) session.openRound = round;
      stepping.add(round.id);
      try {
        return await playStep(session, round, step);
      } catch (error) {
        if (session.openRound === round && round.bets.length === 0) session.openRound = undefined;
        throw error;
      } finally {
        stepping.delete(round.id);
      }
    },

    async act(session: Session, roundId: string, input: unknown): Promise<RoundAnswer> {
      const title = titleOf(session);
      const round = session.openRound;
      if (!round || round.id !== roundId || !title.act) throw new PlayError('ROUND_NOT_FOUND', 'No such round in play');
      // One step at a time: a second action (a double click, a reloaded page) would play the round twice.
      if (stepping.has(round.id)) throw new PlayError('ROUND_IN_PROGRESS', 'The round’s last action is still being played');
      const step = title.act(round.state, input, options.rng);
      if (!step) throw new PlayError('INVALID_INPUT', 'That action is not possible now');
      stepping.add(round.id);
      try {
        return await playStep(session, round, step);
      } finally {
        stepping.delete(round.id);
      }
    },

    /** The open round's last view for a client that comes back (undefined while its first step is under way, or none). */
    openRoundOf(session: Session): { id: string; view: unknown } | undefined {
      const round = session.openRound;
      return round && round.view !== undefined ? { id: round.id, view: round.view } : undefined;
    },

    /** The last round played to its end, for a client that comes back after it. */
    lastRoundOf(session: Session): FinishedRound | undefined {
      return session.lastRound;
    },

    /**
     * Sends the pending requests again, rolls back rounds left open too long, and forgets idle
     * sessions. Runs on a timer in the process and at will in the tests.
     */
    async sweep(): Promise<void> {
      const retry = pending;
      pending = [];
      for (const request of retry) {
        const outcome = await request.send();
        if (outcome.kind === 'unavailable') pending.push(request);
      }
      const time = now();
      for (const session of sessions.values()) {
        const round = session.openRound;
        if (round && stepping.has(round.id)) continue;
        if (round && time - round.lastActionAt >= options.roundTimeoutMs && (await finishAbandoned(session, round))) continue;
        if (round && time - round.lastActionAt >= options.roundTimeoutMs) {
          session.openRound = undefined;
          if (session.player) {
            options.logger?.info({ round: round.id }, 'rolling back a round left open');
            await rollbackBets(session, round.id, round.bets);
            await endRound(session, round.id);
          }
        }
        if (!session.openRound && time - session.lastSeenAt >= options.sessionIdleMs) forget(session);
      }
    },

    /** A wallet request that must land (a live table's win or round end): sent now, kept and sent again until answered. */
    mustLand,
    /** Rolls bets back (a live table's bet whose fate is unknown). */
    rollback: (session: Session, roundId: string, bets: OpenRound['bets']) => rollbackBets(session, roundId, bets),
    refusalError,

    pendingCount: () => pending.length,
    sessionCount: () => sessions.size,
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
