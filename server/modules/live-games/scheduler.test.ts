import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveTable } from './context';
import { startLiveScheduler } from './scheduler';
import type { LiveGamesService } from './service';

// Issue 12 (idle: under 1 % of a core): the leader advances a table only when that table's last
// step said it next has work, and otherwise only renews the lease; it no longer steps every table
// every second (nor every 100 ms while a crash climbs). Issue 5's lease rules still hold.

const ROULETTE: LiveTable = { siteId: 'aurora', sysname: 'live-roulette', engine: 'live-roulette' };
const CRASH: LiveTable = { siteId: 'aurora', sysname: 'crash-rocket', engine: 'crash' };
const LEASE_MS = 6_000;

/** A service whose tables are due every `periodMs` of their own, counting what the scheduler asks. */
function fakeService(periods: Map<LiveTable, number>, leader = () => true) {
  const advances = new Map<string, number[]>();
  const calls = { claims: 0, releases: 0 };
  const service = {
    config: { bettingMs: 8_000, spinMs: 4_000, resultMs: 3_000, leaseMs: LEASE_MS },
    listTables: async () => [...periods.keys()],
    advanceTable: async (table: LiveTable) => {
      const at = Date.now();
      advances.set(table.sysname, [...(advances.get(table.sysname) ?? []), at]);
      return at + periods.get(table)!;
    },
    claimLease: async () => {
      calls.claims++;
      return leader();
    },
    releaseLease: async () => {
      calls.releases++;
    },
  };
  return { service: service as unknown as LiveGamesService, advances, calls };
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
});
