/**
 * Real-money one-request rounds of several players in one statement (issue 12; the queue is
 * db/call-sharing.ts, the database function play_rounds is migration 0027). A round's outcome
 * needs its seed pair before anything is written, and reading the seed under its lock took a
 * transaction of five round trips. So the process keeps each owner's active seed pair, its next
 * nonce and an id drawn for its next round (drawn under the seed's lock, so an owner's rounds stay
 * in id order), plays the round on them, plans its ledger groups, and hands the call to
 * play_rounds, which writes a round only on the seed, client seed and nonce it was played on.
 * A round played on a pair that moved meanwhile (another process, the single path, a rotation)
 * comes back 'stale' with the pair as it is, and plays again in the next call; the process
 * learns an owner's pair the same way on the owner's first shared round.
 * Each round is written exactly as the single path (service.ts play) writes it: the same columns,
 * transfers, keys and audit entries. A round this path does not take — the owner's first round
 * (no seed yet), a request id played before, a wagered bonus, hooks attached — is answered
 * `alone` and plays the single path, as is every round of a call that failed as a whole (the
 * statement wrote nothing), so one round's fault never becomes another's.
 */
import { sql } from 'drizzle-orm';
import { money } from '#common/money';
import type { PlayResult } from '#common/contract';
import type { Database } from '../../db/client';
import { parsedJson } from '../../db/json-value';
import { pgArray, type ArrayItem } from '../../db/pg-array';
import { withRetry } from '../../db/retry';
import { ownerKeyOf, type Gambler, type RoundIntake, type RoundMoney, type SharedRoundMoney } from '../round-intake';
import type { LedgerCall, WalletService } from '../wallet';
import type { PreparedBet } from './engines';
import { outcomeJson } from './engines';
import { createCallSharing, type CallSharingOptions } from '../../db/call-sharing';
import type { gameRounds } from './tables';

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

/** An owner's active seed pair as the process last saw it, and the id drawn for the owner's next round. */
interface OwnerSeed {
  seedId: number;
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
  nextRoundId: number;
}

/** A round as this call plays it: on its owner's remembered pair, or unplayed when the pair is not known yet. */
interface CallItem {
  round: SharedRound;
  seed: OwnerSeed | undefined;
  roundMoney: RoundMoney;
  payoutMinor: bigint;
  outcome: unknown;
}

interface FunctionAnswer {
  statuses: ('ok' | 'alone' | 'stale' | 'insufficient' | 'conflict')[];
  seeds: ({ id: number; serverSeed: string; serverSeedHash: string; clientSeed: string; nonce: number } | null)[];
  nextRoundIds: (number | string | null)[];
  created: (number | null)[];
  bets: unknown[];
  outcomes: unknown[];
  /** The items (1-based) whose rounds were written and whose groups the ledger call carried, in order. */
  kept: number[];
  ledger: unknown;
}

type RoundRow = typeof gameRounds.$inferSelect;

/** A stale round plays again at most this often before it goes the single way. */
const MAX_ATTEMPTS = 3;
/** Owners whose pair a process remembers; the oldest is forgotten beyond (it is learnt again in one call). */
const MAX_REMEMBERED_OWNERS = 20_000;
/** No seed has this id: a round of an owner not yet known comes back with the owner's pair. */
const UNKNOWN_SEED: OwnerSeed = { seedId: 0, serverSeed: '', serverSeedHash: '', clientSeed: '', nonce: -1, nextRoundId: 0 };

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

const ownerOf = (round: SharedRound) => `${round.who.siteId}|${ownerKeyOf(round.who)}`;

export interface SharedRoundsDeps {
  db: Database;
  intake: RoundIntake;
  wallet: WalletService;
  roundView: (row: RoundRow) => PlayResult['round'];
  options?: Partial<CallSharingOptions>;
}

/** Two lanes, as the wallet's group commit: one call in the database while the next gathers. */
const DEFAULT_OPTIONS: CallSharingOptions = { lanes: 2, maxItems: 32 };

