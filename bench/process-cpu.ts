/** CPU time of a process from Linux /proc: a figure a busy machine disturbs far less than a rate. */
import { readFileSync } from 'node:fs';

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
