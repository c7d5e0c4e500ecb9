/**
 * Real-money one-request rounds of several players in one transaction (issue 12; the queue is
 * round-sharing.ts). A call costs three statements whatever its size:
 *   1. every owner's active seed pair locked in id order, with whether the request id was played
 *      before, whether a casino bonus is wagered, and a round id drawn for each;
 *   2. one ledger call carrying each round's stake and payout as a group of its own (all or
 *      nothing per round: a stake above its balance refuses that round only);
 *   3. the rounds the ledger took, inserted with their nonces advanced.
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
import { pgArray, type ArrayItem } from '../../db/pg-array';
import { inTransaction, type Transaction } from '../../db/retry';
import { hasWageredBonusSql } from '../bonuses';
import { ownerKeyOf, type Gambler, type RoundIntake, type RoundMoney } from '../round-intake';
import type { PreparedBet } from './engines';
import { outcomeJson } from './engines';
import { createRoundSharing, type RoundSharingOptions } from './round-sharing';
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
  isPlayedBefore: boolean;
  hasWageredBonus: boolean;
}

type RoundRow = typeof gameRounds.$inferSelect;

/** Locks the owners' active seed pairs in id order (the lock every round and rotation of an owner queues on). */
async function lockSeeds(tx: Transaction, rounds: readonly SharedRound[]): Promise<LockedSeed[]> {
  const result = await tx.execute(sql`
    SELECT q.item::int AS item, s.id::text AS seed_id, s.server_seed, s.server_seed_hash, s.client_seed,
      s.next_nonce AS nonce, nextval('game_rounds_id_seq')::text AS round_id,
      EXISTS (SELECT 1 FROM ${gameRounds} r WHERE r.site_id = s.site_id AND r.owner_key = s.owner_key
        AND r.request_key = q.request_key) AS is_played_before,
      ${hasWageredBonusSql(sql`s.site_id`, sql`s.user_id`)} AS has_wagered_bonus
    FROM unnest(${pgArray(rounds.map((round) => round.who.siteId))}::text[],
      ${pgArray(rounds.map((round) => ownerKeyOf(round.who)))}::text[],
      ${pgArray(rounds.map((round) => round.requestId))}::text[]) WITH ORDINALITY AS q(site_id, owner_key, request_key, item)
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
    isPlayedBefore: row.is_played_before === true,
    hasWageredBonus: row.has_wagered_bonus === true,
  }));
}

interface TakenRound {
  seed: LockedSeed;
  round: SharedRound;
  payoutMinor: bigint;
  outcome: unknown;
}

/**
 * Writes the rounds the ledger took, settled, and advances their seeds' nonces, in one statement
 * whose text never changes (prepared once, whatever the call's size): the same columns the
 * single path writes. Each owner is once in a call, so +1 is each locked seed's next nonce.
 */
async function insertRounds(tx: Transaction, taken: readonly TakenRound[]): Promise<RoundRow[]> {
  const column = (pick: (entry: TakenRound) => ArrayItem) => pgArray(taken.map(pick));
  const settledAt = new Date();
  const result = await tx.execute(sql`
    WITH advance_nonces AS (
      UPDATE ${fairSeeds} SET next_nonce = next_nonce + 1
      WHERE id = ANY(${column(({ seed }) => seed.seedId)}::bigint[]) RETURNING id
    )
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
    RETURNING id::text AS id, bet, outcome, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms`);
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

/** PGlite and node-postgres both parse jsonb; be lenient should a driver hand back the text. */
const parsedJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

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
  options?: Partial<RoundSharingOptions>;
}

/** Two lanes, as the wallet's group commit: one call in the database while the next gathers. */
const DEFAULT_OPTIONS: RoundSharingOptions = { lanes: 2, maxRounds: 32 };

export function createSharedRounds(deps: SharedRoundsDeps) {
  const { db, intake } = deps;

  async function playTogether(tx: Transaction, rounds: readonly SharedRound[]): Promise<SharedRoundAnswer[]> {
    const answers: SharedRoundAnswer[] = rounds.map(() => ({ status: 'alone' }));
    const playing = (await lockSeeds(tx, rounds)).flatMap((seed) => {
      const round = rounds[seed.item]!;
      const roundMoney = roundMoneyOf(round, seed.roundId);
      if (seed.isPlayedBefore || seed.hasWageredBonus || !intake.canShareMoney(roundMoney)) return [];
      const played = round.prepared.play({ serverSeed: seed.serverSeed, clientSeed: seed.clientSeed, nonce: seed.nonce });
      return [{ seed, round, roundMoney, ...played }];
    });
    if (playing.length === 0) return answers;
    const moved = await intake.stakeAndSettleShared(
      tx,
      playing.map(({ seed, round, roundMoney, payoutMinor }) => ({
        round: roundMoney,
        stake: { amountMinor: round.prepared.stakeMinor, idempotencyKey: `round:${seed.roundId}:bet` },
        payout: { amountMinor: payoutMinor, idempotencyKey: `round:${seed.roundId}:win` },
      })),
    );
    const taken = playing.filter((_, index) => moved[index]!.status === 'ok');
    playing.forEach(({ seed }, index) => {
      if (moved[index]!.status === 'insufficient') answers[seed.item] = { status: 'insufficient' };
    });
    if (taken.length === 0) return answers;
    const rows = await insertRounds(
      tx,
      taken.map(({ seed, round, payoutMinor, outcome }) => ({ seed, round, payoutMinor, outcome: outcomeJson(outcome) })),
    );
    const rowOf = new Map(rows.map((row) => [row.id, row]));
    taken.forEach(({ seed, round }) => {
      const row = rowOf.get(seed.roundId);
      const outcome = moved[playing.findIndex((entry) => entry.seed === seed)]!;
      if (!row || outcome.status !== 'ok') throw new Error('a shared round was not recorded');
      answers[seed.item] = {
        status: 'played',
        result: { round: deps.roundView(row), is_replay: false, balance: money(outcome.balanceMinor, round.currency) },
      };
    });
    return answers;
  }

  const sharing = createRoundSharing<SharedRound, SharedRoundAnswer>(
    async (rounds) => {
      try {
        return await inTransaction(db, (tx) => playTogether(tx, rounds));
      } catch {
        // The transaction wrote nothing: each round plays the single way, which answers its own error.
        return rounds.map(() => ({ status: 'alone' }) as const);
      }
    },
    (round) => `${round.who.siteId}|${ownerKeyOf(round.who)}`,
    { ...DEFAULT_OPTIONS, ...deps.options },
  );

  return {
    play: (round: SharedRound): Promise<SharedRoundAnswer> => sharing.submit(round),
    stats: sharing.stats,
  };
}

export type SharedRounds = ReturnType<typeof createSharedRounds>;
