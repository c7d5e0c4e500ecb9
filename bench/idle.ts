/**
 * What an idle server costs (issue 12: under 1 % of a core and under 200 MB RSS, on PGlite and on
 * PostgreSQL): starts the production build (build/server/main.js) on PGlite in a temporary folder
 * and on a scratch database of a PostgreSQL server, and beside them the reference, a bare Hono
 * hello-world (bench/idle-hono-hello.mjs), all in this run. Each is started in turn and waited for
 * (/healthz), left to settle, then all are sampled together with no traffic: CPU from
 * /proc/<pid>/stat (user + system ticks) over the window, RSS from /proc/<pid>/status every second
 * (mean and max), the peak RSS since start (VmHWM, boot included), and how often the main thread
 * woke (its voluntary context switches: each sleep in the event loop that a timer or an event
 * ends is one), which depends far less on the machine's load than CPU does.
 *
 *   npm run build && npm run bench:idle                    60 s window
 *   npm run bench:idle -- --seconds 10 --settle 5          a short look while developing
 *   BENCH_DATABASE_URL=postgres://… npm run bench:idle     another PostgreSQL server (default: the test server)
 *
 * Prints a table and writes bench/results/idle.json. Linux only (/proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort } from '../test/free-port';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(ROOT, 'build', 'server', 'main.js');
const REFERENCE = join(ROOT, 'bench', 'idle-hono-hello.mjs');
const RESULTS_DIR = join(ROOT, 'bench', 'results');
/** Issue 12's limits for an idle server. */
const TARGET_CPU_PERCENT = 1;
const TARGET_RSS_MB = 200;
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface Subject {
  name: string;
  child: ChildProcess;
  output: string[];
  bootSeconds: number;
  cleanup: () => Promise<void>;
}

interface Sample {
  name: string;
  cpuPercent: number;
  rssMeanMb: number;
  rssMaxMb: number;
  peakRssMb: number;
  wakeupsPerSecond: number;
  bootSeconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function cpuTicks(pid: number): number {
  // Fields after the command name (which may hold spaces) start at field 3; utime is 14, stime 15.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} for process ${pid}`);
  return Number(match[1]);
}

/** The main thread's voluntary context switches: its task has the process's id. */
function mainThreadSleeps(pid: number): number {
  const match = /^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no context switches for process ${pid}`);
  return Number(match[1]);
}

async function waitForHealth(subject: Pick<Subject, 'name' | 'child' | 'output'>, port: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (subject.child.exitCode !== null) break;
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${subject.name} did not become healthy:\n${subject.output.join('').slice(-2000)}`);
}

async function start(
  name: string,
  args: string[],
  env: Record<string, string>,
  port: number,
  cleanup: () => Promise<void>,
): Promise<Subject> {
  const started = Date.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => output.push(chunk.toString());
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const subject = { name, child, output, bootSeconds: 0, cleanup };
  await waitForHealth(subject, port);
  subject.bootSeconds = (Date.now() - started) / 1000;
  return subject;
}