export function createSharedRounds(deps: SharedRoundsDeps) {
  const { db, intake, wallet } = deps;
  const seeds = new Map<string, OwnerSeed>();
  // Calls that failed as a whole (their rounds then played alone): none is expected.
  let failedCalls = 0;
  // Rounds played on a pair that had moved (or was not known yet), and so played again.
  let staleRounds = 0;

  function remember(owner: string, seed: OwnerSeed): void {
    seeds.delete(owner);
    seeds.set(owner, seed);
    if (seeds.size > MAX_REMEMBERED_OWNERS) seeds.delete(seeds.keys().next().value!);
  }

  /** The round played on its owner's remembered pair; unplayed (and sure to come back stale) when none is. */
  function callItem(round: SharedRound): CallItem {
    const seed = seeds.get(ownerOf(round));
    const roundMoney = roundMoneyOf(round, seed?.nextRoundId ?? 0);
    if (!seed) return { round, seed, roundMoney, payoutMinor: 0n, outcome: null };
    const played = round.prepared.play({ serverSeed: seed.serverSeed, clientSeed: seed.clientSeed, nonce: seed.nonce });
    return { round, seed, roundMoney, payoutMinor: played.payoutMinor, outcome: outcomeJson(played.outcome) };
  }

  function moneyOf({ round, seed, roundMoney, payoutMinor }: CallItem): SharedRoundMoney {
    const roundId = seed?.nextRoundId ?? 0;
    return {
      round: roundMoney,
      stake: { amountMinor: round.prepared.stakeMinor, idempotencyKey: `round:${roundId}:bet` },
      payout: { amountMinor: payoutMinor, idempotencyKey: `round:${roundId}:win` },
    };
  }

  async function call(items: readonly CallItem[], ledger: LedgerCall, settledAt: Date): Promise<FunctionAnswer> {
    const column = (pick: (item: CallItem, seed: OwnerSeed) => ArrayItem) =>
      pgArray(items.map((item) => pick(item, item.seed ?? UNKNOWN_SEED)));
    const result = await db.execute(sql`
      SELECT play_rounds(
        ${column(({ round }) => round.who.siteId)}::text[], ${column(({ round }) => ownerKeyOf(round.who))}::text[],
        ${column(({ round }) => round.who.uid)}::bigint[], ${column((_, seed) => seed.seedId)}::bigint[],
        ${column((_, seed) => seed.clientSeed)}::text[], ${column((_, seed) => seed.nonce)}::int[],
        ${column((_, seed) => seed.nextRoundId)}::bigint[], ${column(({ round }) => round.sysname)}::text[],
        ${column(({ round }) => round.engine)}::text[], ${column(({ round }) => round.currency)}::text[],
        ${column(({ round }) => round.prepared.stakeMinor)}::bigint[], ${column(({ payoutMinor }) => payoutMinor)}::bigint[],
        ${column(({ round }) => JSON.stringify(round.prepared.normal))}::jsonb[],
        ${column(({ outcome }) => JSON.stringify(outcome))}::jsonb[], ${column(({ round }) => round.requestId)}::text[],
        ${column(({ round }) => round.requestHash)}::text[], ${settledAt.toISOString()}::timestamptz,
        ${ledger.arguments}) AS answer`);
    const [row] = (result as unknown as { rows: { answer: unknown }[] }).rows;
    if (!row) throw new Error('play_rounds answered nothing');
    return parsedJson<FunctionAnswer>(row.answer);
  }

  /** The round as written, as the single path reads it back (jsonb orders keys its own way). */
  function writtenRow(item: CallItem, seed: OwnerSeed, answer: FunctionAnswer, index: number, settledAt: Date): RoundRow {
    const { round, payoutMinor } = item;
    return {
      id: seed.nextRoundId,
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
      bet: parsedJson(answer.bets[index]),
      outcome: parsedJson(answer.outcomes[index]),
      state: null,
      status: 'settled',
      requestKey: round.requestId,
      requestHash: round.requestHash,
      createdAt: new Date(Number(answer.created[index])),
      settledAt,
    };
  }

  /** Each item's answer; the owners' remembered pairs follow what the function saw and did. */
  function answersOf(items: readonly CallItem[], answer: FunctionAnswer, ledger: LedgerCall, settledAt: Date) {
    const kept = answer.kept.map((item) => item - 1);
    const moved = kept.length > 0 ? wallet.ledgerCallResults(ledger, answer.ledger, kept) : [];
    const movedOf = new Map(kept.map((item, index) => [item, moved[index]!]));
    return items.map((item, index): SharedRoundAnswer | { status: 'stale' } => {
      const owner = ownerOf(item.round);
      const status = answer.statuses[index];
      if (status === 'stale') {
        const fresh = answer.seeds[index]!;
        remember(owner, { ...fresh, seedId: Number(fresh.id), nextRoundId: Number(answer.nextRoundIds[index]) });
        return { status: 'stale' };
      }
      if (status === 'conflict') seeds.delete(owner);
      if (status !== 'ok' && status !== 'insufficient') return { status: 'alone' };
      const outcome = intake.sharedRoundOutcome(item.roundMoney, movedOf.get(index)!);
      if (outcome.status === 'insufficient') return outcome;
      const seed = item.seed!;
      remember(owner, { ...seed, nonce: seed.nonce + 1, nextRoundId: Number(answer.nextRoundIds[index]) });
      const result: PlayResult = {
        round: deps.roundView(writtenRow(item, seed, answer, index, settledAt)),
        is_replay: false,
        balance: money(outcome.balanceMinor, item.round.currency),
      };
      return { status: 'played', result };
    });
  }

  async function playTogether(rounds: readonly SharedRound[]): Promise<(SharedRoundAnswer | { status: 'stale' })[]> {
    const items = rounds.map(callItem);
    const answers: (SharedRoundAnswer | { status: 'stale' })[] = rounds.map(() => ({ status: 'alone' }));
    const going = items.flatMap((item, index) => (intake.canShareMoney(item.roundMoney) ? [index] : []));
    if (going.length === 0) return answers;
    const goingItems = going.map((index) => items[index]!);
    // A round not yet played (its owner's pair unknown) moves nothing: it is sure to come back stale.
    const ledger = await wallet.planLedgerCall(
      goingItems.map((item) => (item.seed ? intake.sharedRoundTransfers(moneyOf(item)) : [])),
    );
    const settledAt = new Date();
    const answer = await withRetry(() => call(goingItems, ledger, settledAt));
    answersOf(goingItems, answer, ledger, settledAt).forEach((itemAnswer, position) => {
      answers[going[position]!] = itemAnswer;
    });
    return answers;
  }

  const sharing = createCallSharing<SharedRound, SharedRoundAnswer | { status: 'stale' }>(
    async (rounds) => {
      try {
        return await playTogether(rounds);
      } catch {
        // The statement wrote nothing: each round plays the single way, which answers its own error.
        failedCalls++;
        return rounds.map(() => ({ status: 'alone' }) as const);
      }
    },
    ownerOf,
    { ...DEFAULT_OPTIONS, ...deps.options },
  );

  return {
    /** Plays the round in a shared call; a round played on a pair that moved meanwhile plays again on the pair as it is. */
    async play(round: SharedRound): Promise<SharedRoundAnswer> {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const answer = await sharing.submit(round);
        if (answer.status !== 'stale') return answer;
        staleRounds++;
      }
      return { status: 'alone' };
    },
    /** Calls made, the rounds they carried (a stale round once per try), the calls that failed as a whole, the stale tries. */
    stats: () => ({ ...sharing.stats(), failedCalls, staleRounds }),
    hold: () => sharing.hold(),
  };
}

export type SharedRounds = ReturnType<typeof createSharedRounds>;
