import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveTable } from './context';
import { startLiveScheduler } from './scheduler';
import { QUIET } from './table-clock';
import type { LiveGamesService } from './service';

// Issue 12 (idle: under 1 % of a core): the leader advances a table only when that table's last
// step said it next has work, and otherwise only renews the lease; it no longer steps every table
// every second (nor every 100 ms while a crash climbs). Issue 5's lease rules still hold.

const ROULETTE: LiveTable = { siteId: 'aurora', sysname: 'live-roulette', engine: 'live-roulette' };
const CRASH: LiveTable = { siteId: 'aurora', sysname: 'crash-rocket', engine: 'crash' };
const LEASE_MS = 6_000;

/**
 * A service whose tables are due every `periodMs` of their own, counting what the scheduler asks.
 * Watched unless `presence.isWatched` is set false; a table with `presence.roundsLeft` rounds to
 * finish answers QUIET after them while nobody watches, as the table clock does.
 */
function fakeService(
  periods: Map<LiveTable, number>,
  leader = () => true,
  presence: { isWatched: boolean; roundsLeft: number } = { isWatched: true, roundsLeft: 0 },
) {
  const advances = new Map<string, number[]>();
  const calls = { claims: 0, releases: 0, openLooks: 0 };
  const onReturn = new Set<() => void>();
  const service = {
    config: { bettingMs: 8_000, spinMs: 4_000, resultMs: 3_000, leaseMs: LEASE_MS, idleAfterMs: 60_000 },
    listTables: async () => [...periods.keys()],
    advanceTable: async (table: LiveTable) => {
      const at = Date.now();
      advances.set(table.sysname, [...(advances.get(table.sysname) ?? []), at]);
      if (!presence.isWatched) {
        if (presence.roundsLeft <= 0) return QUIET;
        presence.roundsLeft--;
      }
      return at + periods.get(table)!;
    },
    isWatched: () => presence.isWatched,
    onWatched: (listener: () => void) => {
      onReturn.add(listener);
      return () => onReturn.delete(listener);
    },
    hasOpenRounds: async () => {
      calls.openLooks++;
      return presence.roundsLeft > 0;
    },
    claimLease: async () => {
      calls.claims++;
      return leader();
    },
    releaseLease: async () => {
      calls.releases++;
    },
  };
  /** Someone comes to the tables, as interest.ts reports it. */
  const comeBack = () => {
    presence.isWatched = true;
    for (const listener of onReturn) listener();
  };
  return { service: service as unknown as LiveGamesService, advances, calls, comeBack };
}

