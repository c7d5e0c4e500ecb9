/**
 * The seamless wallet external game providers call (issue 5 "External providers"; architecture
 * §5, §6; docs/provider-wallet.md).
 *
 * A game launch opens a provider session (token bound to player, game and currency). The
 * provider then authenticates, asks the balance, and sends bets, wins and rollbacks, each with
 * its own transaction id. Every money request is one database transaction: its row in
 * provider_transactions (unique per provider and id) and its ledger transfer
 * (`provider:{provider}:tx:{id}`) commit together or not at all, so:
 * - an exact replay finds the row and returns the first answer, moving nothing;
 * - the same id with another amount, round, player or kind is refused as a duplicate;
 * - a rollback naming a bet we never saw leaves a tombstone under that bet's id, so the late bet
 *   is refused; a rollback of a known bet reverses it once (`…:tx:{bet}:rollback`);
 * - a refused request (insufficient funds, expired session…) records nothing.
 * Bets: player main → house game; wins: house game → player main; rollbacks the reverse of the bet.
 * The provider did the bet's intake on its side; its money moves through the transfer half of the
 * round-intake core, so the hooks see provider bets as they see ours.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { invalidParameter as invalid } from '#common/parameter-errors';
import type { Database } from '../../db/client';
import type { CallSharingOptions } from '../../db/call-sharing';
import { inTransaction, type Executor } from '../../db/retry';
import type { GamesService } from '../games';
import { canonicalJson } from '#common/canonical-json';
import type { RoundIntake, RoundMoney } from '../round-intake';
import { IdempotencyConflictError, InsufficientFundsError, type WalletService } from '../wallet';
import { createSharedProviderMoney } from './shared-money';
import { amountJson, ProviderRefusal, type ProviderErrorCode, type ProviderOkAnswer, type ProviderRequest } from './protocol';
import type { ProviderConfig } from './providers';
import { providerRounds, providerSessions, providerTransactions, type ProviderTxKind } from './tables';

export interface ProviderWalletDeps {
  db: Database;
  wallet: WalletService;
  /** The round-intake core's transfer half: the bet, win and rollback transfers and their hooks. */
  intake: RoundIntake;
  games: Pick<GamesService, 'getGame'>;
  findUser: (uid: number) => Promise<{ siteId: string; status: string } | undefined>;
  activeExclusion: (uid: number) => Promise<unknown>;
  providers: readonly ProviderConfig[];
  /** How requests share calls (shared-money.ts): lanes and size; false plays each in its own transaction. */
  sharing?: Partial<CallSharingOptions> | false;
}

/** How long a launch's session takes new bets. */
export const PROVIDER_SESSION_TTL_MS = 4 * 60 * 60 * 1000;

/** Sessions a process remembers for bets and wins (their expiry is checked again by the database). */
const SESSION_CACHE_MAX_ENTRIES = 10_000;

type SessionRow = typeof providerSessions.$inferSelect;
type TxRow = typeof providerTransactions.$inferSelect;

export interface ProviderSession {
  token: string;
  provider: string;
  sessionId: number;
  currency: string;
  expiresAt: Date;
}

/** The transaction id was taken before: roll back and answer from the recorded row. */
class SeenBefore extends Error {}

const hashOf = (value: Record<string, unknown>) => createHash('sha256').update(canonicalJson(value)).digest('hex');

