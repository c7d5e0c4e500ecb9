/**
 * A per-process cache of values read from the database that every page needs (sites, configuration,
 * translations, content lists), built so that a busy process never stampedes the database and an
 * operator's edit still shows at once (issue 12):
 *
 * - single flight: while a key loads, every other caller waits for that one load;
 * - stale while reloading: a value past maxAgeMs is still answered while one reload runs behind it
 *   (maxAgeMs is only the safety net for a lost change notification);
 * - invalidate(): called when the database says the rows changed (cache-notifications.ts). From then
 *   on nobody is answered the old value, and a load that started before the change is not stored,
 *   because it may have read the rows before the change was committed.
 */
export interface ReloadingCache {
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  invalidate(): void;
  /** Counts invalidations: what was derived from the cached values in an older version is outdated. */
  version(): number;
}

interface Entry {
  value?: unknown;
  hasValue: boolean;
  loadedAt: number;
  /** The invalidation generation the value was loaded in. */
  generation: number;
  loading?: { promise: Promise<unknown>; generation: number };
}

export function createReloadingCache(options: { maxAgeMs: number; maxEntries: number }): ReloadingCache {
  const entries = new Map<string, Entry>();
  let generation = 0;

  function startLoad(key: string, entry: Entry, load: () => Promise<unknown>): Promise<unknown> {
    const startedIn = generation;
    const promise = load().then(
      (value) => {
        // A change committed while this load ran may not be in what it read: keep it out of the cache.
        if (startedIn === generation)
          Object.assign(entry, { value, hasValue: true, loadedAt: Date.now(), generation: startedIn });
        if (entry.loading?.promise === promise) entry.loading = undefined;
        return value;
      },
      (error: unknown) => {
        if (entry.loading?.promise === promise) entry.loading = undefined;
        throw error;
      },
    );
    entry.loading = { promise, generation: startedIn };
    if (!entries.has(key)) {
      // Keys include visitors' filters, so the cache is bounded rather than trusted to stay small.
      if (entries.size >= options.maxEntries) entries.clear();
      entries.set(key, entry);
    }
    return promise;
  }

  return {
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const entry = entries.get(key) ?? { hasValue: false, loadedAt: 0, generation: -1 };
      const isCurrent = entry.hasValue && entry.generation === generation;
      if (isCurrent && Date.now() - entry.loadedAt < options.maxAgeMs) return entry.value as T;
      const inFlight = entry.loading?.generation === generation ? entry.loading.promise : undefined;
      if (isCurrent) {
        // Old but not invalidated: answer it now, reload once behind it; a failed reload keeps it.
        if (!inFlight) startLoad(key, entry, load).catch(() => undefined);
        return entry.value as T;
      }
      return (inFlight ?? startLoad(key, entry, load)) as Promise<T>;
    },
    invalidate() {
      generation += 1;
    },
    version: () => generation,
  };
}
