/**
 * Real-money one-request rounds of several players in one transaction (issue 12; the queue is
 * db/call-sharing.ts). A call costs three statements whatever its size:
 *   1. every owner's active seed pair locked in id order, with whether a casino bonus is wagered
 *      and a round id drawn for each;
 *   2. the rounds, written settled with their nonces advanced: a request id its owner played
 *      before is found here, by the request's unique index, and that round is not written;
 *   3. one ledger call carrying each written round's stake and payout as a group of its own (all
 *      or nothing per round). A stake above its balance refuses that round only: its row and
 *      nonce are taken back in the same transaction (a fourth statement, only then).
 * Each round is written exactly as the single path (service.ts play) writes it: the same columns,
 * transfers, keys and audit entries. A round this path does not take — the owner's first round
 * (no seed yet), a request id played before, a wagered bonus, hooks attached — is answered
 * `alone` and plays the single path, as is every round of a call that failed as a whole (its
 * transaction wrote nothing), so one round's fault never becomes another's.
 */
import { sql } from 'drizzle-orm';
import { money } from '#common/money';
import type { PlayResult } from '#common/contract';
import type { Database } from '../../db/client';
import { parsedJson } from '../../db/json-value';
import { pgArray, type ArrayItem } from '../../db/pg-array';
import { inTransaction, type Transaction } from '../../db/retry';
import { hasWageredBonusSql } from '../bonuses';
import { ownerKeyOf, type Gambler, type RoundIntake, type RoundMoney } from '../round-intake';
import type { PreparedBet } from './engines';
import { outcomeJson } from './engines';
import { createCallSharing, type CallSharingOptions } from '../../db/call-sharing';
import { fairSeeds, gameRounds } from './tables';

/** A real-money round the intake admitted, ready to be played on its owner's seed. */
export interface SharedRound {
  who: Gambler;
  sysname: string;
  engine: string;
  gameType: string;
  currency: string;
  prepared: PreparedBet;
  requestId: string;
  requestHash: string;
}

export type SharedRoundAnswer =
  | { status: 'played'; result: PlayResult }
  | { status: 'insufficient' }
  /** Not for this path: play it the single way. */
  | { status: 'alone' };

interface LockedSeed {
  item: number;
  seedId: number;
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
  roundId: number;
  hasWageredBonus: boolean;
}

type RoundRow = typeof gameRounds.$inferSelect;

/** Locks the owners' active seed pairs in id order (the lock every round and rotation of an owner queues on). */
async function lockSeeds(tx: Transaction, rounds: readonly SharedRound[]): Promise<LockedSeed[]> {
  const result = await tx.execute(sql`
    SELECT q.item::int AS item, s.id::text AS seed_id, s.server_seed, s.server_seed_hash, s.client_seed,
      s.next_nonce AS nonce, nextval('game_rounds_id_seq')::text AS round_id,
      ${hasWageredBonusSql(sql`s.site_id`, sql`s.user_id`)} AS has_wagered_bonus
    FROM unnest(${pgArray(rounds.map((round) => round.who.siteId))}::text[],
      ${pgArray(rounds.map((round) => ownerKeyOf(round.who)))}::text[]) WITH ORDINALITY AS q(site_id, owner_key, item)
    JOIN ${fairSeeds} s ON s.site_id = q.site_id AND s.owner_key = q.owner_key AND s.revealed_at IS NULL
    ORDER BY s.id
    FOR UPDATE OF s`);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  return rows.map((row) => ({
    item: Number(row.item) - 1,
    seedId: Number(row.seed_id),
    serverSeed: String(row.server_seed),
    serverSeedHash: String(row.server_seed_hash),
    clientSeed: String(row.client_seed),
    nonce: Number(row.nonce),
    roundId: Number(row.round_id),
    hasWageredBonus: row.has_wagered_bonus === true,
  }));
}

interface PlayedRound {
  seed: LockedSeed;
  round: SharedRound;
  payoutMinor: bigint;
  outcome: unknown;
}

/**
 * Writes the rounds settled and advances their seeds' nonces, in one statement whose text never
 * changes (prepared once, whatever the call's size): the same columns the single path writes. A
 * round whose request id its owner played before is not written (the request's unique index
 * decides, whatever the planner's statistics) and its nonce stays; the caller learns which were.
 * Each owner is once in a call, so +1 is each written seed's next nonce.
 */