async function stop(subject: Subject): Promise<void> {
  if (subject.child.exitCode === null) {
    const exited = new Promise((resolve) => subject.child.once('exit', resolve));
    subject.child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (subject.child.exitCode === null) subject.child.kill('SIGKILL');
  }
  await subject.cleanup();
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Samples every subject together for `seconds`, once a second. */
async function sampleAll(subjects: Subject[], seconds: number): Promise<Sample[]> {
  const pids = subjects.map((subject) => subject.child.pid!);
  const rss: number[][] = subjects.map(() => []);
  const ticksBefore = pids.map(cpuTicks);
  const sleepsBefore = pids.map(mainThreadSleeps);
  const started = process.hrtime.bigint();
  for (let second = 0; second < seconds; second++) {
    await sleep(1_000);
    pids.forEach((pid, index) => rss[index]!.push(statusKb(pid, 'VmRSS')));
  }
  const elapsedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  return subjects.map((subject, index) => {
    const pid = pids[index]!;
    const samples = rss[index]!;
    return {
      name: subject.name,
      cpuPercent: (100 * (cpuTicks(pid) - ticksBefore[index]!)) / TICKS_PER_SECOND / elapsedSeconds,
      rssMeanMb: samples.reduce((sum, kb) => sum + kb, 0) / samples.length / 1024,
      rssMaxMb: Math.max(...samples) / 1024,
      peakRssMb: statusKb(pid, 'VmHWM') / 1024,
      wakeupsPerSecond: (mainThreadSleeps(pid) - sleepsBefore[index]!) / elapsedSeconds,
      bootSeconds: subject.bootSeconds,
    };
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '60' }, settle: { type: 'string', default: '10' } },
  });
  const seconds = Number(values.seconds);
  const settleSeconds = Number(values.settle);
  if (!(Number.isInteger(seconds) && seconds > 0 && settleSeconds >= 0))
    throw new Error('--seconds must be a whole positive number and --settle not negative');
  if (!existsSync(MAIN)) throw new Error('build/server/main.js is missing: run `npm run build` first');

  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const scratch = `idle_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const scratchUrl = new URL(serverUrl);
  scratchUrl.pathname = `/${scratch}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-idle-'));
  const subjects: Subject[] = [];
  try {
    const referencePort = await freePort();
    subjects.push(await start('hono hello (reference)', [REFERENCE, String(referencePort)], {}, referencePort, async () => {}));
    const pglitePort = await freePort();
    subjects.push(
      await start('ours, PGlite', [MAIN], { DATA_DIR: dataDir }, pglitePort, async () =>
        rmSync(dataDir, { recursive: true, force: true }),
      ),
    );
    await adminQuery(serverUrl, `CREATE DATABASE ${scratch}`);
    const postgresPort = await freePort();
    subjects.push(
      await start('ours, PostgreSQL', [MAIN], { DATABASE_URL: scratchUrl.href }, postgresPort, () =>
        adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`),
      ),
    );
    console.log(`booted; settling ${settleSeconds} s, then sampling ${seconds} s with no traffic`);
    await sleep(settleSeconds * 1_000);
    const samples = await sampleAll(subjects, seconds);
    const reference = samples[0]!;
    console.log(
      `${'process'.padEnd(24)} ${'CPU %'.padStart(7)} ${'RSS mean'.padStart(9)} ${'RSS max'.padStart(8)} ${'peak RSS'.padStart(9)} ${'× ref RSS'.padStart(9)} ${'wakes/s'.padStart(8)} ${'boot s'.padStart(7)}  target (< ${TARGET_CPU_PERCENT} %, < ${TARGET_RSS_MB} MB)`,
    );
    const results = samples.map((sample, index) => {
      const isOurs = index > 0;
      const isMet = sample.cpuPercent < TARGET_CPU_PERCENT && sample.rssMaxMb < TARGET_RSS_MB;
      console.log(
        `${sample.name.padEnd(24)} ${sample.cpuPercent.toFixed(2).padStart(7)} ${sample.rssMeanMb.toFixed(0).padStart(6)} MB ${sample.rssMaxMb.toFixed(0).padStart(5)} MB ${sample.peakRssMb.toFixed(0).padStart(6)} MB ${(sample.rssMeanMb / reference.rssMeanMb).toFixed(2).padStart(9)} ${sample.wakeupsPerSecond.toFixed(0).padStart(8)} ${sample.bootSeconds.toFixed(1).padStart(7)}  ${isOurs ? (isMet ? 'met' : 'NOT MET') : ''}`,
      );
      return { ...sample, rssOverReference: sample.rssMeanMb / reference.rssMeanMb, ...(isOurs ? { isTargetMet: isMet } : {}) };
    });
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = join(RESULTS_DIR, 'idle.json');
    const environment = { node: process.version, cpu: cpus()[0]?.model, cores: cpus().length, loadAverage: loadavg() };
    const targets = { cpuPercent: TARGET_CPU_PERCENT, rssMb: TARGET_RSS_MB };
    writeFileSync(
      file,
      `${JSON.stringify({ at: new Date().toISOString(), seconds, settleSeconds, targets, environment, results }, null, 2)}\n`,
    );
    console.log(`results: ${file}`);
  } finally {
    for (const subject of subjects.reverse()) await stop(subject).catch((error: unknown) => console.error(error));
  }
}

await main();
