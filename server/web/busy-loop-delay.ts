/**
 * The event loop's delay while the server is answering requests, for /metrics (issue 12: an idle
 * server under 1 % of a core).
 *
 * Why a watch of our own: a delay sampler wakes the process at its resolution whether or not
 * anything happens. prom-client's, at 100 ms, was ten of an idle server's thirteen wake-ups a
 * second, and on a virtual machine where waking costs about 0.3 ms of CPU (an empty 13-a-second
 * timer there used 0.47 % of a core) it was most of the idle server's CPU. So prom-client's own
 * sampler now runs at one second (it still sees every stall longer than that), and this one, at
 * 20 ms, runs only while answers are being made: the first answer starts it, and it stops once
 * IDLE_AFTER_MS pass without one. Its figures cover the busy time since the last scrape.
 */
import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

/** The watch's sampling interval while the server is busy. */
const BUSY_RESOLUTION_MS = 20;
/** How long without an answer before the watch stops. */
const IDLE_AFTER_MS = 10_000;

export interface BusyLoopDelay {
  /** An answer was made: the watch runs (again) until IDLE_AFTER_MS pass without one. */
  noteActivity(): void;
  isWatching(): boolean;
  /** Stops the watch at once, until the next answer. */
  stop(): void;
}

export function createBusyLoopDelay(
  registry: Registry,
  options: { resolutionMs?: number; idleAfterMs?: number } = {},
): BusyLoopDelay {
  const resolutionMs = options.resolutionMs ?? BUSY_RESOLUTION_MS;
  const idleAfterMs = options.idleAfterMs ?? IDLE_AFTER_MS;
  /** What the watch saw since the last scrape; kept after it stops, until that scrape reads it. */
  let histogram: ELDHistogram | undefined;
  let isRunning = false;
  let lastActivity = 0;
  let idleCheck: NodeJS.Timeout | undefined;

  function checkIdle(): void {
    const quietFor = performance.now() - lastActivity;
    if (quietFor >= idleAfterMs) return stop();
    idleCheck = setTimeout(checkIdle, idleAfterMs - quietFor);
    idleCheck.unref();
  }

  function stop(): void {
    clearTimeout(idleCheck);
    idleCheck = undefined;
    histogram?.disable();
    isRunning = false;
  }

  const gauge = (name: string, help: string, collect?: () => void) =>
    new Gauge({ name, help, registers: [registry], ...(collect ? { collect } : {}) });
  // Registered first: a scrape writes the gauges in order, so this one's collect must set the others before they are written.
  gauge('nodejs_eventloop_busy_watch', 'Whether the busy-time delay watch runs (1) or not (0)', function collect(this: Gauge) {
    this.set(isRunning ? 1 : 0);
    // An empty histogram's min and mean are not numbers worth showing: nothing seen reads as 0.
    const seen = histogram && histogram.count > 0 ? histogram : undefined;
    max.set(seen ? seen.max / 1e9 : 0);
    mean.set(seen ? seen.mean / 1e9 : 0);
    p99.set(seen ? seen.percentile(99) / 1e9 : 0);
    histogram?.reset();
  });
  const max = gauge('nodejs_eventloop_busy_delay_max_seconds', 'Longest event loop delay seen while answering requests');
  const mean = gauge('nodejs_eventloop_busy_delay_mean_seconds', 'Mean event loop delay while answering requests');
  const p99 = gauge(
    'nodejs_eventloop_busy_delay_p99_seconds',
    '99th percentile of the event loop delay while answering requests',
  );

  return {
    noteActivity(): void {
      lastActivity = performance.now();
      if (isRunning) return;
      histogram ??= monitorEventLoopDelay({ resolution: resolutionMs });
      histogram.enable();
      isRunning = true;
      idleCheck = setTimeout(checkIdle, idleAfterMs);
      idleCheck.unref();
    },
    isWatching: () => isRunning,
    stop,
  };
}
