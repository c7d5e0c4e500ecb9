/**
 * A phone's main thread while a page loads, read from Chromium's own trace, to compare builds on a
 * machine too noisy for single Lighthouse runs (issue 12: Lighthouse ≥ 95 is mostly its blocking
 * time). Lighthouse's score cannot tell two builds apart here: its CPU benchmark moved between 936
 * and 2 603 within minutes on one machine. Loading the builds in turn, round after round, puts the
 * machine's moods on both alike, and the medians compare.
 *
 *   npm run build && npm run bench:main-thread                        this checkout, `/` and `/gamehall`
 *   npm run bench:main-thread -- --builds /tmp/before,. --rounds 8    two checkouts, each built
 *   npm run bench:main-thread -- --pages /,/it,game --cpu 4           a game page; CDP's 4× slowdown
 *   npm run bench:main-thread -- --without /platform/art/             each build also without the art
 *
 * Each build is a checkout holding its own `build/` (a git worktree of another revision, with
 * `npm ci` or node_modules linked, then `npm run build`). Each gets a server of its own (PGlite in a
 * temporary folder, 127.0.0.1), loaded once unmeasured. Then every round loads every page of every
 * build (the builds' order alternating between rounds) in a fresh context of one Chromium: a phone's
 * screen and touch, no cache, service workers blocked, no network throttling, the CPU slowed by
 * `--cpu` (default 1). The trace of each load (the categories Lighthouse records) gives, for the
 * page's renderer main thread from the navigation until `--settle-ms` after `load`:
 *
 * - busy: the sum of its tasks (`RunTask`), ms;
 * - blocking: Lighthouse's total blocking time on those tasks as a 4× slower phone would run them,
 *   Σ max(0, 4 × task − 50 ms) over the tasks that end after the first contentful paint (with
 *   `--cpu 4` the tasks are already slowed and the factor is 1);
 * - longest: the longest task, ms; tasks: how many;
 * - with `--breakdown`, the tasks' time by the trace's events (ParseHTML, EvaluateScript,
 *   FunctionCall, Layout, Paint, …), each counted for its own time less the events inside it,
 *   medians over the loads.
 *
 * With `--without <path prefix>`, every build is also loaded with the requests under that prefix
 * refused, in the same rounds, so the difference is what those resources cost the main thread.
 *
 * Prints the medians per build and page and writes bench/results/main-thread.json. The figures are
 * this machine's, for comparing builds within one run; Lighthouse (bench/lighthouse.ts) is the score.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_LAUNCHER } from '../e2e/chromium';
import { GAME_PAGE, RESULTS_DIR, ROOT, gamePagePath, startServer, stop, type Started } from './lighthouse';

/** What Lighthouse's trace records, so the tasks are those Lighthouse would count. */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink',
  'loading',
  'toplevel',
  'blink.user_timing',
];
/** Lighthouse's mobile screen (a Moto G Power). */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
/** A task shorter than this blocks nothing (Lighthouse's long-task threshold). */
const LONG_TASK_MS = 50;
/** How many kinds of work `--breakdown` prints per page (the JSON keeps them all). */
const BREAKDOWN_LINES = 16;
/** Lighthouse's simulated phone runs the page this many times slower than the host. */
const LIGHTHOUSE_CPU_SLOWDOWN = 4;

interface Options {
  builds: string[];
  pages: string[];
  rounds: number;
  cpu: number;
  settleMs: number;
  breakdown: boolean;
  /** Also load each build with the requests under this path prefix refused. */
  without: string | undefined;
}

interface Load {
  busyMs: number;
  blockingMs: number;
  longestMs: number;
  tasks: number;
  /** The tasks' time by what they ran (the trace's events directly inside a task), ms. */
  breakdown: Record<string, number>;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { data?: { documentLoaderURL?: string }; beginData?: { url?: string } };
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      builds: { type: 'string', default: '.' },
      pages: { type: 'string', default: '/,/gamehall' },
      rounds: { type: 'string', default: '8' },
      cpu: { type: 'string', default: '1' },
      'settle-ms': { type: 'string', default: '2000' },
      breakdown: { type: 'boolean', default: false },
      without: { type: 'string' },
    },
  });
  const number = (name: string, value: string) => {
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`--${name} must be a positive number`);
    return parsed;
  };
  return {
    builds: values.builds.split(',').map((build) => resolve(ROOT, build)),
    pages: values.pages.split(','),
    rounds: Math.round(number('rounds', values.rounds)),
    cpu: number('cpu', values.cpu),
    settleMs: number('settle-ms', values['settle-ms']),
    breakdown: values.breakdown,
    without: values.without,
  };
}

/**
 * The page's main thread: where the navigation to an http document started, or where its document
 * was parsed (a renderer started for the navigation sometimes records no navigationStart).
 */
function measure(events: TraceEvent[], cpu: number): Load {
  const start =
    events.find((event) => event.name === 'navigationStart' && event.args?.data?.documentLoaderURL?.startsWith('http')) ??
    firstEventOfParsingThread(events);
  if (!start) throw new Error('the trace holds no navigation to the page');
  const onMainThread = (event: TraceEvent) => event.pid === start.pid && event.tid === start.tid;
  const paint = events.find((event) => event.name === 'firstContentfulPaint' && onMainThread(event) && event.ts >= start.ts);
  const tasks = events
    .filter((event) => event.name === 'RunTask' && event.ph === 'X' && onMainThread(event) && event.ts >= start.ts)
    .map((event) => ({ end: event.ts + (event.dur ?? 0), ms: (event.dur ?? 0) / 1000 }));
  const factor = cpu >= LIGHTHOUSE_CPU_SLOWDOWN ? 1 : LIGHTHOUSE_CPU_SLOWDOWN / cpu;
  const afterPaint = tasks.filter((task) => paint === undefined || task.end > paint.ts);
  return {
    busyMs: tasks.reduce((sum, task) => sum + task.ms, 0),
    blockingMs: afterPaint.reduce((sum, task) => sum + Math.max(0, factor * task.ms - LONG_TASK_MS), 0),
    longestMs: Math.max(0, ...tasks.map((task) => task.ms)),
    tasks: tasks.length,
    breakdown: breakdown(events.filter((event) => event.ph === 'X' && onMainThread(event) && event.ts >= start.ts)),
  };
}

