/**
 * The wallet: the only way any module moves money (architecture §5). A transfer locks every
 * account it touches in id order, checks the postings, writes them and the cached balances and
 * an audit entry, all in one database transaction; an idempotency key makes a replay return the
 * first result and move nothing.
 */
import { and, asc, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { afterCommit, inTransaction, isTransaction, withRetry, type Executor } from '../../db/retry';
import { appendAudit, storedAndHashed } from './audit';
import {
  aloneOutcome,
  ledgerCallArguments,
  outcomeOf,
  writeBatch,
  type AloneOutcome,
  type CallOutcome,
  type LockedAccount,
  type PlannedTransfer,
} from './transfer-sql';
import { createTransferGroups } from './transfer-groups';
import { checkLegs, houseShard, requestHash, type AccountRef, type Leg } from './postings';
import { ledgerAccounts, ledgerPostings, ledgerTransfers, type HouseAccountType, type PlayerAccountType } from './tables';

export type { AccountRef, Leg } from './postings';

export interface TransferInput {
  siteId: string;
  /** The player the movement concerns (history, audit stream); absent for house-only moves. */
  userId?: number;
  kind: string;
  currency: string;
  /** The amount the player sees; postings carry the signs. */
  amountMinor: bigint;
  legs: Leg[];
  idempotencyKey?: string;
  reference?: string;
  /** Who caused it: `player:12`, `psp:sandbox`, `operator:alice`, `system`. */
  actor: string;
  reason: string;
}

export interface TransferResult {
  transferId: number;
  /** True when the key was seen before: nothing moved this time. */
  isReplay: boolean;
}

export interface TransferBatchResult {
  results: TransferResult[];
  /** The balances of the player accounts the batch touched, after it. */
  playerBalances: { userId: number; type: PlayerAccountType; balanceMinor: bigint }[];
}

export class LedgerError extends Error {}

/** A player account would go below zero. */
export class InsufficientFundsError extends LedgerError {
  constructor(readonly accountType: string) {
    super(`insufficient funds on ${accountType}`);
  }
}

/** The same idempotency key came with a different request: a duplicate, not a retry. */
export class IdempotencyConflictError extends LedgerError {
  constructor(readonly key: string) {
    super(`idempotency key ${key} was used for another request`);
  }
}

export type PlayerBalances = Record<PlayerAccountType, bigint>;

/** A player's balances before any account is opened: every one zero. */
const noBalances = (): PlayerBalances => ({ main: 0n, bonus: 0n, betting_bonus: 0n, fun: 0n, withdrawal_pending: 0n });

/**
 * Callers' batches of transfers planned for a module's own database function, which writes its
 * rows and calls ledger_write_batch with `arguments` (batch n is group n + 1), or with the groups
 * it keeps, in one statement (planLedgerCall, ledgerCallResults).
 */
export interface LedgerCall {
  readonly planned: readonly (readonly PlannedTransfer[])[];
  /** ledger_write_batch's arguments, in its order. */
  readonly arguments: SQL;
}

/** One caller's batch among several written in one call (ledgerCallResults): its results, or its refusal. */
export type GroupTransferResult =
  | ({ status: 'ok' } & TransferBatchResult)
  | { status: 'insufficient'; accountType: string }
  | { status: 'conflict'; key: string };

interface AccountIdentity {
  siteId: string;
  ownerKind: 'player' | 'house';
  userId: number;
  type: PlayerAccountType | HouseAccountType;
  currency: string;
  shard: number;
}

function identityOf(siteId: string, currency: string, ref: AccountRef, userId: number | undefined): AccountIdentity {
  if (ref.owner === 'player') return { siteId, ownerKind: 'player', userId: ref.userId, type: ref.type, currency, shard: 0 };
  return { siteId, ownerKind: 'house', userId: 0, type: ref.type, currency, shard: houseShard(ref.shardKey ?? userId ?? 0) };
}

const identityKey = (identity: AccountIdentity) =>
  `${identity.siteId}|${identity.ownerKind}|${identity.userId}|${identity.type}|${identity.currency}|${identity.shard}`;

function streamOf(input: TransferInput): string {
  return input.userId ? `player:${input.userId}` : `house:${input.siteId}`;
}

/** The audit entry of a transfer, its content hashed here; the database chains it (audit.ts version 2). */
function auditOf(input: TransferInput, accountIds: readonly number[], at: Date): PlannedTransfer['audit'] {
  const stream = streamOf(input);
  const action = `transfer.${input.kind}`;
  const { payload, contentHash } = storedAndHashed(
    { stream, at, actor: input.actor, action, reason: input.reason },
    {
      currency: input.currency,
      amountMinor: input.amountMinor,
      reference: input.reference ?? null,
      idempotencyKey: input.idempotencyKey ?? null,
      postings: input.legs.map((leg, index) => ({ accountId: accountIds[index], amountMinor: leg.amountMinor })),
    },
  );
  return { stream, action, payload, contentHash, at };
}

function plannedTransfer(input: TransferInput, accountIds: readonly number[], hash: string, at: Date): PlannedTransfer {
  return {
    siteId: input.siteId,
    userId: input.userId ?? null,
    kind: input.kind,
    currency: input.currency,
    amountMinor: input.amountMinor,
    idempotencyKey: input.idempotencyKey ?? null,
    requestHash: hash,
    reference: input.reference ?? null,
    actor: input.actor,
    reason: input.reason,
    postings: input.legs.map((leg, index) => ({ accountId: accountIds[index] ?? 0, amountMinor: leg.amountMinor })),
    audit: auditOf(input, accountIds, at),
  };
}

/** The players whose balances the written (not replayed) transfers changed. */
function playersWritten(
  planned: readonly PlannedTransfer[],
  written: readonly { isReplay: boolean }[],
  accounts: readonly LockedAccount[],
) {
  const deltas = new Map<number, bigint>();
  planned.forEach((transfer, index) => {
    if (written[index]?.isReplay !== false) return;
    for (const posting of transfer.postings)
      deltas.set(posting.accountId, (deltas.get(posting.accountId) ?? 0n) + posting.amountMinor);
  });
  const players = accounts.filter((account) => account.ownerKind === 'player' && deltas.get(account.id));
  return [...new Set(players.map((account) => account.userId))];
}

/** How far a transfer's id may stray from its time's place: longer than any transaction stays open. */
const ID_WINDOW_MARGIN_MS = 10 * 60_000;

/**
 * The first transfer id created at or after a moment (the next id when none is), by binary
 * search on the primary key: a handful of index lookups instead of a scan of the ledger.
 */
async function firstTransferIdFrom(executor: Executor, moment: Date): Promise<number> {
  const [last] = await executor
    .select({ id: sql<number>`coalesce(max(${ledgerTransfers.id}), 0)::bigint` })
    .from(ledgerTransfers);
  let low = 1;
  let high = Number(last?.id ?? 0) + 1;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const [row] = await executor
      .select({ id: ledgerTransfers.id, createdAt: ledgerTransfers.createdAt })
      .from(ledgerTransfers)
      .where(gte(ledgerTransfers.id, middle))
      .orderBy(asc(ledgerTransfers.id))
      .limit(1);
    if (!row || row.createdAt >= moment) high = middle;
    else low = row.id + 1;
  }
  return low;
}

