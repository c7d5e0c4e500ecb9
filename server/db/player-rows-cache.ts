/**
 * A per-process cache of the rows every signed-in request reads about its player: the session's
 * account row, the login contact's subscription, the loyalty account, the liked games (issue 12:
 * a signed-in page read them on every render, four statements of its five).
 *
 * It is correct across processes and against its own requests:
 * - the database NOTIFYs 'cache_change' with the table's name on any change to those tables
 *   (migration 0022), and every process then drops everything (`invalidate`);
 * - this process drops a player's rows itself right after a request of theirs changed something
 *   (`forgetPlayer`), so the answer to their next request never waits on the notification;
 * - a read that started before either event is not stored: it may have seen the rows before the
 *   change committed (each event takes a sequence number; a read remembers the one it started at).
 * Balances are kept in a cache of their own (services.ts): they change with every bet, so each
 * change names its players (migration 0031) and only theirs are dropped.
 */
export interface PlayerRowsCache {
  /**
   * The value under `key`, loaded when missing or outdated. `ownerOf` names the player the value
   * belongs to (undefined: nobody's, e.g. an unknown session, which is not kept); `validUntil`
   * (epoch ms) ends its life early, e.g. the session's expiry; `isCurrent` may refuse a kept value
   * for this read, which then loads and keeps a new one.
   */
  get<T>(key: string, load: () => Promise<T>, rule: CacheRule<T>): Promise<T>;
  /** A request of this player changed something of theirs: their rows are read afresh. */
  forgetPlayer(userId: number): void;
  /** The database says a watched table changed: everything is read afresh. */
  invalidate(): void;
}

export interface CacheRule<T> {
  ownerOf: (value: T) => number | undefined;
  validUntil?: (value: T) => number;
  /** False when the kept value no longer answers this read (e.g. a kept answer's balances moved): it is loaded again. */
  isCurrent?: (value: T) => boolean;
}

interface Entry {
  value: unknown;
  owner: number;
  storedAt: number;
  validUntil: number;
}

export interface PlayerRowsCacheOptions {
  maxAgeMs: number;
  maxEntries: number;
  /**
   * Caches of what was made from this one's values (the kept answers, api/kept-answers.ts): they drop
   * a player's entries whenever this one does, and everything whenever this one does, so nothing
   * made from a dropped value outlives it.
   */
  dependents?: readonly Pick<PlayerRowsCache, 'forgetPlayer' | 'invalidate'>[];
}

export function createPlayerRowsCache(options: PlayerRowsCacheOptions): PlayerRowsCache {
  const dependents = options.dependents ?? [];
  const entries = new Map<string, Entry>();
  const keysOfOwner = new Map<number, Set<string>>();
  /** Every invalidation or forgetting takes the next number; a read remembers the one it started at. */
  let sequence = 0;
  let invalidatedAt = 0;
  /** Each player forgotten while a read that started before it may still be in flight, oldest first. */
  const forgottenAt = new Map<number, number>();
  /** Reads in flight by the number they started at: ascending in insertion order, as the numbers only grow. */
  const readsStartedAt = new Map<number, number>();
  /** The read in flight for each key, which a get asking for the same key with nothing forgotten since joins. */
  const loading = new Map<string, { startedAt: number; value: Promise<unknown> }>();

  function dropAll(): void {
    for (const dependent of dependents) dependent.invalidate();
    entries.clear();
    keysOfOwner.clear();
    forgottenAt.clear();
    sequence += 1;
    invalidatedAt = sequence;
  }

  function readEnded(startedAt: number): void {
    const count = readsStartedAt.get(startedAt) ?? 1;
    if (count > 1) readsStartedAt.set(startedAt, count - 1);
    else readsStartedAt.delete(startedAt);
  }

  /** Drops the forgettings no read in flight started before: they can refuse nothing any more. */
  function forgetOutlived(): void {
    const oldestRead = readsStartedAt.keys().next().value ?? Number.POSITIVE_INFINITY;
    for (const [userId, at] of forgottenAt) {
      if (at > oldestRead) return;
      forgottenAt.delete(userId);
    }
  }

  function drop(key: string, entry: Entry): void {
    entries.delete(key);
    const keys = keysOfOwner.get(entry.owner);
    keys?.delete(key);
    if (keys?.size === 0) keysOfOwner.delete(entry.owner);
  }

  /**
   * Bounded rather than trusted to stay small: when full, the longest kept entries make room (a
   * Map iterates in insertion order). Only room is made: nothing changed, so the entries made
   * from them (dependents) stay, and no read in flight is refused. Emptying it all instead sent
   * every player's next request to the database at once whenever more players were active than
   * it holds.
   */
  function makeRoom(): void {
    for (const [key, entry] of entries) {
      if (entries.size < options.maxEntries) return;
      drop(key, entry);
    }
  }

  function store(key: string, value: unknown, owner: number, validUntil: number): void {
    const kept = entries.get(key);
    if (kept) drop(key, kept);
    else if (entries.size >= options.maxEntries) makeRoom();
    entries.set(key, { value, owner, storedAt: Date.now(), validUntil });
    let keys = keysOfOwner.get(owner);
    if (!keys) keysOfOwner.set(owner, (keys = new Set()));
    keys.add(key);
  }

  /** Loads the value and keeps it, unless something it may be made from was forgotten while it was read. */
  async function loadAndKeep<T>(key: string, load: () => Promise<T>, rule: CacheRule<T>): Promise<T> {
    const startedAt = sequence;
    readsStartedAt.set(startedAt, (readsStartedAt.get(startedAt) ?? 0) + 1);
    let value: T;
    try {
      value = await load();
    } finally {
      readEnded(startedAt);
    }
    const owner = rule.ownerOf(value);
    const isOutdated = invalidatedAt > startedAt || (owner !== undefined && (forgottenAt.get(owner) ?? 0) > startedAt);
    if (owner !== undefined && !isOutdated) {
      store(key, value, owner, rule.validUntil?.(value) ?? Number.POSITIVE_INFINITY);
    }
    return value;
  }

  return {
    async get<T>(key: string, load: () => Promise<T>, rule: CacheRule<T>): Promise<T> {
      const now = Date.now();
      const entry = entries.get(key);
      if (entry) {
        const isFresh = now < entry.validUntil && now - entry.storedAt < options.maxAgeMs;
        if (isFresh && (rule.isCurrent?.(entry.value as T) ?? true)) return entry.value as T;
        drop(key, entry);
      }
      // Requests that ask together (a page's calls, a burst after a bet) share one read: it started
      // after everything forgotten so far, so its value is one this cache would keep for them.
      const inFlight = loading.get(key);
      if (inFlight?.startedAt === sequence) return inFlight.value as Promise<T>;
      const value = loadAndKeep(key, load, rule);
      const read = { startedAt: sequence, value };
      loading.set(key, read);
      try {
        return await value;
      } finally {
        if (loading.get(key) === read) loading.delete(key);
      }
    },

    forgetPlayer(userId: number): void {
      for (const dependent of dependents) dependent.forgetPlayer(userId);
      sequence += 1;
      forgetOutlived();
      // Only a read that started before this moment can hold the player's rows as they were.
      if (readsStartedAt.size > 0) {
        // A read hung for long may outlive many forgettings: past the bound, everything is read again.
        if (forgottenAt.size >= options.maxEntries) return dropAll();
        forgottenAt.delete(userId);
        forgottenAt.set(userId, sequence);
      }
      for (const key of keysOfOwner.get(userId) ?? []) entries.delete(key);
      keysOfOwner.delete(userId);
    },

    invalidate: dropAll,
  };
}
