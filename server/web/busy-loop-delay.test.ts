/**
 * Issue 12 "an idle server under 1 % of a core" and "/metrics": the fine event-loop delay watch
 * runs only while answers are being made, stops after a quiet spell, starts again with the next
 * answer, and its figures reach /metrics.
 */
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBusyLoopDelay } from './busy-loop-delay';
import { createMetrics } from './metrics';

/** The gauges' values in one scrape (each scrape starts the watch's figures over). */
async function scrape(registry: Registry): Promise<Record<string, number>> {
  const values: Record<string, number> = {};
  for (const match of (await registry.metrics()).matchAll(/^(nodejs_eventloop_busy_\w+) (\S+)$/gm))
    values[match[1]!] = Number(match[2]);
  return values;
}

/** Holds the thread, as a slow render would. */
function holdThread(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('the busy-time event loop delay watch (issue 12: idle is idle)', () => {
  afterEach(() => vi.useRealTimers());

  it('is off until an answer is made, and off again after the quiet spell', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const watch = createBusyLoopDelay(new Registry(), { idleAfterMs: 1_000 });
    expect(watch.isWatching()).toBe(false);
    watch.noteActivity();
    expect(watch.isWatching()).toBe(true);
    // Answers keep it on: the quiet spell counts from the last one.
    vi.advanceTimersByTime(800);
    watch.noteActivity();
    vi.advanceTimersByTime(800);
    expect(watch.isWatching()).toBe(true);
    vi.advanceTimersByTime(300);
    expect(watch.isWatching()).toBe(false);
    watch.noteActivity();
    expect(watch.isWatching()).toBe(true);
    watch.stop();
    expect(watch.isWatching()).toBe(false);
  });

  it('reports what it saw while busy to the next scrape, then starts over', async () => {
    const registry = new Registry();
    const watch = createBusyLoopDelay(registry, { resolutionMs: 10 });
    expect(await scrape(registry)).toMatchObject({ nodejs_eventloop_busy_watch: 0, nodejs_eventloop_busy_delay_max_seconds: 0 });
    watch.noteActivity();
    // Let the watch take samples around a stall of the thread.
    await new Promise((resolve) => setTimeout(resolve, 50));
    holdThread(60);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const busy = await scrape(registry);
    expect(busy.nodejs_eventloop_busy_watch).toBe(1);
    expect(busy.nodejs_eventloop_busy_delay_max_seconds).toBeGreaterThan(0);
    expect(busy.nodejs_eventloop_busy_delay_p99_seconds).toBeGreaterThan(0);
    expect(busy.nodejs_eventloop_busy_delay_mean_seconds).toBeGreaterThan(0);
    watch.stop();
    // The scrape above took the figures; a stopped watch has nothing new.
    expect(await scrape(registry)).toMatchObject({ nodejs_eventloop_busy_watch: 0, nodejs_eventloop_busy_delay_max_seconds: 0 });
  });

  it("an answer counted in the app's metrics starts the watch", async () => {
    const metrics = createMetrics();
    expect(metrics.busyLoopDelay.isWatching()).toBe(false);
    metrics.observe('/api/account.getInfo', 200, 3);
    expect(metrics.busyLoopDelay.isWatching()).toBe(true);
    expect(await metrics.render()).toMatch(/^nodejs_eventloop_busy_watch 1$/m);
    metrics.busyLoopDelay.stop();
  });
});
