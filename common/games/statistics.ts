/**
 * The arithmetic of the RTP simulations shared by the tests and bench/: running sums of stake and
 * payout, the standard error of the mean return, and Pearson's chi-square statistic.
 */
import { FairRng } from './fair';

/** Accumulates rounds; the return per round is payout ÷ stake of that round. */
export class ReturnStats {
  rounds = 0;
  stakedMinor = 0n;
  paidMinor = 0n;
  private sum = 0;
  private sumOfSquares = 0;

  add(stakeMinor: bigint, payoutMinor: bigint, baseStakeMinor: bigint = stakeMinor): void {
    this.rounds++;
    this.stakedMinor += stakeMinor;
    this.paidMinor += payoutMinor;
    // Per round, net of extra stakes (doubles, splits) and relative to the opening bet: the
    // house-edge convention of table games; for a one-stake game it is simply payout ÷ stake.
    const value = 1 + Number(payoutMinor - stakeMinor) / Number(baseStakeMinor);
    this.sum += value;
    this.sumOfSquares += value * value;
  }

  /** Mean return per unit of opening stake. */
  get rtp(): number {
    return this.sum / this.rounds;
  }

  /** Paid ÷ staked, as an operator's books show it. */
  get paidOverStaked(): number {
    return Number(this.paidMinor) / Number(this.stakedMinor);
  }

  get standardDeviation(): number {
    const mean = this.rtp;
    return Math.sqrt(Math.max(0, this.sumOfSquares / this.rounds - mean * mean) * (this.rounds / Math.max(1, this.rounds - 1)));
  }

  get standardError(): number {
    return this.standardDeviation / Math.sqrt(this.rounds);
  }
}

/** Σ (observed − expected)² / expected over the cells. */
export function chiSquare(observed: readonly number[], expected: readonly number[]): number {
  return observed.reduce((sum, count, index) => {
    const want = expected[index]!;
    return sum + ((count - want) * (count - want)) / want;
  }, 0);
}

export interface SimulatedRound {
  stakeMinor: bigint;
  payoutMinor: bigint;
  /** The opening bet when the round staked more later (doubles, splits); else the stake. */
  baseStakeMinor?: bigint;
}

/**
 * Plays `rounds` rounds on the fair stream of one seed pair, nonces 0, 1, 2, …: the stream real
 * rounds read, so a simulation checks the engine and its draws together.
 */
export function simulateRounds(
  rounds: number,
  playRound: (rng: FairRng, index: number) => SimulatedRound,
  seeds: { serverSeed: string; clientSeed: string } = SIMULATION_SEEDS,
): ReturnStats {
  const stats = new ReturnStats();
  for (let nonce = 0; nonce < rounds; nonce++) {
    const round = playRound(new FairRng({ serverSeed: seeds.serverSeed, clientSeed: seeds.clientSeed, nonce }), nonce);
    stats.add(round.stakeMinor, round.payoutMinor, round.baseStakeMinor);
  }
  return stats;
}

export const SIMULATION_SEEDS = {
  serverSeed: '6f1d2c3b4a5968778695a4b3c2d1e0f00112233445566778899aabbccddeeff0',
  clientSeed: 'rtp-simulation',
};

/**
 * The time limit of a simulation test: each takes a few seconds alone, more when the two cores
 * are shared with other suites; the limit catches a hang, not slowness (bench/ measures speed).
 */
export const SIMULATION_TIMEOUT_MS = 60_000;
