/**
 * What a process broadcasts about its site's live tables (docs/live-games.md): one watcher a
 * table, polling the database only while someone listens, so every process (leader or not) sends
 * the same events. Events: `state` (the whole public table state: on connect, at each phase or
 * round change, when the bets count changes and when the round's bets are settled), `tick` (the
 * crash multiplier while it climbs), `result` (the crash point or the pocket, with the revealed
 * seed).
 */
import type { LiveGamesService, LiveState, LiveTable } from './service';

export type LiveEvent =
  | { event: 'state'; data: LiveState }
  | { event: 'tick'; data: { round_id: string; multiplier: number; server_time: string } }
  | { event: 'result'; data: LiveState['round'] };

type Listener = (event: LiveEvent) => void;

interface Watcher {
  listeners: Set<Listener>;
  last?: LiveState;
  timer?: ReturnType<typeof setTimeout>;
  /** Keeps the tables running while someone listens (interest.ts). */
  releaseInterest: () => void;
}

export const LIVE_POLL_MS = 150;

const keyOf = (table: LiveTable) => `${table.siteId}/${table.sysname}`;

export function createLiveEvents(service: LiveGamesService, pollMs = LIVE_POLL_MS) {
  const watchers = new Map<string, Watcher>();

  function emit(watcher: Watcher, event: LiveEvent) {
    for (const listener of watcher.listeners) listener(event);
  }

  async function poll(table: LiveTable, watcher: Watcher) {
    try {
      const state = await service.stateOf(table);
      const before = watcher.last?.round;
      const now = state.round;
      const isChanged =
        !before ||
        !now ||
        before.id !== now.id ||
        before.phase !== now.phase ||
        before.bets_count !== now.bets_count ||
        before.settled !== now.settled;
      watcher.last = state;
      if (isChanged) {
        emit(watcher, { event: 'state', data: state });
        if (now?.phase === 'result' && (before?.id !== now.id || before.phase !== 'result'))
          emit(watcher, { event: 'result', data: now });
      } else if (now?.phase === 'running' && now.multiplier !== null) {
        emit(watcher, { event: 'tick', data: { round_id: now.id, multiplier: now.multiplier, server_time: state.server_time } });
      }
    } catch {
      // The next poll tries again; listeners keep the last state.
    }
    if (watcher.listeners.size > 0) watcher.timer = setTimeout(() => void poll(table, watcher), pollMs);
    else {
      watcher.timer = undefined;
      watcher.releaseInterest();
      watchers.delete(keyOf(table));
    }
  }

  return {
    /** Listens to a table; the current state comes first. Returns the unsubscribe. */
    async subscribe(table: LiveTable, listener: Listener): Promise<() => void> {
      const key = keyOf(table);
      let watcher = watchers.get(key);
      if (!watcher) {
        watcher = { listeners: new Set(), releaseInterest: service.holdInterest() };
        watchers.set(key, watcher);
      }
      watcher.listeners.add(listener);
      // The poll runs from here on: it ends the watcher, and its hold on the tables, once nobody listens.
      if (!watcher.timer) {
        const started = watcher;
        started.timer = setTimeout(() => void poll(table, started), pollMs);
      }
      const owned = watcher;
      const unsubscribe = () => {
        owned.listeners.delete(listener);
      };
      try {
        const read = owned.last ?? (await service.stateOf(table));
        // A poll during the read has sent a newer state (to this listener too): that one stands. The
        // state sent is the watcher's last, so its first poll does not send it a second time.
        owned.last ??= read;
        listener({ event: 'state', data: owned.last });
      } catch (error) {
        // A stream that could not start does not keep the tables running.
        unsubscribe();
        throw error;
      }
      return unsubscribe;
    },
  };
}

export type LiveEvents = ReturnType<typeof createLiveEvents>;
