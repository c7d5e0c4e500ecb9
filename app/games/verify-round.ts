/**
 * Verifies a played round in the browser (architecture §6): the revealed server seed must hash to
 * the commitment shown before the round, and the engine replayed on the fair stream of the seeds
 * (common/games, the same pure code the server plays) must give the recorded outcome. Only the
 * revealed seed comes from the server; the recomputation is the browser's own.
 */
import { amountToMinor } from '#common/money';
import { createFairRng, serverSeedHash, type RoundSeeds } from '#common/games/fair';
import { playDice } from '#common/games/dice';
import { playRoulette, type RouletteBet } from '#common/games/roulette';
import { playClassicSlot } from '#common/games/slot-classic';
import { playFruitsSlot } from '#common/games/slot-fruits';
import { playCascadeSlot } from '#common/games/slot-cascade';
import { isStatefulEngine, recomputeSettledOutcome } from '#common/games/stateful-replay';

/** The engines the game client plays and verifies. */
export const CLIENT_ENGINES = ['dice', 'roulette', 'slot-classic', 'slot-fruits', 'slot-cascade'] as const;
export type ClientEngine = (typeof CLIENT_ENGINES)[number];

export function isClientEngine(engine: unknown): engine is ClientEngine {
  return typeof engine === 'string' && (CLIENT_ENGINES as readonly string[]).includes(engine);
}

type NormalBet = Record<string, unknown>;

const minor = (value: unknown): bigint => amountToMinor(String(value));

/** The outcome of a bet in its stored normal form ("1.00" amounts) on the seeds, as JSON. */
export function recomputeOutcome(engine: ClientEngine, bet: NormalBet, seeds: RoundSeeds): unknown {
  const rng = createFairRng(seeds);
  let outcome: unknown;
  switch (engine) {
    case 'dice':
      outcome = playDice(
        {
          stakeMinor: minor(bet.stake),
          direction: bet.direction === 'over' ? 'over' : 'under',
          targetHundredths: Number(minor(bet.target)),
        },
        rng,
      );
      break;
    case 'roulette': {
      const bets = ((bet.bets as NormalBet[] | undefined) ?? []).map(
        ({ stake, ...rest }) => ({ ...rest, stakeMinor: minor(stake) }) as unknown as RouletteBet,
      );
      outcome = playRoulette(bets, rng);
      break;
    }
    case 'slot-classic':
      outcome = playClassicSlot({ stakeMinor: minor(bet.stake) }, rng);
      break;
    case 'slot-fruits':
      outcome = playFruitsSlot({ stakeMinor: minor(bet.stake) }, rng);
      break;
    case 'slot-cascade':
      outcome = playCascadeSlot({ stakeMinor: minor(bet.stake) }, rng);
      break;
  }
  return JSON.parse(JSON.stringify(outcome, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
}

/** JSON with object keys sorted: the stored outcome's key order is the database's, not the engine's. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface RoundToVerify {
  engine: string;
  bet: unknown;
  outcome: unknown;
  server_seed_hash: string;
  client_seed: string;
  nonce: number;
}

export interface Verification {
  isHashMatch: boolean;
  isOutcomeMatch: boolean;
  isMatch: boolean;
}

export function verifyRoundInBrowser(round: RoundToVerify, serverSeed: string): Verification {
  const isHashMatch = serverSeedHash(serverSeed) === round.server_seed_hash.toLowerCase();
  let isOutcomeMatch = false;
  const seeds = { serverSeed, clientSeed: round.client_seed, nonce: round.nonce };
  if (round.bet && typeof round.bet === 'object') {
    try {
      // Mines and blackjack: the deal and every recorded action played again on the seeds.
      const recomputed = isClientEngine(round.engine)
        ? recomputeOutcome(round.engine, round.bet as NormalBet, seeds)
        : isStatefulEngine(round.engine)
          ? recomputeSettledOutcome(round.engine, round.bet as NormalBet, round.outcome, seeds)
          : undefined;
      isOutcomeMatch = recomputed !== undefined && canonicalJson(recomputed) === canonicalJson(round.outcome);
    } catch {
      isOutcomeMatch = false;
    }
  }
  return { isHashMatch, isOutcomeMatch, isMatch: isHashMatch && isOutcomeMatch };
}
