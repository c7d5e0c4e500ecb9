/** CPU time of a process from Linux /proc: a figure a busy machine disturbs far less than a rate. */
import { readdirSync, readFileSync } from 'node:fs';

/** User + system CPU of a process so far, in ms (undefined where /proc is not readable). */
export function processCpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime (fields 14 and 15 of stat) in clock ticks, 100 per second on Linux.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** User + system CPU of a process and every process it started (the demo feed and aggregator), in ms. */
export function processTreeCpuMs(pid: number): number | undefined {
  const own = processCpuMs(pid);
  if (own === undefined) return undefined;
  return childrenOf(pid).reduce((total, child) => total + (processTreeCpuMs(child) ?? 0), own);
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * Waits until a just-started server and its children have finished starting: under `quietShare` of
 * a core over a whole `windowMs`, or `boundMs` at most. A server answers /healthz before its demo
 * odds feed has sent its first snapshot and before its children have compiled; measured at once,
 * a run's first seconds share the two cores with that (1.5 s of the server's CPU and 4 s of its
 * children's within 7 s of a start, here), and its CPU per round counts the feed's writes.
 */
export async function waitUntilSettled(
  pid: number,
  { quietShare = 0.05, windowMs = 1_000, boundMs = 30_000 } = {},
): Promise<number> {
  const started = Date.now();
  let before = processTreeCpuMs(pid);
  while (before !== undefined && Date.now() - started < boundMs) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const now = processTreeCpuMs(pid);
    if (now === undefined || now - before < quietShare * windowMs) break;
    before = now;
  }
  return Date.now() - started;
}
