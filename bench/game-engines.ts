/**
 * Rounds per second of each in-house game engine on the provably fair stream (architecture §6
 * and §7: speed lives in bench/, not in timed assertions), and the time 10⁷ rounds would take;
 * with --rtp, each game's return to player measured over N rounds with its 95 % interval.
 *
 *   npm run bench:games                               2 s per engine
 *   npm run bench:games -- --seconds 5                longer runs
 *   npm run bench:games -- --rtp 1000000              RTP over 10⁶ rounds per game
 *   npm run bench:games -- --rtp 10000000 --games slot-cascade
 *   npm run bench:games -- --source                   the TypeScript under tsx, for comparison
 *
 * What is timed is the production form of the code: game-engines-play.ts bundled by esbuild with
 * the options of scripts/build-server.mjs (not minified: the server bundle is not); each speed line prints its ratio to the
 * target of issue 12 (167,000 rounds/s on one core).
 *
 * Every round reads its own stream (one server seed, nonces 0, 1, 2, …), as real rounds do, so
 * the figures include SHA-256 and HMAC. Each game plays one fixed way: slots at one stake, a mix
 * of roulette bets, blackjack by basic strategy, dice under 50.00, mines with 3 mines opening 5
 * cells, crash cashing out at 2.00×; RTP is the mean return per unit of opening stake (for
 * blackjack, doubles and splits count as extra stakes, the usual house-edge convention; paid ÷
 * staked is printed too). Results go to bench/results/games-<timestamp>.json (ignored by git).
 * One process, one core: compare figures between runs on one machine, not across machines.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import type * as PlaysModule from './game-engines-play';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_DIR = join(ROOT, 'bench', 'results');
/** Issue 12: every engine ≥ 167,000 rounds/s on one core (10⁷ spins a minute). */
const TARGET_ROUNDS_PER_SECOND = 167_000;

type Plays = typeof PlaysModule;

/**
 * The plays as production runs them: bundled by esbuild with scripts/build-server.mjs's options
 * (bundle, node24, ESM; no minification, as the server's bundle has none); --source times the TypeScript through tsx instead (for comparison only).
 */
async function loadPlays(source: boolean): Promise<{ plays: Plays; cleanup: () => void }> {
  if (source) return { plays: await import('./game-engines-play'), cleanup: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'bench-games-'));
  const outfile = join(dir, 'plays.mjs');
  await build({
    entryPoints: [join(ROOT, 'bench', 'game-engines-play.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    logLevel: 'warning',
  });
  const plays = (await import(pathToFileURL(outfile).href)) as Plays;
  return { plays, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const percent = (value: number, digits = 3) => `${(100 * value).toFixed(digits)} %`;

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds.toFixed(1)} s`;
  if (seconds < 7_200) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / 3_600).toFixed(1)} h`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '2' },
      rtp: { type: 'string' },
      games: { type: 'string' },
      source: { type: 'boolean', default: false },
    },
  });
  const seconds = Number(values.seconds);
  const rtpRounds = values.rtp === undefined ? undefined : Number(values.rtp);
  if (!(seconds > 0) || (rtpRounds !== undefined && !(Number.isInteger(rtpRounds) && rtpRounds > 1)))
    throw new Error('--seconds must be positive and --rtp a whole number of rounds above 1');
  const { plays, cleanup } = await loadPlays(values.source);
  const wanted = values.games?.split(',');
  const games = plays.GAMES.filter((game) => !wanted || wanted.includes(game.name));
  if (games.length === 0) throw new Error(`no such game; the games are ${plays.GAMES.map((game) => game.name).join(', ')}`);
  const code = values.source ? 'TypeScript source under tsx' : 'esbuild bundle, as the production server is built';
  console.log(`${code}; target ${TARGET_ROUNDS_PER_SECOND.toLocaleString('en')} rounds/s per engine`);

  const results: Record<string, unknown>[] = [];
  for (const game of games) {
    if (rtpRounds === undefined) {
      const speed = plays.measureSpeed(game, seconds);
      const ratio = speed.roundsPerSecond / TARGET_ROUNDS_PER_SECOND;
      console.log(
        `${game.name.padEnd(14)} ${Math.round(speed.roundsPerSecond).toLocaleString('en').padStart(9)} rounds/CPU-s (wall ${Math.round(speed.roundsPerWallSecond).toLocaleString('en')}/s)  ${speed.microsecondsPerRound.toFixed(1).padStart(6)} µs/round  10⁷ rounds in ${duration(speed.secondsForTenMillion).padStart(7)}  ${ratio.toFixed(2)} × target ${ratio >= 1 ? 'met' : 'NOT MET'}`,
      );
      results.push({ game: game.name, ...speed, targetRoundsPerSecond: TARGET_ROUNDS_PER_SECOND, targetRatio: ratio });
    } else {
      const rtp = plays.measureRtp(game, rtpRounds);
      console.log(
        `${game.name.padEnd(14)} RTP ${percent(rtp.rtp)} ± ${percent(1.96 * rtp.standardError)} (95 %; σ ${rtp.standardDeviation.toFixed(3)}) expected ${percent(rtp.expectedRtp)}, ${rtp.standardErrorsFromExpected.toFixed(2)} SE off; paid/staked ${percent(rtp.paidOverStaked)}; ${rtpRounds.toLocaleString('en')} rounds in ${duration(rtp.seconds)}`,
      );
      results.push({ game: game.name, ...rtp });
    }
  }
  cleanup();

  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `games-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const environment = { node: process.version, cpu: cpus()[0]?.model, cores: cpus().length, loadAverage: loadavg() };
  writeFileSync(
    file,
    `${JSON.stringify({ mode: rtpRounds === undefined ? 'speed' : 'rtp', code, seconds, rtpRounds, environment, results }, null, 2)}\n`,
  );
  console.log(`results: ${file}`);
}

await main();
