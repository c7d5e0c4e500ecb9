/**
 * Runs the live tables (docs/live-games.md): every process may start a scheduler, but only the
 * holder of the `live-games` lease advances the tables; the others wait and take over when the
 * lease runs out (a stopped or crashed process). A stopped scheduler gives the lease back.
 */
import type { LiveGamesService } from './service';

export interface SchedulerLogger {
  warn(object: object, message: string): void;
}

export interface LiveScheduler {
  /** Stops the loop after its current step and gives the lease back. */
  stop(): Promise<void>;
  /** True while this process holds the lease. */
  isLeader(): boolean;
}

/** The longest a leader sleeps between steps, and a follower between lease attempts. */
const IDLE_MS = 1_000;
const MIN_SLEEP_MS = 20;

export function startLiveScheduler(service: LiveGamesService, logger?: SchedulerLogger): LiveScheduler {
  let isStopped = false;
  let isLeading = false;
  let wake: (() => void) | undefined;
  let lastRenewal = 0;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function step(): Promise<number> {
    const now = Date.now();
    // Renew well before the lease runs out; take it when it has.
    if (!isLeading || now - lastRenewal >= service.config.leaseMs / 3) {
      isLeading = await service.claimLease();
      lastRenewal = now;
    }
    if (!isLeading) return IDLE_MS;
    const next = await service.advanceAll();
    return Math.min(IDLE_MS, Math.max(MIN_SLEEP_MS, next - Date.now()));
  }

  const loop = (async () => {
    while (!isStopped) {
      let waitMs = IDLE_MS;
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
