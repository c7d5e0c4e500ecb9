/**
 * Two-process races on PostgreSQL for money paths (developer guide: "Money/security state changes
 * get a race test (parallel calls; two processes on PostgreSQL where relevant)"). Each side is
 * test/race-worker.ts in its own Node process with its own connection pool; both are told to go
 * at the same moment, each runs its calls at once, and the outcomes come back per side.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORKER = fileURLToPath(new URL('./race-worker.ts', import.meta.url));

export type RaceCall =
  | {
      op: 'place';
      siteId: string;
      userId: number;
      currency: string;
      selections: { eventId: string; marketKey: string; outcomeId: string; oddsUnits: string }[];
      betType: { kind: string };
      stakeMinor: string;
      requestId: string;
    }
  | { op: 'withdraw'; userId: number; amount: string }
  | { op: 'deposit'; siteId: string; paymentId: string; amountMinor: string };

export interface RaceJob {
  url: string;
  calls: RaceCall[];
}

export type RaceOutcome = { ok: true; id: string } | { ok: false; type: string; data?: Record<string, unknown> };

interface Side {
  child: ChildProcess;
  ready: Promise<void>;
  result: Promise<RaceOutcome[]>;
}

function startSide(job: RaceJob): Side {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(job)], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith('ready\n')) markReady();
  });
  const result = new Promise<RaceOutcome[]>((resolve, reject) => {
    child.once('exit', (code) => {
      const line = out.split('\n').find((text) => text.startsWith('['));
      if (code === 0 && line) resolve(JSON.parse(line) as RaceOutcome[]);
      else reject(new Error(`race worker exited with ${code}:\n${err}${out}`));
    });
  });
  // A worker that dies before it is ready fails the race instead of hanging it.
  void result.catch(() => markReady());
  return { child, ready, result };
}

/** Runs each job in its own process, started together; the outcomes per side, in the order of the jobs. */
export async function raceInProcesses(jobs: readonly RaceJob[]): Promise<RaceOutcome[][]> {
  const sides = jobs.map(startSide);
  try {
    await Promise.all(sides.map((side) => side.ready));
    for (const side of sides) side.child.stdin?.write('go\n');
    return await Promise.all(sides.map((side) => side.result));
  } finally {
    for (const side of sides) if (side.child.exitCode === null && side.child.signalCode === null) side.child.kill('SIGKILL');
  }
}
