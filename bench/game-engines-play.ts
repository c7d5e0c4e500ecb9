/**
 * The plays bench/game-engines.ts times: one fixed way to play each engine, and the loops that
 * measure speed and RTP. game-engines.ts bundles this file with esbuild, minified as production
 * builds the server, and times the bundle, so the figures are those of the code that runs.
 */
import { performance } from 'node:perf_hooks';
import { act, createShoe, deal } from '../common/games/blackjack';
import { basicStrategy } from '../common/games/blackjack-strategy';
import { playCrash } from '../common/games/crash';
import { playDice } from '../common/games/dice';
import { FairRng } from '../common/games/fair';
import { settleLiveRoulette, spinLiveRoulette } from '../common/games/live-roulette';
import { cashOutMines, openCell, startMines } from '../common/games/mines';
import { playRoulette, type RouletteBet } from '../common/games/roulette';
import { playCascadeSlot } from '../common/games/slot-cascade';
import { classicSlotRtp, playClassicSlot } from '../common/games/slot-classic';
import { fruitsSlotRtp, playFruitsSlot } from '../common/games/slot-fruits';
import { ReturnStats, SIMULATION_SEEDS, type SimulatedRound } from '../common/games/statistics';

const TEN_MILLION = 10_000_000;

export interface BenchGame {
  name: string;
  /** The documented RTP this play should reach; for the cascade slot itself a simulated figure. */
  expectedRtp: number;
  play: (rng: FairRng) => SimulatedRound;
}

const STAKE = 100n;
const ROULETTE_MIX: RouletteBet[] = [
  { kind: 'straight', numbers: [17], stakeMinor: STAKE },
  { kind: 'split', numbers: [17, 20], stakeMinor: STAKE },
  { kind: 'dozen', index: 2, stakeMinor: STAKE },
  { kind: 'red', stakeMinor: STAKE },
];
const RED: RouletteBet[] = [{ kind: 'red', stakeMinor: STAKE }];

export const GAMES: BenchGame[] = [
  { name: 'slot-classic', expectedRtp: classicSlotRtp().total, play: (rng) => playClassicSlot({ stakeMinor: STAKE }, rng) },
  { name: 'slot-fruits', expectedRtp: fruitsSlotRtp().total, play: (rng) => playFruitsSlot({ stakeMinor: STAKE }, rng) },
  { name: 'slot-cascade', expectedRtp: 0.9604, play: (rng) => playCascadeSlot({ stakeMinor: STAKE }, rng) },
  { name: 'roulette', expectedRtp: 36 / 37, play: (rng) => playRoulette(ROULETTE_MIX, rng) },
  { name: 'live-roulette', expectedRtp: 36 / 37, play: (rng) => settleLiveRoulette(RED, spinLiveRoulette(rng)) },
  {
    name: 'blackjack',
    expectedRtp: 0.9959,
    play: (rng) => {
      const shoe = createShoe(rng);
      let state = deal({ stakeMinor: STAKE }, shoe);
      while (state.phase !== 'finished') state = act(state, basicStrategy(state), shoe);
      return { stakeMinor: state.totalStakeMinor, payoutMinor: state.result!.payoutMinor, baseStakeMinor: STAKE };
    },
  },
  {
    name: 'dice',
    expectedRtp: 0.99,
    play: (rng) => ({
      stakeMinor: STAKE,
      payoutMinor: playDice({ stakeMinor: STAKE, direction: 'under', targetHundredths: 5_000 }, rng).payoutMinor,
    }),
  },
  {
    name: 'mines',
    expectedRtp: 0.99,
    play: (rng) => {
      let state = startMines({ stakeMinor: 1_000_000n, mineCount: 3 }, rng);
      for (let cell = 0; cell < 5 && state.status === 'playing'; cell++) state = openCell(state, cell);
      if (state.status === 'playing') state = cashOutMines(state);
      return { stakeMinor: 1_000_000n, payoutMinor: state.payoutMinor };
    },
  },
  {
    name: 'crash',
    expectedRtp: 0.99,
    play: (rng) => ({
      stakeMinor: STAKE,
      payoutMinor: playCrash({ stakeMinor: STAKE, cashOutHundredths: 200 }, rng).payoutMinor,
    }),
  },
];

const newRng = (nonce: number) =>
  new FairRng({ serverSeed: SIMULATION_SEEDS.serverSeed, clientSeed: SIMULATION_SEEDS.clientSeed, nonce });

/**
 * Plays as many rounds as fit in `seconds` (after a short warm-up) and reports their rate per
 * second of this process's CPU time (user + system), which is what "on one core" means on a
 * machine shared with other work; the wall-clock rate is reported beside it.
 */
export function measureSpeed(
  game: BenchGame,
  seconds: number,
): {
  rounds: number;
  roundsPerSecond: number;
  roundsPerWallSecond: number;
  microsecondsPerRound: number;
  secondsForTenMillion: number;
} {
  for (let nonce = 0; nonce < 2_000; nonce++) game.play(newRng(nonce));
  let rounds = 0;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const deadline = started + seconds * 1000;
  while (performance.now() < deadline) {
    for (let i = 0; i < 500; i++) game.play(newRng(rounds++));
  }
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const elapsedSeconds = (performance.now() - started) / 1000;
  const roundsPerSecond = rounds / cpuSeconds;
  return {
    rounds,
    roundsPerSecond,
    roundsPerWallSecond: rounds / elapsedSeconds,
    microsecondsPerRound: 1e6 / roundsPerSecond,
    secondsForTenMillion: TEN_MILLION / roundsPerSecond,
  };
}

export function measureRtp(game: BenchGame, rounds: number) {
  const stats = new ReturnStats();
  const started = performance.now();
  for (let nonce = 0; nonce < rounds; nonce++) {
    const round = game.play(newRng(nonce));
    stats.add(round.stakeMinor, round.payoutMinor, round.baseStakeMinor);
  }
  const halfWidth = 1.96 * stats.standardError;
  return {
    rounds,
    rtp: stats.rtp,
    standardError: stats.standardError,
    standardDeviation: stats.standardDeviation,
    interval95: [stats.rtp - halfWidth, stats.rtp + halfWidth] as const,
    paidOverStaked: stats.paidOverStaked,
    expectedRtp: game.expectedRtp,
    standardErrorsFromExpected: (stats.rtp - game.expectedRtp) / stats.standardError,
    seconds: (performance.now() - started) / 1000,
  };
}
