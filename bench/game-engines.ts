/**
 * Rounds per second of each in-house game engine on the provably fair stream (architecture §6
 * and §7: speed lives in bench/, not in timed assertions), and the time 10⁷ rounds would take;
 * with --rtp, each game's return to player measured over N rounds with its 95 % interval.
 *
 *   npm run bench:games                               2 s per engine
 *   npm run bench:games -- --seconds 5                longer runs
 *   npm run bench:games -- --rtp 1000000              RTP over 10⁶ rounds per game
 *   npm run bench:games -- --rtp 10000000 --games slot-cascade
 *
 * Every round reads its own stream (one server seed, nonces 0, 1, 2, …), as real rounds do, so
 * the figures include SHA-256 and HMAC. Each game plays one fixed way: slots at one stake, a mix
 * of roulette bets, blackjack by basic strategy, dice under 50.00, mines with 3 mines opening 5
 * cells, crash cashing out at 2.00×; RTP is the mean return per unit of opening stake (for
 * blackjack, doubles and splits count as extra stakes, the usual house-edge convention; paid ÷
 * staked is printed too). Results go to bench/results/games-<timestamp>.json (ignored by git).
 * One process, one core: compare figures between runs on one machine, not across machines.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
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

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_DIR = join(ROOT, 'bench', 'results');
const TEN_MILLION = 10_000_000;

interface BenchGame {
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

const GAMES: BenchGame[] = [
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

/** Plays as many rounds as fit in `seconds` (after a short warm-up) and reports their rate. */
function measureSpeed(
  game: BenchGame,
  seconds: number,
): { rounds: number; roundsPerSecond: number; microsecondsPerRound: number; secondsForTenMillion: number } {
  for (let nonce = 0; nonce < 2_000; nonce++) game.play(newRng(nonce));
  let rounds = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  while (performance.now() < deadline) {
    for (let i = 0; i < 500; i++) game.play(newRng(rounds++));
  }
  const elapsedSeconds = (performance.now() - started) / 1000;
  const roundsPerSecond = rounds / elapsedSeconds;
  return {
    rounds,
    roundsPerSecond,
    microsecondsPerRound: 1e6 / roundsPerSecond,
    secondsForTenMillion: TEN_MILLION / roundsPerSecond,
  };
}

function measureRtp(game: BenchGame, rounds: number) {
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

const percent = (value: number, digits = 3) => `${(100 * value).toFixed(digits)} %`;

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds.toFixed(1)} s`;
  if (seconds < 7_200) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / 3_600).toFixed(1)} h`;
}

function main(): void {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '2' }, rtp: { type: 'string' }, games: { type: 'string' } },
  });
  const seconds = Number(values.seconds);
  const rtpRounds = values.rtp === undefined ? undefined : Number(values.rtp);
  if (!(seconds > 0) || (rtpRounds !== undefined && !(Number.isInteger(rtpRounds) && rtpRounds > 1)))
    throw new Error('--seconds must be positive and --rtp a whole number of rounds above 1');
  const wanted = values.games?.split(',');
  const games = GAMES.filter((game) => !wanted || wanted.includes(game.name));
  if (games.length === 0) throw new Error(`no such game; the games are ${GAMES.map((game) => game.name).join(', ')}`);

  const results: Record<string, unknown>[] = [];
  for (const game of games) {
    if (rtpRounds === undefined) {
      const speed = measureSpeed(game, seconds);
      console.log(
        `${game.name.padEnd(14)} ${Math.round(speed.roundsPerSecond).toLocaleString('en').padStart(9)} rounds/s  ${speed.microsecondsPerRound.toFixed(1).padStart(6)} µs/round  10⁷ rounds in ${duration(speed.secondsForTenMillion)}`,
      );
      results.push({ game: game.name, ...speed });
    } else {
      const rtp = measureRtp(game, rtpRounds);
      console.log(
        `${game.name.padEnd(14)} RTP ${percent(rtp.rtp)} ± ${percent(1.96 * rtp.standardError)} (95 %; σ ${rtp.standardDeviation.toFixed(3)}) expected ${percent(rtp.expectedRtp)}, ${rtp.standardErrorsFromExpected.toFixed(2)} SE off; paid/staked ${percent(rtp.paidOverStaked)}; ${rtpRounds.toLocaleString('en')} rounds in ${duration(rtp.seconds)}`,
      );
      results.push({ game: game.name, ...rtp });
    }
  }

  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `games-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const environment = { node: process.version, cpu: cpus()[0]?.model, cores: cpus().length, loadAverage: loadavg() };
  writeFileSync(
    file,
    `${JSON.stringify({ mode: rtpRounds === undefined ? 'speed' : 'rtp', seconds, rtpRounds, environment, results }, null, 2)}\n`,
  );
  console.log(`results: ${file}`);
}

main();