describe('live scheduler timers (issue 12 idle cost; issue 5 shared tables)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('advances each table when its own next step is due, not every table on every wake', async () => {
    const { service, advances, calls } = fakeService(
      new Map([
        [ROULETTE, 15_000],
        [CRASH, 4_000],
      ]),
    );
    const scheduler = startLiveScheduler(service);
    await vi.advanceTimersByTimeAsync(60_000 + 10);
    await scheduler.stop();
    const roulette = advances.get(ROULETTE.sysname)!;
    const crash = advances.get(CRASH.sysname)!;
    // At 0, 15, 30, 45, 60 s and at 0, 4, …, 60 s: each exactly when due, nothing between.
    expect(roulette.map((at) => at - 1_000_000)).toEqual([0, 15_000, 30_000, 45_000, 60_000]);
    expect(crash.map((at) => at - 1_000_000)).toEqual(Array.from({ length: 16 }, (_, i) => i * 4_000));
    // The lease is renewed every third of its period (60 s / 2 s, and the first claim).
    expect(calls.claims).toBeGreaterThanOrEqual(30);
    expect(calls.claims).toBeLessThanOrEqual(32);
    expect(calls.releases).toBe(1);
  });

  it('a follower advances nothing, tries the lease a few times per period, and steps every table on taking over', async () => {
    let isLeaseFree = false;
    const { service, advances, calls } = fakeService(
      new Map([
        [ROULETTE, 15_000],
        [CRASH, 4_000],
      ]),
      () => isLeaseFree,
    );
    const scheduler = startLiveScheduler(service);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(scheduler.isLeader()).toBe(false);
    expect(advances.size).toBe(0);
    expect(calls.claims).toBeGreaterThanOrEqual(14);
    expect(calls.claims).toBeLessThanOrEqual(16);
    // The other process's lease runs out: this one takes over within a third of the lease period.
    isLeaseFree = true;
    await vi.advanceTimersByTimeAsync(LEASE_MS / 3 + 10);
    expect(scheduler.isLeader()).toBe(true);
    expect(advances.get(ROULETTE.sysname)).toHaveLength(1);
    expect(advances.get(CRASH.sysname)).toHaveLength(1);
    await scheduler.stop();
    expect(scheduler.isLeader()).toBe(false);
  });

  it('tries a table whose step failed again soon, without holding up the others', async () => {
    const { service, advances } = fakeService(
      new Map([
        [ROULETTE, 15_000],
        [CRASH, 4_000],
      ]),
    );
    let failures = 2;
    const advance = service.advanceTable;
    service.advanceTable = async (table) => {
      if (table === ROULETTE && failures-- > 0) throw new Error('database away');
      return advance(table);
    };
    const scheduler = startLiveScheduler(service);
    await vi.advanceTimersByTimeAsync(8_000 + 10);
    await scheduler.stop();
    expect(advances.get(CRASH.sysname)!.map((at) => at - 1_000_000)).toEqual([0, 4_000, 8_000]);
    // Failed at 0 and 1 s, stepped at 2 s.
    expect(advances.get(ROULETTE.sysname)!.map((at) => at - 1_000_000)).toEqual([2_000]);
  });

  it('with nobody at the tables, finishes the rounds under way, gives the lease back and sleeps; someone coming wakes it at once (issue 12 idle)', async () => {
    const presence = { isWatched: false, roundsLeft: 2 };
    const { service, advances, calls, comeBack } = fakeService(
      new Map([
        [ROULETTE, 15_000],
        [CRASH, 4_000],
      ]),
      () => true,
      presence,
    );
    const scheduler = startLiveScheduler(service);
    await vi.advanceTimersByTimeAsync(20_000);
    // Two rounds still to finish, then every table quiet: the lease goes back.
    expect(scheduler.isLeader()).toBe(false);
    expect(calls.releases).toBe(1);
    const stepsWhileFinishing = [...advances.values()].flat().length;
    const claimsWhileFinishing = calls.claims;
    // Ten quiet minutes: no step, no lease, only a look for rounds left open every 30 s.
    await vi.advanceTimersByTimeAsync(600_000);
    expect([...advances.values()].flat().length).toBe(stepsWhileFinishing);
    expect(calls.claims).toBe(claimsWhileFinishing);
    expect(calls.openLooks).toBeGreaterThanOrEqual(19);
    expect(calls.openLooks).toBeLessThanOrEqual(21);
    // A player opens a table: the scheduler takes the lease and steps every table within the tick.
    const before = advances.get(ROULETTE.sysname)!.length;
    comeBack();
    await vi.advanceTimersByTimeAsync(10);
    expect(scheduler.isLeader()).toBe(true);
    expect(advances.get(ROULETTE.sysname)!.length).toBe(before + 1);
    await scheduler.stop();
  });

  it('a process nobody watches settles rounds a stopped leader left open, then gives the lease back (issue 12 idle; issue 5 restart)', async () => {
    const presence = { isWatched: false, roundsLeft: 0 };
    const { service, advances, calls } = fakeService(new Map([[ROULETTE, 15_000]]), () => true, presence);
    const scheduler = startLiveScheduler(service);
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.claims).toBe(0);
    // The other process stops with a round open: found at the next look, finished, lease returned.
    presence.roundsLeft = 1;
    await vi.advanceTimersByTimeAsync(30_000 + 15_000 + 10);
    expect(advances.get(ROULETTE.sysname)).toHaveLength(2);
    expect(calls.claims).toBeGreaterThanOrEqual(1);
    expect(calls.releases).toBe(1);
    expect(scheduler.isLeader()).toBe(false);
    await scheduler.stop();
  });
});