/** The tasks' time by event, each event's own time (its time less the events inside it). */
function breakdown(completeEvents: TraceEvent[]): Record<string, number> {
  const own: Record<string, number> = {};
  const sorted = [...completeEvents].sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const open: { name: string; end: number }[] = [];
  for (const event of sorted) {
    const ms = (event.dur ?? 0) / 1000;
    while (open.length > 0 && open[open.length - 1]!.end <= event.ts) open.pop();
    const parent = open[open.length - 1];
    if (event.name !== 'RunTask' && parent === undefined) continue; // outside every task
    if (parent) own[parent.name] = (own[parent.name] ?? 0) - ms;
    own[event.name] = (own[event.name] ?? 0) + ms;
    open.push({ name: event.name, end: event.ts + (event.dur ?? 0) });
  }
  return own;
}

/** The first event of the thread that parsed the page's document. */
function firstEventOfParsingThread(events: TraceEvent[]): TraceEvent | undefined {
  const parse = events.find((event) => event.name === 'ParseHTML' && event.args?.beginData?.url?.startsWith('http'));
  if (!parse) return undefined;
  return events
    .filter((event) => event.pid === parse.pid && event.tid === parse.tid && event.ts > 0)
    .reduce((first, event) => (event.ts < first.ts ? event : first), parse);
}

async function traceLoad(browser: Browser, url: string, options: Options, refused?: string): Promise<Load> {
  const context = await browser.newContext({ ...PHONE, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    if (refused)
      await page.route(
        (address) => address.pathname.startsWith(refused),
        (route) => route.abort(),
      );
    const cdp = await context.newCDPSession(page);
    if (options.cpu !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.cpu });
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
    const complete = new Promise<void>((done) => cdp.once('Tracing.tracingComplete', () => done()));
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: TRACE_CATEGORIES }, transferMode: 'ReportEvents' });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(options.settleMs);
    await cdp.send('Tracing.end');
    await complete;
    return measure(events, options.cpu);
  } finally {
    await context.close();
  }
}

/** The median of each kind of work over the loads, largest first. */
function medianBreakdown(runs: Load[]): Record<string, number> {
  const names = new Set(runs.flatMap((run) => Object.keys(run.breakdown)));
  const medians = [...names].map((name) => [name, Math.round(median(runs.map((run) => run.breakdown[name] ?? 0)))] as const);
  return Object.fromEntries(medians.sort((a, b) => b[1] - a[1]));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function main() {
  const options = readOptions();
  const servers: (Started & { baseUrl: string; build: string; paths: string[] })[] = [];
  const browser = await chromium.launch({ executablePath: CHROMIUM_LAUNCHER, args: CHROMIUM_FLAGS, headless: true });
  try {
    for (const build of options.builds) {
      const server = await startServer(build);
      const paths = [];
      for (const page of options.pages) paths.push(page === GAME_PAGE ? await gamePagePath(server.baseUrl) : page);
      servers.push({ ...server, build, paths });
      // Unmeasured: the server's first render of each page fills its caches.
      for (const path of paths) await traceLoad(browser, server.baseUrl + path, options);
    }
    const loads = new Map<string, Load[]>();
    for (let round = 0; round < options.rounds; round += 1) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) {
        for (const refused of [undefined, options.without].filter((variant, index) => index === 0 || variant)) {
          for (const [index, path] of server.paths.entries()) {
            const label = refused ? `${server.build} without ${refused}` : server.build;
            const key = `${label}\t${options.pages[index]}`;
            const load = await traceLoad(browser, server.baseUrl + path, options, refused);
            loads.set(key, [...(loads.get(key) ?? []), load]);
          }
        }
      }
      console.error(`round ${round + 1} of ${options.rounds}`);
    }
    report(options, loads);
  } finally {
    await browser.close();
    for (const server of servers) await stop(server);
  }
}

function report(options: Options, loads: Map<string, Load[]>) {
  const rows = [...loads].map(([key, runs]) => {
    const [build, page] = key.split('\t') as [string, string];
    return {
      build,
      page,
      busyMs: Math.round(median(runs.map((run) => run.busyMs))),
      blockingMs: Math.round(median(runs.map((run) => run.blockingMs))),
      longestMs: Math.round(median(runs.map((run) => run.longestMs))),
      tasks: median(runs.map((run) => run.tasks)),
      breakdown: medianBreakdown(runs),
      runs,
    };
  });
  console.log(`medians of ${options.rounds} loads each, CPU slowdown ${options.cpu}×, phone screen, no network throttling`);
  console.log(['build', 'page', 'busy ms', 'blocking ms', 'longest ms', 'tasks'].join('\t'));
  for (const row of rows) {
    console.log([row.build, row.page, row.busyMs, row.blockingMs, row.longestMs, row.tasks].join('\t'));
  }
  if (options.breakdown) {
    for (const row of rows) {
      const parts = Object.entries(row.breakdown).slice(0, BREAKDOWN_LINES);
      console.log(`\n${row.build} ${row.page}: ${parts.map(([name, ms]) => `${name} ${ms}`).join(', ')}`);
    }
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'main-thread.json'), JSON.stringify({ options, rows }, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
