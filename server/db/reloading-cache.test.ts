/**
 * Issue 12: the site and content caches reload with one caller at a time (no thundering herd),
 * answer the old value while a reload past its age runs, and never answer or keep a value an
 * invalidation (an operator's edit) made old.
 */
import { describe, expect, it } from 'vitest';
import { createReloadingCache } from './reloading-cache';

/** A load the test finishes by hand, counting how often it was started. */
function manualLoads<T>() {
  const pending: ((value: T) => void)[] = [];
  return {
    load: () => new Promise<T>((resolve) => pending.push(resolve)),
    get started() {
      return pending.length;
    },
    finish: (index: number, value: T) => pending[index]?.(value),
  };
}

describe('the reloading cache (issue 12: caches with single-flight reload and serve-stale-while-reloading)', () => {
  it('runs one load for many callers asking at once, and gives them all its value', async () => {
    const cache = createReloadingCache({ maxAgeMs: 60_000, maxEntries: 10 });
    const loads = manualLoads<number>();
    const answers = Promise.all(Array.from({ length: 20 }, () => cache.get('key', loads.load)));
    expect(loads.started).toBe(1);
    loads.finish(0, 7);
    expect(await answers).toEqual(Array(20).fill(7));
    expect(await cache.get('key', loads.load)).toBe(7);
    expect(loads.started).toBe(1);
  });

  it('answers the old value past its age while exactly one reload runs, then the new one', async () => {
    const cache = createReloadingCache({ maxAgeMs: 0, maxEntries: 10 });
    const loads = manualLoads<string>();
    const first = cache.get('key', loads.load);
    loads.finish(0, 'old');
    expect(await first).toBe('old');
    const during = await Promise.all([cache.get('key', loads.load), cache.get('key', loads.load)]);
    expect(during).toEqual(['old', 'old']);
    expect(loads.started).toBe(2);
    loads.finish(1, 'new');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await cache.get('key', loads.load)).toBe('new');
  });

  it('after invalidate() never answers the old value, and drops a load that started before it', async () => {
    const cache = createReloadingCache({ maxAgeMs: 60_000, maxEntries: 10 });
    const loads = manualLoads<string>();
    const first = cache.get('key', loads.load);
    loads.finish(0, 'v1');
    expect(await first).toBe('v1');

    cache.invalidate();
    const afterEdit = cache.get('key', loads.load);
    expect(loads.started).toBe(2);
    // A second edit lands while the reload runs: what that reload read may predate it.
    cache.invalidate();
    const afterSecondEdit = cache.get('key', loads.load);
    expect(loads.started).toBe(3);
    loads.finish(1, 'read before the second edit');
    loads.finish(2, 'v3');
    expect(await afterEdit).toBe('read before the second edit');
    expect(await afterSecondEdit).toBe('v3');
    expect(await cache.get('key', loads.load)).toBe('v3');
    expect(loads.started).toBe(3);
  });

  it('passes a failed first load to its callers and tries again on the next call', async () => {
    const cache = createReloadingCache({ maxAgeMs: 60_000, maxEntries: 10 });
    await expect(cache.get('key', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.get('key', async () => 'back')).toBe('back');
  });
});