async function insertRounds(tx: Transaction, taken: readonly PlayedRound[]): Promise<RoundRow[]> {
  const column = (pick: (entry: PlayedRound) => ArrayItem) => pgArray(taken.map(pick));
  const settledAt = new Date();
  const result = await tx.execute(sql`
    WITH inserted AS (
      INSERT INTO ${gameRounds} (id, site_id, owner_key, user_id, sysname, engine, mode, currency, stake_minor, payout_minor,
        seed_id, server_seed_hash, client_seed, nonce, bet, outcome, status, request_key, request_hash, settled_at)
      SELECT r.id, r.site_id, r.owner_key, r.user_id, r.sysname, r.engine, 'real', r.currency, r.stake_minor, r.payout_minor,
        r.seed_id, r.server_seed_hash, r.client_seed, r.nonce, r.bet, r.outcome, 'settled', r.request_key, r.request_hash,
        ${settledAt.toISOString()}::timestamptz
    FROM unnest(${column(({ seed }) => seed.roundId)}::bigint[], ${column(({ round }) => round.who.siteId)}::text[],
      ${column(({ round }) => ownerKeyOf(round.who))}::text[], ${column(({ round }) => round.who.uid)}::bigint[],
      ${column(({ round }) => round.sysname)}::text[], ${column(({ round }) => round.engine)}::text[],
      ${column(({ round }) => round.currency)}::text[], ${column(({ round }) => round.prepared.stakeMinor)}::bigint[],
      ${column(({ payoutMinor }) => payoutMinor)}::bigint[], ${column(({ seed }) => seed.seedId)}::bigint[],
      ${column(({ seed }) => seed.serverSeedHash)}::text[], ${column(({ seed }) => seed.clientSeed)}::text[],
      ${column(({ seed }) => seed.nonce)}::int[], ${column(({ round }) => JSON.stringify(round.prepared.normal))}::jsonb[],
      ${column(({ outcome }) => JSON.stringify(outcome))}::jsonb[], ${column(({ round }) => round.requestId)}::text[],
      ${column(({ round }) => round.requestHash)}::text[])
      AS r(id, site_id, owner_key, user_id, sysname, engine, currency, stake_minor, payout_minor, seed_id, server_seed_hash,
        client_seed, nonce, bet, outcome, request_key, request_hash)
      ON CONFLICT (site_id, owner_key, request_key) DO NOTHING
      RETURNING id, seed_id, bet, outcome, created_at
    ), advance_nonces AS (
      UPDATE ${fairSeeds} SET next_nonce = next_nonce + 1 WHERE id IN (SELECT seed_id FROM inserted) RETURNING id
    )
    SELECT id::text AS id, bet, outcome, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms FROM inserted`);
  const written = (result as unknown as { rows: { id: string; bet: unknown; outcome: unknown; created_ms: number | string }[] })
    .rows;
  const entryOf = new Map(taken.map((entry) => [entry.seed.roundId, entry]));
  return written.map((row): RoundRow => {
    const { seed, round, payoutMinor } = entryOf.get(Number(row.id))!;
    return {
      id: seed.roundId,
      siteId: round.who.siteId,
      ownerKey: ownerKeyOf(round.who),
      userId: round.who.uid,
      visitorId: null,
      sysname: round.sysname,
      engine: round.engine,
      mode: 'real',
      currency: round.currency,
      stakeMinor: round.prepared.stakeMinor,
      payoutMinor,
      seedId: seed.seedId,
      serverSeedHash: seed.serverSeedHash,
      clientSeed: seed.clientSeed,
      nonce: seed.nonce,
      // As the database stores them (jsonb orders keys its own way), so the answer is the one a read gives.
      bet: parsedJson(row.bet),
      outcome: parsedJson(row.outcome),
      state: null,
      status: 'settled',
      requestKey: round.requestId,
      requestHash: round.requestHash,
      createdAt: new Date(Number(row.created_ms)),
      settledAt,
    };
  });
}

/**
 * Takes back, inside the call's transaction, rounds written before the ledger refused their stake:
 * the rows go and their seeds' nonces step back, so nothing of such a round is ever committed.
 */
