/**
 * Prometheus metrics at /metrics (architecture §2: prom-client). One registry per app.
 *
 * Who may scrape (issue 11): on the site's listener only a holder of METRICS_TOKEN, because behind
 * a reverse proxy on the same host every visitor arrives from loopback; without a token the site's
 * listener does not serve metrics at all. An operator who wants no token binds a separate private
 * listener (METRICS_PORT on METRICS_HOST, loopback by default) that serves /metrics and nothing else.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { serve } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import type { Logger } from 'pino';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ApiError } from '#common/errors';
import { createBusyLoopDelay } from './busy-loop-delay';

/** nginx's code for a request the client gave up on: nobody got an answer, and it is not our error. */
export const CLIENT_CLOSED_REQUEST = 499;

/** Groups paths into a few kinds so the label set stays small. */
function pathKind(path: string): string {
  if (path.startsWith('/api/')) return 'api';
  if (path.startsWith('/assets/')) return 'asset';
  if (path.startsWith('/nfx/')) return 'config';
  if (path.startsWith('/cms/')) return 'content';
  return 'page';
}

/** How often prom-client's own event-loop lag sampler wakes the process (its eventLoopMonitoringPrecision). */
const EVENT_LOOP_MONITORING_MS = 1000;

/**
 * What one group-commit queue (db/call-sharing.ts) has done since the process started: the
 * database calls it made and the items (rounds, ledger groups) they carried, and where it counts
 * them, the calls that failed as a whole (their items then went one by one). Items per call is how
 * much the sharing saves: an operator reads it beside the request rates (issue 12).
 */
export interface SharedCallStats {
  calls: number;
  items: number;
  failedCalls?: number;
}

/** The queues to report, by name; a queue this process does not run answers undefined. */
export type SharedCallSources = Record<string, () => SharedCallStats | undefined>;

/** Counters read from the queues' own tallies when scraped, so counting costs the queues nothing. */
function registerSharedCalls(registry: Registry, sources: () => SharedCallSources): void {
  const tallied = (name: string, help: string, pick: (stats: SharedCallStats) => number | undefined) =>
    new Counter({
      name,
      help,
      labelNames: ['queue'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [queue, statsOf] of Object.entries(sources())) {
          const stats = statsOf();
          const value = stats && pick(stats);
          if (value !== undefined) this.inc({ queue }, value);
        }
      },
    });
  tallied('shared_calls_total', 'Database calls made by the group-commit queues', (stats) => stats.calls);
  tallied('shared_call_items_total', 'Items (rounds, ledger groups) the group-commit calls carried', (stats) => stats.items);
  tallied('shared_calls_failed_total', 'Group-commit calls that failed as a whole', (stats) => stats.failedCalls);
}

export function createMetrics() {
  const registry = new Registry();
  let sharedCallSources: SharedCallSources = {};
  registerSharedCalls(registry, () => sharedCallSources);
  // The event-loop lag histogram samples with a timer that wakes the process even when it is idle:
  // prom-client's 10 ms woke an idle server about 175 times a second, and 100 ms still ten times
  // (issue 12: idle under 1 % of a core). At one second it sees every stall longer than that; the
  // finer figures come from a watch that runs only while answers are being made (busy-loop-delay.ts).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_MONITORING_MS });
  const busyLoopDelay = createBusyLoopDelay(registry);
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests',
    labelNames: ['kind', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['kind'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // Each label set's child, found once: labelling by object hashes the labels on every request (issue 12).
  const counted = new Map<string, { inc(): void }>();
  const timed = new Map<string, { observe(value: number): void }>();
  return {
    observe(path: string, status: number, durationMs: number) {
      busyLoopDelay.noteActivity();
      const kind = pathKind(path);
      const key = `${kind} ${status}`;
      let counter = counted.get(key);
      if (!counter) counted.set(key, (counter = requests.labels({ kind, status: String(status) })));
      counter.inc();
      let timer = timed.get(kind);
      if (!timer) timed.set(kind, (timer = duration.labels({ kind })));
      timer.observe(durationMs / 1000);
    },
    /** The group-commit queues whose calls /metrics reports (the app's services; a later call replaces them). */
    watchSharedCalls(sources: SharedCallSources): void {
      sharedCallSources = sources;
    },
    render: () => registry.metrics(),
    /** Whether the busy-time delay watch runs, and stopping it (a closing process). */
    busyLoopDelay,
    contentType: registry.contentType,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** What became of one request, for the metrics and the access log. */
export interface AnsweredRequest {
  /** The caller's X-Request-Id, if it sent one (a new id is made for the log otherwise). */
  requestId: string | undefined;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

/** Counts an answer and writes its access-log line: the same for the app's requests and the API's lane. */
export function recordAnswer(metrics: Metrics, logger: Logger, answered: AnsweredRequest): void {
  const { method, path, status, durationMs } = answered;
  metrics.observe(path, status, durationMs);
  // The id is made only for a line that is written: most processes log at warn.
  if (!logger.isLevelEnabled('info')) return;
  const reqId = answered.requestId ?? randomUUID();
  logger.info({ reqId, method, path, status, ms: Math.round(durationMs) }, 'request');
}

/** Compares digests, so the time taken says nothing about how much of the token matched. */
function isBearerOf(header: string | undefined, token: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(header ?? ''), digest(`Bearer ${token}`));
}

async function metricsAnswer(c: Context, metrics: Metrics): Promise<Response> {
  return c.text(await metrics.render(), 200, { 'Content-Type': metrics.contentType });
}

/** GET /metrics on the site's listener: only with the token; without one configured, to no one. */
export function metricsOnSiteListener(metrics: Metrics, token: string | undefined) {
  return async (c: Context): Promise<Response> => {
    if (!token || !isBearerOf(c.req.header('authorization'), token))
      return c.json({ error: new ApiError('AccessDeniedException', 'Access denied').toBody() }, 403);
    return metricsAnswer(c, metrics);
  };
}

/** The private listener's app: /metrics without a token, nothing else. */
export function createPrivateMetricsApp(metrics: Metrics) {
  const app = new Hono();
  app.get('/metrics', (c) => metricsAnswer(c, metrics));
  app.notFound((c) => c.json({ error: new ApiError('MethodNotFoundException', 'Not found').toBody() }, 404));
  return app;
}

/** Starts the private metrics listener when METRICS_PORT is set; returns how to stop it. */
export function startPrivateMetricsListener(
  metrics: Metrics,
  listen: { port: number | undefined; host: string },
  logger: Logger,
): () => void {
  if (listen.port === undefined) return () => {};
  const server = serve({ fetch: createPrivateMetricsApp(metrics).fetch, port: listen.port, hostname: listen.host }, (info) =>
    logger.info({ url: `http://${listen.host}:${info.port}/metrics` }, 'metrics listener is up'),
  );
  return () => server.close();
}