export function createProviderWalletService(deps: ProviderWalletDeps) {
  const { db, wallet, intake } = deps;
  const providers = new Map(deps.providers.map((config) => [config.name, config]));
  const sharedMoney = deps.sharing === false ? undefined : createSharedProviderMoney(db, wallet, deps.sharing);
  // A session's row never changes but for its expiry, which only moves earlier (a launch closed):
  // bets and wins take it from here, and provider_money reads the expiry again under the bet.
  const sessions = new Map<string, SessionRow>();

  async function balanceMinor(siteId: string, userId: number, currency: string, executor: Executor = db): Promise<bigint> {
    return (await wallet.balances(siteId, userId, currency, executor)).main;
  }

  /** The answer with the player's main balance: the one a transfer just read under its locks, or read now. */
  async function okAnswer(
    session: SessionRow,
    executor: Executor,
    extra: Record<string, unknown> = {},
    knownBalanceMinor?: bigint,
  ): Promise<ProviderOkAnswer> {
    const balance = knownBalanceMinor ?? (await balanceMinor(session.siteId, session.userId, session.currency, executor));
    return {
      status: 'OK',
      player_id: String(session.userId),
      currency: session.currency,
      balance: amountJson(balance),
      ...extra,
    };
  }

  /** The session of a token, for this provider and this site; any other is unknown. */
  async function requireSession(
    provider: string,
    siteId: string,
    token: string,
    playerId?: number,
    options: { isRemembered?: boolean } = {},
  ): Promise<SessionRow> {
    const session = (options.isRemembered && sessions.get(token)) || (await readSession(token));
    if (!session || session.provider !== provider || session.siteId !== siteId)
      throw new ProviderRefusal('SESSION_NOT_FOUND', 'Unknown session token');
    if (playerId !== undefined && playerId !== session.userId)
      throw new ProviderRefusal('PLAYER_MISMATCH', 'The player is not the session’s player');
    return session;
  }

  async function readSession(token: string): Promise<SessionRow | undefined> {
    const [session] = await db.select().from(providerSessions).where(eq(providerSessions.token, token)).limit(1);
    if (!session) return undefined;
    if (sessions.size >= SESSION_CACHE_MAX_ENTRIES) sessions.delete(sessions.keys().next().value!);
    sessions.set(token, session);
    return session;
  }

  function requireCurrency(session: SessionRow, currency: string): void {
    if (currency !== session.currency)
      throw new ProviderRefusal('CURRENCY_MISMATCH', `The session plays in ${session.currency}`, { field: 'currency' });
  }

  const withBalance = (session: SessionRow) => ({
    balanceOf: { siteId: session.siteId, userId: session.userId, currency: session.currency },
  });

  async function findTx(
    provider: string,
    txId: string,
    executor: Executor = db,
    isForUpdate = false,
  ): Promise<TxRow | undefined> {
    const query = executor
      .select()
      .from(providerTransactions)
      .where(and(eq(providerTransactions.provider, provider), eq(providerTransactions.txId, txId)))
      .limit(1);
    const [row] = isForUpdate ? await query.for('update') : await query;
    return row;
  }

  /** A transaction id seen before: the first answer for the same request, a refusal otherwise. */
  function replayOf(row: TxRow, kind: ProviderTxKind, requestHash: string, session: SessionRow): ProviderOkAnswer {
    if (row.status === 'tombstone') {
      if (kind === 'bet')
        throw new ProviderRefusal('TRANSACTION_ROLLED_BACK', 'This bet was rolled back before it arrived', withBalance(session));
      throw new ProviderRefusal('DUPLICATE_TRANSACTION', 'The transaction id was used for another request', withBalance(session));
    }
    if (row.kind !== kind || row.requestHash !== requestHash || !row.answer)
      throw new ProviderRefusal('DUPLICATE_TRANSACTION', 'The transaction id was used for another request', withBalance(session));
    return row.answer as ProviderOkAnswer;
  }

  /** Takes the transaction id inside the caller's transaction; a row found instead is a replay (or duplicate). */
  async function claimTx(
    tx: Executor,
    values: typeof providerTransactions.$inferInsert,
  ): Promise<{ id: number } | { existing: TxRow }> {
    const [claimed] = await tx
      .insert(providerTransactions)
      .values(values)
      .onConflictDoNothing()
      .returning({ id: providerTransactions.id });
    if (claimed) return claimed;
    const existing = await findTx(values.provider, values.txId, tx);
    if (!existing) throw new Error('provider transaction neither inserted nor found');
    return { existing };
  }

  /** `column + amount`, for a round's stake or payout that follows its money in the same transaction. */
  const plus = (column: typeof providerRounds.stakeMinor | typeof providerRounds.payoutMinor, amountMinor: bigint) =>
    sql`${column} + ${amountMinor.toString()}::bigint`;

  /** A provider round's money on the ledger: the session's player and currency, always real. */
  function roundMoney(session: SessionRow, provider: string, roundId: string): RoundMoney {
    return {
      path: 'provider',
      siteId: session.siteId,
      userId: session.userId,
      currency: session.currency,
      mode: 'real',
      sysname: session.sysname,
      reference: `provider:${provider}:round:${roundId}`,
      actor: `provider:${provider}`,
    };
  }

  /** A bet's or win's refusal for its round, funds or session: the same words whichever path found it. */
  function moneyRefusal(
    code: ProviderErrorCode,
    kind: 'bet' | 'win',
    session: SessionRow,
    roundCurrency?: string,
  ): ProviderRefusal {
    switch (code) {
      case 'ROUND_NOT_FOUND':
        return kind === 'bet'
          ? new ProviderRefusal(code, 'The round belongs to another player', { field: 'round_id' })
          : new ProviderRefusal(code, 'The player has no bet in this round', { field: 'round_id', ...withBalance(session) });
      case 'CURRENCY_MISMATCH':
        return new ProviderRefusal(code, `The round plays in ${roundCurrency}`, { field: 'currency' });
      case 'ROUND_ENDED':
        return new ProviderRefusal(code, 'The round has ended', withBalance(session));
      case 'SESSION_EXPIRED':
        return new ProviderRefusal(code, 'The game session has ended', withBalance(session));
      case 'INSUFFICIENT_FUNDS':
        return new ProviderRefusal(code, 'The balance does not cover the bet', withBalance(session));
      default:
        return new ProviderRefusal(code, 'The request was refused', withBalance(session));
    }
  }

  type MoneyRow = { kind: 'bet' | 'win'; txId: string; roundId: string; amountMinor: bigint; requestHash: string };
  type MoveMoney = (tx: Executor) => Promise<{ transferId: number; mainBalanceMinor?: bigint } | null>;

  /**
   * Applies a bet or win once: moves the money, reads the balance and records the transaction
   * with its answer, all in one database transaction: shared with other players' requests in one
   * statement (shared-money.ts) when no hook has to see the money, else in a transaction here
   * (moveMoney). When the transaction id was taken before (a retry, a duplicate, a twin sent at
   * the same time, a bet a rollback tombstoned), nothing is written and the recorded row decides
   * the answer. A twin waits on the round's or the ledger's locks or on the id's unique index
   * until the first commits.
   */
  async function applyOnce(
    provider: string,
    session: SessionRow,
    row: MoneyRow,
    round: RoundMoney,
    moveMoney: MoveMoney,
  ): Promise<ProviderOkAnswer> {
    try {
      const shared = sharedMoney && intake.canShareMoney(round) ? await applyShared(provider, session, row, round) : undefined;
      return shared ?? (await applyInTransaction(provider, session, row, moveMoney));
    } catch (error) {
      // A refusal (round ended since, balance spent since…) never hides the first answer of a replay.
      if (error instanceof ProviderRefusal)
        return refuseUnlessReplay(provider, row.txId, row.kind, row.requestHash, session, error);
      if (!(error instanceof SeenBefore || error instanceof IdempotencyConflictError)) throw error;
      const seen = await findTx(provider, row.txId);
      if (!seen)
        throw new ProviderRefusal(
          'DUPLICATE_TRANSACTION',
          'The transaction id was used for another request',
          withBalance(session),
        );
      return replayOf(seen, row.kind, row.requestHash, session);
    }
  }

  /** The request in a call shared with other players' (provider_money); undefined when that call failed as a whole. */
  async function applyShared(
    provider: string,
    session: SessionRow,
    row: MoneyRow,
    round: RoundMoney,
  ): Promise<ProviderOkAnswer | undefined> {
    const answer = { status: 'OK' as const, player_id: String(session.userId), currency: session.currency };
    const outcome = await sharedMoney!.apply({
      ...row,
      provider,
      sessionId: session.id,
      round,
      answer: { ...answer, transaction_id: row.txId },
    });
    switch (outcome.status) {
      case 'done':
        return { ...answer, balance: amountJson(outcome.balanceMinor), transaction_id: row.txId };
      case 'seen':
        throw new SeenBefore();
      case 'refused':
        throw moneyRefusal(outcome.code, row.kind, session, outcome.roundCurrency);
      case 'insufficient':
        throw moneyRefusal('INSUFFICIENT_FUNDS', row.kind, session);
      case 'alone':
        return undefined;
    }
  }

  async function applyInTransaction(
    provider: string,
    session: SessionRow,
    row: MoneyRow,
    moveMoney: MoveMoney,
  ): Promise<ProviderOkAnswer> {
    return inTransaction(db, async (tx) => {
      const moved = await moveMoney(tx);
      const transferId = moved?.transferId ?? null;
      const answer = await okAnswer(session, tx, { transaction_id: row.txId }, moved?.mainBalanceMinor);
      const [recorded] = await tx
        .insert(providerTransactions)
        .values({
          provider,
          ...row,
          status: 'applied',
          siteId: session.siteId,
          userId: session.userId,
          sessionId: session.id,
          currency: session.currency,
          transferId,
          answer,
        })
        .onConflictDoNothing()
        .returning({ id: providerTransactions.id });
      if (!recorded) throw new SeenBefore();
      return answer;
    });
  }

  /** A refusal, unless the request is a replay of one answered before: then the first answer. */
  async function refuseUnlessReplay(
    provider: string,
    txId: string,
    kind: ProviderTxKind,
    requestHash: string,
    session: SessionRow,
    refusal: ProviderRefusal,
  ): Promise<ProviderOkAnswer> {
    const seen = await findTx(provider, txId);
    if (seen) return replayOf(seen, kind, requestHash, session);
    throw refusal;
  }

  async function bet(provider: string, siteId: string, request: ProviderRequest<'bet'>): Promise<ProviderOkAnswer> {
    const remembered = await requireSession(provider, siteId, request.token, request.player_id, { isRemembered: true });
    const round = roundMoney(remembered, provider, request.round_id);
    // A launch closed in another process is not in the remembered row: provider_money reads the
    // expiry again under the bet; the transactional path reads the session now.
    const isShared = sharedMoney !== undefined && intake.canShareMoney(round);
    const session = isShared ? remembered : await requireSession(provider, siteId, request.token);
    requireCurrency(session, request.currency);
    const requestHash = hashOf({
      kind: 'bet',
      userId: session.userId,
      roundId: request.round_id,
      amount: request.amount,
      currency: request.currency,
    });
    if (session.expiresAt.getTime() <= Date.now()) {
      return refuseUnlessReplay(
        provider,
        request.transaction_id,
        'bet',
        requestHash,
        session,
        moneyRefusal('SESSION_EXPIRED', 'bet', session),
      );
    }
    const user = await deps.findUser(session.userId);
    if (!user || user.status !== 'active' || (await deps.activeExclusion(session.userId))) {
      return refuseUnlessReplay(
        provider,
        request.transaction_id,
        'bet',
        requestHash,
        session,
        new ProviderRefusal('PLAYER_BLOCKED', 'The player may not bet now', withBalance(session)),
      );
    }

    const row = {
      kind: 'bet' as const,
      txId: request.transaction_id,
      roundId: request.round_id,
      amountMinor: request.amount,
      requestHash,
    };
    return applyOnce(provider, session, row, round, async (tx) => {
      // Opens the round with this stake, or finds (and locks) it when an earlier bet opened it and
      // adds the stake: one statement either way. A refusal below rolls the addition back with the rest.
      const [opened] = await tx
        .insert(providerRounds)
        .values({
          provider,
          roundId: request.round_id,
          siteId: session.siteId,
          userId: session.userId,
          sessionId: session.id,
          currency: session.currency,
          stakeMinor: request.amount,
        })
        .onConflictDoUpdate({
          target: [providerRounds.provider, providerRounds.roundId],
          set: { stakeMinor: plus(providerRounds.stakeMinor, request.amount) },
        })
        .returning();
      if (!opened || opened.userId !== session.userId || opened.siteId !== session.siteId)
        throw moneyRefusal('ROUND_NOT_FOUND', 'bet', session);
      if (opened.currency !== session.currency) throw moneyRefusal('CURRENCY_MISMATCH', 'bet', session, opened.currency);
      if (opened.endedAt) throw moneyRefusal('ROUND_ENDED', 'bet', session);
      if (request.amount === 0n) return null;
      try {
        const result = await intake.stake(tx, round, {
          amountMinor: request.amount,
          idempotencyKey: `provider:${provider}:tx:${request.transaction_id}`,
        });
        if (result.isReplay) throw new SeenBefore();
        return result;
      } catch (error) {
        if (error instanceof InsufficientFundsError) throw moneyRefusal('INSUFFICIENT_FUNDS', 'bet', session);
        throw error;
      }
    });
  }

  async function win(provider: string, siteId: string, request: ProviderRequest<'win'>): Promise<ProviderOkAnswer> {
    const session = await requireSession(provider, siteId, request.token, request.player_id, { isRemembered: true });
    requireCurrency(session, request.currency);
    const requestHash = hashOf({
      kind: 'win',
      userId: session.userId,
      roundId: request.round_id,
      amount: request.amount,
      currency: request.currency,
    });

    // Session expiry does not matter here: a win of a round the player bet in is always paid.
    const row = {
      kind: 'win' as const,
      txId: request.transaction_id,
      roundId: request.round_id,
      amountMinor: request.amount,
      requestHash,
    };
    const round = roundMoney(session, provider, request.round_id);
    return applyOnce(provider, session, row, round, async (tx) => {
      // Finds the round and adds the payout in one statement; a refusal below rolls it back.
      const [paid] = await tx
        .update(providerRounds)
        .set({ payoutMinor: plus(providerRounds.payoutMinor, request.amount) })
        .where(and(eq(providerRounds.provider, provider), eq(providerRounds.roundId, request.round_id)))
        .returning();
      if (!paid || paid.userId !== session.userId || paid.siteId !== session.siteId)
        throw moneyRefusal('ROUND_NOT_FOUND', 'win', session);
      if (paid.currency !== session.currency) throw moneyRefusal('CURRENCY_MISMATCH', 'win', session, paid.currency);
      // A win of nothing moves no money; the hooks still hear the round paid nothing.
      const result = await intake.settle(tx, round, {
        amountMinor: request.amount,
        idempotencyKey: `provider:${provider}:tx:${request.transaction_id}`,
      });
      if (!result) return null;
      if (result.isReplay) throw new SeenBefore();
      return result;
    });
  }

  async function rollback(provider: string, siteId: string, request: ProviderRequest<'rollback'>): Promise<ProviderOkAnswer> {
    const session = await requireSession(provider, siteId, request.token, request.player_id);
    requireCurrency(session, request.currency);
    const requestHash = hashOf({
      kind: 'rollback',
      userId: session.userId,
      roundId: request.round_id,
      ref: request.reference_transaction_id,
      amount: request.amount ?? null,
      currency: request.currency,
    });
    const seen = await findTx(provider, request.transaction_id);
    if (seen) return replayOf(seen, 'rollback', requestHash, session);
    if (request.transaction_id === request.reference_transaction_id)
      throw new ProviderRefusal('INVALID_REQUEST', 'A rollback needs its own transaction id', { field: 'transaction_id' });

    return inTransaction(db, async (tx) => {
      const own = {
        provider,
        txId: request.transaction_id,
        kind: 'rollback' as const,
        status: 'applied' as const,
        siteId: session.siteId,
        userId: session.userId,
        sessionId: session.id,
        roundId: request.round_id,
        currency: session.currency,
        refTxId: request.reference_transaction_id,
        amountMinor: 0n,
        requestHash,
      };
      const claim = await claimTx(tx, own);
      if ('existing' in claim) return replayOf(claim.existing, 'rollback', requestHash, session);

      // The bet we never saw: its id is taken now, so when it arrives it is refused.
      const [tombstone] = await tx
        .insert(providerTransactions)
        .values({
          ...own,
          txId: request.reference_transaction_id,
          kind: 'bet',
          status: 'tombstone',
          refTxId: null,
          amountMinor: request.amount ?? 0n,
          requestHash: 'tombstone',
        })
        .onConflictDoNothing()
        .returning({ id: providerTransactions.id });

      let movedMinor = 0n;
      let transferId: number | null = null;
      let balanceAfterMinor: bigint | undefined;
      if (!tombstone) {
        const target = await findTx(provider, request.reference_transaction_id, tx, true);
        if (!target) throw new Error('rolled-back transaction neither inserted nor found');
        if (target.kind !== 'bet')
          throw new ProviderRefusal('ROLLBACK_NOT_ALLOWED', 'Only bets can be rolled back', {
            field: 'reference_transaction_id',
            ...withBalance(session),
          });
        const isSameBet =
          target.userId === session.userId &&
          target.siteId === session.siteId &&
          target.roundId === request.round_id &&
          target.currency === session.currency &&
          (request.amount === undefined || target.status === 'tombstone' || request.amount === target.amountMinor);
        if (!isSameBet)
          throw new ProviderRefusal('TRANSACTION_MISMATCH', 'The rollback does not match the bet', {
            field: 'reference_transaction_id',
            ...withBalance(session),
          });
        if (target.status === 'applied' && target.amountMinor > 0n) {
          const result = await intake.refund(tx, roundMoney(session, provider, request.round_id), {
            amountMinor: target.amountMinor,
            idempotencyKey: `provider:${provider}:tx:${target.txId}:rollback`,
          });
          movedMinor = target.amountMinor;
          transferId = result.transferId;
          balanceAfterMinor = result.mainBalanceMinor;
          await tx
            .update(providerRounds)
            .set({ stakeMinor: plus(providerRounds.stakeMinor, -target.amountMinor) })
            .where(and(eq(providerRounds.provider, provider), eq(providerRounds.roundId, target.roundId)));
        }
        // A bet rolled back or tombstoned already stays as it is: a bet is reversed once.
        if (target.status === 'applied')
          await tx.update(providerTransactions).set({ status: 'rolled_back' }).where(eq(providerTransactions.id, target.id));
      }
      const answer = await okAnswer(session, tx, { transaction_id: request.transaction_id }, balanceAfterMinor);
      await tx
        .update(providerTransactions)
        .set({ transferId, answer, amountMinor: movedMinor })
        .where(eq(providerTransactions.id, claim.id));
      return answer;
    });
  }

  return {
    /** The configured provider of that name, or undefined. */
    providerFor(name: string): ProviderConfig | undefined {
      return providers.get(name);
    },

    /**
     * The game launch: a session token for the provider of an external game, bound to the
     * player, the game and the currency. Throws InvalidParameterException naming sysname (no
     * such external game, or no provider serves it), currency (the provider does not play in
     * it) or uid (no such player on the site).
     */
    async openProviderSession(
      siteId: string,
      uid: number,
      sysname: string,
      currency: string,
      options: { ttlMs?: number } = {},
    ): Promise<ProviderSession> {
      const game = await deps.games.getGame(siteId, 'en', sysname);
      const config = game.is_in_house ? undefined : deps.providers.find((candidate) => candidate.studios.includes(game.provider));
      if (!config) throw invalid('sysname', 'The game’s provider is not available');
      if (!config.currencies.includes(currency)) throw invalid('currency');
      const user = await deps.findUser(uid);
      if (!user || user.siteId !== siteId) throw invalid('uid');
      const token = randomBytes(24).toString('base64url');
      const expiresAt = new Date(Date.now() + (options.ttlMs ?? PROVIDER_SESSION_TTL_MS));
      const [row] = await db
        .insert(providerSessions)
        .values({ token, provider: config.name, siteId, userId: uid, sysname, currency, expiresAt })
        .returning({ id: providerSessions.id });
      if (!row) throw new Error('the provider session could not be opened');
      return { token, provider: config.name, sessionId: row.id, currency, expiresAt };
    },

    /** Ends a session now (the player left the game): no new bets; wins and rollbacks still land. */
    async closeProviderSession(token: string): Promise<void> {
      sessions.delete(token);
      await db.update(providerSessions).set({ expiresAt: new Date() }).where(eq(providerSessions.token, token));
    },

    async authenticate(provider: string, siteId: string, request: ProviderRequest<'authenticate'>): Promise<ProviderOkAnswer> {
      const session = await requireSession(provider, siteId, request.token);
      if (session.expiresAt.getTime() <= Date.now()) throw new ProviderRefusal('SESSION_EXPIRED', 'The game session has ended');
      return okAnswer(session, db, { game: session.sysname, session_expires_at: session.expiresAt.toISOString() });
    },

    async balance(provider: string, siteId: string, request: ProviderRequest<'balance'>): Promise<ProviderOkAnswer> {
      return okAnswer(await requireSession(provider, siteId, request.token, request.player_id), db);
    },

    bet,
    win,
    rollback,

    /** The provider says the round is over: no more bets in it (wins and rollbacks still land). */
    async roundEnd(provider: string, siteId: string, request: ProviderRequest<'round-end'>): Promise<ProviderOkAnswer> {
      const session = await requireSession(provider, siteId, request.token, request.player_id);
      const [round] = await db
        .select()
        .from(providerRounds)
        .where(and(eq(providerRounds.provider, provider), eq(providerRounds.roundId, request.round_id)));
      if (!round || round.userId !== session.userId || round.siteId !== session.siteId)
        throw new ProviderRefusal('ROUND_NOT_FOUND', 'The player has no bet in this round', { field: 'round_id' });
      if (!round.endedAt) await db.update(providerRounds).set({ endedAt: new Date() }).where(eq(providerRounds.id, round.id));
      return okAnswer(session, db, { round_id: request.round_id });
    },

    /** The main balance a refusal reports, in minor units. */
    balanceMinor,

    /** Shared calls made, the requests they carried, and the calls that failed as a whole. */
    sharedMoneyStats: () => sharedMoney?.stats(),
    /** Holds the shared calls (call-sharing.ts hold): tests put requests side by side with it. */
    holdSharedMoney: () => sharedMoney?.hold(),
  };
}

export type ProviderWalletService = ReturnType<typeof createProviderWalletService>;