async function removeRounds(tx: Transaction, roundIds: readonly number[]): Promise<void> {
  await tx.execute(sql`
    WITH removed AS (DELETE FROM ${gameRounds} WHERE id = ANY(${pgArray(roundIds)}::bigint[]) RETURNING seed_id)
    UPDATE ${fairSeeds} SET next_nonce = next_nonce - 1 WHERE id IN (SELECT seed_id FROM removed)`);
}

function roundMoneyOf(round: SharedRound, roundId: number): RoundMoney {
  return {
    path: 'single-request',
    siteId: round.who.siteId,
    userId: round.who.uid,
    currency: round.currency,
    mode: 'real',
    sysname: round.sysname,
    gameType: round.gameType,
    reference: `round:${roundId}`,
    actor: `player:${round.who.uid}`,
    hasWageredBonus: false,
  };
}

export interface SharedRoundsDeps {
  db: Database;
  intake: RoundIntake;
  roundView: (row: RoundRow) => PlayResult['round'];
  options?: Partial<CallSharingOptions>;
}

/** Two lanes, as the wallet's group commit: one call in the database while the next gathers. */
const DEFAULT_OPTIONS: CallSharingOptions = { lanes: 2, maxItems: 32 };

export function createSharedRounds(deps: SharedRoundsDeps) {
  const { db, intake } = deps;
  // Calls whose transaction failed as a whole (their rounds then played alone): none is expected.
  let failedCalls = 0;

  async function playTogether(tx: Transaction, rounds: readonly SharedRound[]): Promise<SharedRoundAnswer[]> {
    const answers: SharedRoundAnswer[] = rounds.map(() => ({ status: 'alone' }));
    const playing = (await lockSeeds(tx, rounds)).flatMap((seed) => {
      const round = rounds[seed.item]!;
      const roundMoney = roundMoneyOf(round, seed.roundId);
      if (seed.hasWageredBonus || !intake.canShareMoney(roundMoney)) return [];
      const played = round.prepared.play({ serverSeed: seed.serverSeed, clientSeed: seed.clientSeed, nonce: seed.nonce });
      return [{ seed, round, roundMoney, payoutMinor: played.payoutMinor, outcome: outcomeJson(played.outcome) }];
    });
    if (playing.length === 0) return answers;
    // Written first: a request id played before is found by the insert itself, and that round plays alone.
    const rowOf = new Map((await insertRounds(tx, playing)).map((row) => [row.id, row]));
    const written = playing.filter(({ seed }) => rowOf.has(seed.roundId));
    if (written.length === 0) return answers;
    const moved = await intake.stakeAndSettleShared(
      tx,
      written.map(({ seed, round, roundMoney, payoutMinor }) => ({
        round: roundMoney,
        stake: { amountMinor: round.prepared.stakeMinor, idempotencyKey: `round:${seed.roundId}:bet` },
        payout: { amountMinor: payoutMinor, idempotencyKey: `round:${seed.roundId}:win` },
      })),
    );
    const refused = written.filter((_, index) => moved[index]!.status === 'insufficient');
    if (refused.length > 0)
      await removeRounds(
        tx,
        refused.map(({ seed }) => seed.roundId),
      );
    written.forEach(({ seed, round }, index) => {
      const outcome = moved[index]!;
      answers[seed.item] =
        outcome.status === 'insufficient'
          ? { status: 'insufficient' }
          : {
              status: 'played',
              result: {
                round: deps.roundView(rowOf.get(seed.roundId)!),
                is_replay: false,
                balance: money(outcome.balanceMinor, round.currency),
              },
            };
    });
    return answers;
  }

  const sharing = createCallSharing<SharedRound, SharedRoundAnswer>(
    async (rounds) => {
      try {
        return await inTransaction(db, (tx) => playTogether(tx, rounds));
      } catch {
        // The transaction wrote nothing: each round plays the single way, which answers its own error.
        failedCalls++;
        return rounds.map(() => ({ status: 'alone' }) as const);
      }
    },
    (round) => `${round.who.siteId}|${ownerKeyOf(round.who)}`,
    { ...DEFAULT_OPTIONS, ...deps.options },
  );

  return {
    play: (round: SharedRound): Promise<SharedRoundAnswer> => sharing.submit(round),
    /** Calls made, the rounds they carried, and the calls that failed as a whole. */
    stats: () => ({ ...sharing.stats(), failedCalls }),
  };
}

export type SharedRounds = ReturnType<typeof createSharedRounds>;