export interface WalletOptions {
  /**
   * Told which players' balances a batch wrote, once it has committed: after the commit of the
   * caller's transaction (retry.ts afterCommit), else as soon as it is written. A process that
   * keeps balances in memory drops theirs (issue 12): dropped before the commit, a read in between
   * would keep the old balance. `isToldByDatabase` is false for the database functions that leave
   * telling the other processes to their caller (ledgerCallResults, migration 0031).
   */
  onPlayerBalancesWritten?: (userIds: readonly number[], how: { isToldByDatabase: boolean }) => void;
  /**
   * Group commit of transfers made outside a caller's transaction (transfer-groups.ts): calls in
   * flight at once, and transfers per call at most.
   */
  groupLanes?: number;
  groupMaxTransfers?: number;
}

/**
 * Two lanes: one call runs in the database while the next is prepared and its answer parsed
 * (bench:ledger: one lane gave the same throughput with less overlap, four gave smaller calls and
 * less throughput). Calls small enough to hold their locks briefly.
 */
const DEFAULT_GROUP_LANES = 2;
const DEFAULT_GROUP_MAX_TRANSFERS = 64;

export function createWalletService(db: Database, options: WalletOptions = {}) {
  // Account ids never change and rows are never deleted, so a process may remember them.
  const accountIds = new Map<string, number>();
  const openedIn = new WeakMap<Executor, Set<number>>();

  async function findAccountId(tx: Executor, identity: AccountIdentity): Promise<number | undefined> {
    const [row] = await tx
      .select({ id: ledgerAccounts.id })
      .from(ledgerAccounts)
      .where(
        and(
          eq(ledgerAccounts.siteId, identity.siteId),
          eq(ledgerAccounts.ownerKind, identity.ownerKind),
          eq(ledgerAccounts.userId, identity.userId),
          eq(ledgerAccounts.type, identity.type),
          eq(ledgerAccounts.currency, identity.currency),
          eq(ledgerAccounts.shard, identity.shard),
        ),
      );
    return row?.id;
  }

  /**
   * Finds or opens each account. Only ids read back as already existing are remembered: one
   * opened inside a transaction that later rolls back must not outlive it, nor may one this
   * transaction opened and then found again (a round's stake opens the house account, its
   * payout finds it): `opened` keeps what each transaction opened.
   */
  async function resolveAccountId(tx: Executor, identity: AccountIdentity): Promise<number> {
    const key = identityKey(identity);
    const openedHere = openedIn.get(tx);
    const known = accountIds.get(key) ?? (await findAccountId(tx, identity));
    if (known !== undefined) {
      if (!openedHere?.has(known)) accountIds.set(key, known);
      return known;
    }
    const [created] = await tx.insert(ledgerAccounts).values(identity).onConflictDoNothing().returning({ id: ledgerAccounts.id });
    const id = created?.id ?? (await findAccountId(tx, identity));
    if (id === undefined) throw new LedgerError('account could not be opened');
    // Outside a transaction the insert has committed already: the id may be remembered at once.
    if (created && isTransaction(tx)) openedIn.set(tx, (openedHere ?? new Set()).add(id));
    else if (created) accountIds.set(key, id);
    return id;
  }

  // Transfers made outside any transaction share calls with whatever else is waiting.
  const groups = createTransferGroups((planned) => withRetry(() => writeBatch(db, planned)), {
    lanes: options.groupLanes ?? DEFAULT_GROUP_LANES,
    maxTransfers: options.groupMaxTransfers ?? DEFAULT_GROUP_MAX_TRANSFERS,
  });

  /** Resolves each leg's account and hashes each transfer's request and audit content. */
  async function planTransfers(executor: Executor, inputs: readonly TransferInput[]): Promise<PlannedTransfer[]> {
    const keys = inputs.flatMap((input) => (input.idempotencyKey ? [input.idempotencyKey] : []));
    if (new Set(keys).size !== keys.length) throw new LedgerError('one idempotency key twice in a batch');
    const hashes = inputs.map((input) => {
      checkLegs(input.legs, input.amountMinor);
      return requestHash(input);
    });
    const at = new Date();
    const planned: PlannedTransfer[] = [];
    for (const [index, input] of inputs.entries()) {
      const ids: number[] = [];
      for (const leg of input.legs)
        ids.push(await resolveAccountId(executor, identityOf(input.siteId, input.currency, leg.account, input.userId)));
      planned.push(plannedTransfer(input, ids, hashes[index] ?? '', at));
    }
    return planned;
  }

  /** One group's answer as the caller meets it: its results, or the error of its refusal. */
  function settle(
    planned: readonly PlannedTransfer[],
    outcome: AloneOutcome,
    { executor = db as Executor, isToldByDatabase = true } = {},
  ): TransferBatchResult {
    if (outcome.status === 'insufficient') throw new InsufficientFundsError(outcome.type);
    if (outcome.status === 'conflict') throw new IdempotencyConflictError(outcome.key);
    if (outcome.status === 'missing') {
      // Never expected; should a remembered id be wrong all the same, forget them so the next attempt reads again.
      accountIds.clear();
      throw new LedgerError('an account of the transfer is missing');
    }
    const players = playersWritten(planned, outcome.transfers, outcome.accounts);
    const told = options.onPlayerBalancesWritten;
    if (players.length > 0 && told) afterCommit(executor, () => told(players, { isToldByDatabase }));
    return {
      results: outcome.transfers.map((transfer) => ({ transferId: transfer.id, isReplay: transfer.isReplay })),
      playerBalances: outcome.accounts
        .filter((account) => account.ownerKind === 'player')
        .map((account) => ({
          userId: account.userId,
          type: account.type as PlayerAccountType,
          balanceMinor: account.balanceMinor,
        })),
    };
  }

  /** Each group's answer of a call that carried several callers' batches; a refusal is an answer, not an error. */
  function groupResults(planned: readonly (readonly PlannedTransfer[])[], outcome: CallOutcome): GroupTransferResult[] {
    return (outcome.status === 'ok' ? outcome.groups : planned.map(() => outcome)).map((group, index) => {
      if (group.status === 'insufficient') return { status: 'insufficient', accountType: group.type };
      if (group.status === 'conflict') return { status: 'conflict', key: group.key };
      // Written by play_rounds or provider_money, which leave telling other processes to their caller.
      return { status: 'ok', ...settle(planned[index]!, group, { isToldByDatabase: false }) };
    });
  }

  /**
   * Writes a batch of transfers in one call to the database (ledger_write_batch, transfer-sql.ts),
   * whatever the batch's size (issue 12: a round's stake and payout used to cost eight round
   * trips, then five). Each transfer keeps its own key, postings and audit entry; a transfer whose
   * key was applied before returns its first result and moves nothing; all or none are written.
   * In a caller's transaction the call joins it; alone, it is grouped with other callers' batches
   * (transfer-groups.ts) and retried on serialization failures, deadlocks and a twin's key.
   */
  async function transferBatch(executor: Executor, inputs: readonly TransferInput[]): Promise<TransferBatchResult> {
    if (inputs.length === 0) return { results: [], playerBalances: [] };
    const planned = await planTransfers(executor, inputs);
    if (isTransaction(executor)) return settle(planned, aloneOutcome(await writeBatch(executor, [planned])), { executor });
    if (executor !== db) return settle(planned, aloneOutcome(await withRetry(() => writeBatch(executor, [planned]))));
    return settle(planned, await groups.write(planned));
  }

  return {
    /**
     * Moves money, in one call to the database: alone (retried on serialization failures,
     * deadlocks and a twin's key) or, given a caller's transaction, inside it so the caller's own
     * writes commit with the money or not at all.
     */
    async transfer(input: TransferInput, executor: Executor = db): Promise<TransferResult> {
      const { results } = await transferBatch(executor, [input]);
      const [result] = results;
      if (!result) throw new LedgerError('transfer could not be recorded');
      return result;
    },

    /**
     * Moves several transfers in one call (a round's stake and payout): all of them or none.
     * Returns each transfer's result and the player balances the batch touched, as they are
     * after it (read under its locks, so no statement more).
     */
    transferAll(inputs: readonly TransferInput[], executor: Executor = db): Promise<TransferBatchResult> {
      return transferBatch(executor, inputs);
    },

    /**
     * Plans callers' batches (their accounts resolved, their requests and audit content hashed)
     * for a module's own database function that calls ledger_write_batch with `arguments`, batch
     * n as group n + 1, in the statement that writes the module's rows (issue 12: providers' bets
     * and wins, several players' in one statement). An empty batch is a group without transfers.
     */
    async planLedgerCall(batches: readonly (readonly TransferInput[])[]): Promise<LedgerCall> {
      const planned: PlannedTransfer[][] = [];
      for (const inputs of batches) planned.push(await planTransfers(db, inputs));
      return { planned, arguments: ledgerCallArguments(planned) };
    },

    /**
     * What ledger_write_batch answered inside that function, for the batches (indexes into the
     * call's) it carried, in order, each its results or its refusal; the function wrote nothing
     * of a refused batch.
     */
    ledgerCallResults(call: LedgerCall, answered: unknown, carried: readonly number[]): GroupTransferResult[] {
      const planned = carried.map((index) => call.planned[index]!);
      return groupResults(planned, outcomeOf(planned, answered));
    },

    /** Group commit's calls and the callers' batches they carried (bench:ledger prints them). */
    groupCommitStats: () => groups.stats(),

    /** A player's balances in one currency; accounts not yet opened read as zero. */
    async balances(siteId: string, userId: number, currency: string, executor: Executor = db): Promise<PlayerBalances> {
      const rows = await executor
        .select({ type: ledgerAccounts.type, balanceMinor: ledgerAccounts.balanceMinor })
        .from(ledgerAccounts)
        .where(
          and(
            eq(ledgerAccounts.siteId, siteId),
            eq(ledgerAccounts.ownerKind, 'player'),
            eq(ledgerAccounts.userId, userId),
            eq(ledgerAccounts.currency, currency),
          ),
        );
      const balances = noBalances();
      for (const row of rows) balances[row.type as PlayerAccountType] = row.balanceMinor;
      return balances;
    },

    /**
     * The balances of several players of one site, each in their currency, in one statement
     * (shared-balances.ts: the page requests that arrive together read them at once).
     */
    async balancesOfPlayers(siteId: string, players: readonly { userId: number; currency: string }[]): Promise<PlayerBalances[]> {
      const rows = await db
        .select({
          userId: ledgerAccounts.userId,
          currency: ledgerAccounts.currency,
          type: ledgerAccounts.type,
          balanceMinor: ledgerAccounts.balanceMinor,
        })
        .from(ledgerAccounts)
        .where(
          and(
            eq(ledgerAccounts.siteId, siteId),
            eq(ledgerAccounts.ownerKind, 'player'),
            inArray(ledgerAccounts.userId, [...new Set(players.map((one) => one.userId))]),
          ),
        );
      return players.map(({ userId, currency }) => {
        const balances = noBalances();
        for (const row of rows) {
          if (row.userId === userId && row.currency === currency) balances[row.type as PlayerAccountType] = row.balanceMinor;
        }
        return balances;
      });
    },

    /** The currencies a player holds accounts in. */
    async currenciesOf(siteId: string, userId: number): Promise<string[]> {
      const rows = await db
        .selectDistinct({ currency: ledgerAccounts.currency })
        .from(ledgerAccounts)
        .where(and(eq(ledgerAccounts.siteId, siteId), eq(ledgerAccounts.ownerKind, 'player'), eq(ledgerAccounts.userId, userId)));
      return rows.map((row) => row.currency);
    },

    /** A player's transfers whose kind starts with a prefix (bonus, cashback), newest first. */
    async history(siteId: string, userId: number, kindPrefix: string, offset: number, count: number) {
      const where = and(
        eq(ledgerTransfers.siteId, siteId),
        eq(ledgerTransfers.userId, userId),
        sql`${ledgerTransfers.kind} LIKE ${`${kindPrefix}%`}`,
      );
      const rows = await db
        .select()
        .from(ledgerTransfers)
        .where(where)
        .orderBy(desc(ledgerTransfers.id))
        .offset(offset)
        .limit(count);
      const [total] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(ledgerTransfers)
        .where(where);
      return { rows, total: total?.n ?? 0 };
    },

    /**
     * A player's real-money play since a moment (responsible gaming's net position): what game
     * transfers took from and paid into the player's cash and bonus accounts in one currency:
     * in-house and live rounds (`game_…`), external providers' bets, wins and rollbacks
     * (`provider_…`), sports tickets (`sport_…`, issue 14: net position as for casino) and free spin wins (`freespin_win`, `bonus_freespin_win`; their stake is the
     * house's, so it never touches the player's accounts).
     */
    async playSince(
      siteId: string,
      userId: number,
      currency: string,
      since: Date,
    ): Promise<{ stakedMinor: bigint; returnedMinor: bigint; transfers: number }> {
      const [row] = await db
        .select({
          staked: sql<string>`coalesce(sum(case when ${ledgerPostings.amountMinor} < 0 then -${ledgerPostings.amountMinor} else 0 end), 0)::text`,
          returned: sql<string>`coalesce(sum(case when ${ledgerPostings.amountMinor} > 0 then ${ledgerPostings.amountMinor} else 0 end), 0)::text`,
          transfers: sql<number>`count(distinct ${ledgerTransfers.id})::int`,
        })
        .from(ledgerPostings)
        .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerPostings.transferId))
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
        .where(
          and(
            eq(ledgerTransfers.siteId, siteId),
            eq(ledgerTransfers.userId, userId),
            gte(ledgerTransfers.createdAt, since),
            sql`(left(${ledgerTransfers.kind}, 5) = 'game_' OR left(${ledgerTransfers.kind}, 9) = 'provider_' OR left(${ledgerTransfers.kind}, 6) = 'sport_' OR ${ledgerTransfers.kind} IN ('freespin_win', 'bonus_freespin_win'))`,
            eq(ledgerAccounts.ownerKind, 'player'),
            eq(ledgerAccounts.userId, userId),
            inArray(ledgerAccounts.type, ['main', 'bonus']),
            eq(ledgerAccounts.currency, currency),
          ),
        );
      return {
        stakedMinor: BigInt(row?.staked ?? '0'),
        returnedMinor: BigInt(row?.returned ?? '0'),
        transfers: row?.transfers ?? 0,
      };
    },

    /**
     * Real-money stakes after a transfer id, oldest first, for loyalty accrual: per game bet
     * (in-house, live, external provider) what it took from the player's cash and bonus
     * accounts, and per provider rollback what it gave back, as a negative stake. Only transfers
     * older than `settledBeforeMs` are read: ids are drawn when a transaction starts but become
     * visible when it commits, so a reader that followed ids right up to now could step past a
     * transfer whose transaction was still open. The bound is inclusive: the embedded database's
     * clock counts whole milliseconds, so with no settling time a transfer committed in the
     * millisecond the reader's transaction started carries the reader's own now().
     */
    async stakesAfter(afterTransferId: number, options: { limit: number; settledBeforeMs: number }, executor: Executor = db) {
      const playerTakes = sql<string>`(-coalesce(sum(${ledgerPostings.amountMinor}) filter (where ${ledgerAccounts.ownerKind} = 'player' and ${ledgerAccounts.type} in ('main', 'bonus')), 0))::text`;
      const rows = await executor
        .select({
          transferId: ledgerTransfers.id,
          siteId: ledgerTransfers.siteId,
          userId: ledgerTransfers.userId,
          currency: ledgerTransfers.currency,
          stakedMinor: playerTakes,
        })
        .from(ledgerTransfers)
        .innerJoin(ledgerPostings, eq(ledgerPostings.transferId, ledgerTransfers.id))
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
        .where(
          and(
            sql`${ledgerTransfers.id} > ${afterTransferId}`,
            inArray(ledgerTransfers.kind, ['game_bet', 'provider_bet', 'provider_rollback']),
            sql`${ledgerTransfers.createdAt} <= now() - make_interval(secs => ${options.settledBeforeMs / 1000})`,
          ),
        )
        .groupBy(ledgerTransfers.id)
        .orderBy(asc(ledgerTransfers.id))
        .limit(options.limit);
      return rows.map((row) => ({ ...row, stakedMinor: BigInt(row.stakedMinor) }));
    },

    /**
     * Each player's real-money play on a site over [from, to) (cashback's net loss): per player
     * and currency, what play transfers (in-house and live `game_…`, external `provider_…`, free
     * spin wins paid as cash) took from and paid into the player's main account. Bonus money is
     * left out: a loss of bonus money is no loss of the player's own. The transfer ids of the
     * window are found first (ids follow time closely; the margin covers transactions that were
     * open across a bound), so the read walks the primary key instead of the whole ledger.
     */
    async realMoneyPlayBetween(siteId: string, from: Date, to: Date, executor: Executor = db) {
      const lowId = await firstTransferIdFrom(executor, new Date(from.getTime() - ID_WINDOW_MARGIN_MS));
      const highId = await firstTransferIdFrom(executor, new Date(to.getTime() + ID_WINDOW_MARGIN_MS));
      if (highId <= lowId) return [];
      const rows = await executor
        .select({
          userId: ledgerTransfers.userId,
          currency: ledgerTransfers.currency,
          staked: sql<string>`coalesce(sum(-${ledgerPostings.amountMinor}) filter (where ${ledgerPostings.amountMinor} < 0), 0)::text`,
          returned: sql<string>`coalesce(sum(${ledgerPostings.amountMinor}) filter (where ${ledgerPostings.amountMinor} > 0), 0)::text`,
        })
        .from(ledgerTransfers)
        .innerJoin(ledgerPostings, eq(ledgerPostings.transferId, ledgerTransfers.id))
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
        .where(
          and(
            gte(ledgerTransfers.id, lowId),
            sql`${ledgerTransfers.id} < ${highId}`,
            eq(ledgerTransfers.siteId, siteId),
            gte(ledgerTransfers.createdAt, from),
            sql`${ledgerTransfers.createdAt} < ${to.toISOString()}`,
            sql`(left(${ledgerTransfers.kind}, 5) = 'game_' OR left(${ledgerTransfers.kind}, 9) = 'provider_' OR ${ledgerTransfers.kind} = 'freespin_win')`,
            eq(ledgerAccounts.ownerKind, 'player'),
            eq(ledgerAccounts.type, 'main'),
            sql`${ledgerAccounts.userId} = ${ledgerTransfers.userId}`,
          ),
        )
        .groupBy(ledgerTransfers.userId, ledgerTransfers.currency)
        .orderBy(asc(ledgerTransfers.userId), asc(ledgerTransfers.currency));
      return rows.flatMap((row) =>
        row.userId === null
          ? []
          : [
              {
                userId: row.userId,
                currency: row.currency,
                stakedMinor: BigInt(row.staked),
                returnedMinor: BigInt(row.returned),
              },
            ],
      );
    },

    /** Records an operator's or the system's action that moves no money (a decision, a setting). */
    recordAction(
      entry: { stream: string; actor: string; action: string; subject: string; reason: string; payload: Record<string, unknown> },
      executor: Executor = db,
    ): Promise<void> {
      return inTransaction(executor, (tx) => appendAudit(tx, entry));
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
