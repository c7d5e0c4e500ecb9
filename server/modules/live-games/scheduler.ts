/**
 * Runs the live tables (docs/live-games.md): every process may start a scheduler, but only the
 * holder of the `live-games` lease advances the tables; the others wait and take over when the
 * lease runs out (a stopped or crashed process). A stopped scheduler gives the lease back.
 *
 * The leader does not poll: each table's advance says when that table next has work (a phase
 * ends, a crash bet's automatic target is reached), and one timer sleeps until the earliest of
 * those moments or the lease's renewal, touching only the tables that are due (issue 12: an idle
 * server costs under 1 % of a core). A follower tries the lease a few times per lease period.
 *
 * With nobody at the tables in this process (interest.ts) the leader finishes the rounds under way
 * and opens no new ones; once every table is quiet it gives the lease back and sleeps until
 * someone comes. A process nobody watches only looks, every MAX_SLEEP_MS, for rounds left open
 * (a stopped leader's), and settles them: a bet always gets its result.
 */
import type { LiveTable } from './context';
import type { LiveGamesService } from './service';
import { QUIET } from './table-clock';

export interface SchedulerLogger {
  warn(object: object, message: string): void;
}

export interface LiveScheduler {
  /** Stops the loop after its current step and gives the lease back. */
  stop(): Promise<void>;
  /** True while this process holds the lease. */
  isLeader(): boolean;
}

/** The longest the leader sleeps: it looks at the catalogue (new tables) at least this often. */
const MAX_SLEEP_MS = 30_000;
const MIN_SLEEP_MS = 20;
/** A table whose advance failed is tried again after this long. */
const RETRY_MS = 1_000;

const keyOf = (table: LiveTable) => `${table.siteId}/${table.sysname}`;

export function startLiveScheduler(service: LiveGamesService, logger?: SchedulerLogger): LiveScheduler {
  let isStopped = false;
  let isLeading = false;
  let wake: (() => void) | undefined;
  let lastRenewal = 0;
  // Renew well before the lease runs out; a follower tries as often, so a lapse is seen soon.
  const renewEveryMs = Math.max(MIN_SLEEP_MS, Math.floor(service.config.leaseMs / 3));
  /** When each table next has work, by site/sysname; empty while this process does not lead. */
  const dueAt = new Map<string, number>();

  /** Set when someone came back during a step: the sleep after it is skipped. */
  let isWakeAsked = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (isWakeAsked) {
        isWakeAsked = false;
        resolve();
        return;
      }
      const done = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake = () => {
        isWakeAsked = false;
        done();
      };
    });

  /**
   * Advances the tables that are due (all of them on taking the lease); returns the next due time,
   * or QUIET when no table has anything under way.
   */
  async function advanceDueTables(): Promise<number> {
    const tables = await service.listTables();
    const listed = new Set(tables.map(keyOf));
    for (const key of dueAt.keys()) if (!listed.has(key)) dueAt.delete(key);
    let next = QUIET;
    for (const table of tables) {
      const key = keyOf(table);
      let due = dueAt.get(key) ?? 0;
      if (due <= Date.now()) {
        try {
          due = await service.advanceTable(table);
        } catch (error) {
          logger?.warn({ err: error, table: key }, 'live table step failed');
          due = Date.now() + RETRY_MS;
        }
        dueAt.set(key, due);
      }
      next = Math.min(next, due);
    }
    return next === QUIET || tables.length === 0 ? QUIET : Math.min(next, Date.now() + MAX_SLEEP_MS);
  }

  async function step(): Promise<number> {
    const isWatched = service.isWatched();
    // Nobody here and nothing owed: no lease, no transaction, until someone comes or the next look.
    if (!isWatched && !isLeading && !(await service.hasOpenRounds())) return MAX_SLEEP_MS;
    const now = Date.now();
    if (!isLeading || now - lastRenewal >= renewEveryMs) {
      const wasLeading = isLeading;
      isLeading = await service.claimLease();
      lastRenewal = now;
      // Another process may have moved the tables while this one did not lead.
      if (!isLeading || !wasLeading) dueAt.clear();
    }
    // Another process runs the tables; one nobody watches looks again only now and then.
    if (!isLeading) return isWatched ? renewEveryMs : MAX_SLEEP_MS;
    const due = await advanceDueTables();
    if (due === QUIET) {
      // Every round is settled and nobody is here: the lease goes back for whoever has players.
      await service.releaseLease();
      isLeading = false;
      dueAt.clear();
      return MAX_SLEEP_MS;
    }
    const next = Math.min(due, lastRenewal + renewEveryMs);
    return Math.max(MIN_SLEEP_MS, next - Date.now());
  }

  // Someone comes back: wake now, to take the lease and open the tables' next rounds.
  const stopWatching = service.onWatched(() => {
    dueAt.clear();
    isWakeAsked = true;
    wake?.();
  });

  const loop = (async () => {
    while (!isStopped) {
      let waitMs = RETRY_MS;
      try {
        waitMs = await step();
      } catch (error) {
        logger?.warn({ err: error }, 'live games step failed');
      }
      if (!isStopped) await sleep(waitMs);
    }
  })();

  return {
    isLeader: () => isLeading,
    async stop() {
      isStopped = true;
      stopWatching();
      wake?.();
      await loop;
      if (isLeading)
        await service
          .releaseLease()
          .catch((error: unknown) => logger?.warn({ err: error }, 'could not release the live games lease'));
      isLeading = false;
    },
  };
}
