/**
 * The production process starts tuned for a small footprint (issue 12: an idle server under 200 MB,
 * and memory that stays flat through a ten-minute soak), before it loads anything else:
 *
 * - glibc's malloc gives back what it frees. glibc raises its mmap threshold to the size of each
 *   large block freed (up to 32 MB) and its trim threshold to twice that, so after the boot (WASM
 *   compilation, migrations) freed memory stayed in the heap and the compiler threads' arenas: an
 *   idle PGlite server held 450–500 MB, 250 MB of it freed memory. With both thresholds fixed,
 *   blocks of 64 KB and more are mapped on their own and returned when freed, and a heap's free
 *   top is returned past 64 KB (bench:idle, docs/performance.md).
 * - V8's young generation is capped (--max-semi-space-size). V8 sizes it from the machine's
 *   memory (32 MB semi-spaces on a 24 GB machine), grows it while the boot allocates, and an idle
 *   server that still takes odds changes and runs the live tables never shrinks it back: 64 MB
 *   stayed resident. Capped at 2 MB, it holds 4 MB: an idle PGlite server measured 183 MB against
 *   191–221 MB with 4 MB semi-spaces, and rounds and pages under load did not move beyond this
 *   machine's noise, though young collections run twice as often (docs/performance.md, nineteenth
 *   and twenty-sixth sessions).
 * - V8's old generation grows by half its live size between full collections, not up to four
 *   times. V8 picks the factor from its collector's speed, up to 4 on a heap allowed gigabytes, so
 *   with 30 MB live a process under steady traffic let garbage reach 100 MB, and the Buffers it
 *   held, before collecting; the pages and malloc arenas that peak took stayed with the process
 *   after the collection: the ten-minute soak's RSS rose from 140–160 MB to 210–215 MB in one step
 *   (heap statistics sampled every 10 s, docs/performance.md, thirty-first session). With the factor
 *   at 1.5 the heap stayed under 50 MB used and the soak's memory flat, and ten players' rounds
 *   showed no cost beyond the machine's noise from the more frequent full collections.
 *
 * glibc reads its tunables and V8 its heap limits only when a process starts, so the entry
 * replaces its own process with the same command, tuned (same pid, same arguments), before it
 * loads anything else. An operator's own GLIBC_TUNABLES, own --max-semi-space-size (on the
 * command line or in NODE_OPTIONS) or own --heap-growing-percent (on the command line: Node refuses
 * it in NODE_OPTIONS) is kept as it is.
 */
export const MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold=65536';
/** The cap of each of V8's two young-generation semi-spaces, in MB. */
export const SEMI_SPACE_FLAG = '--max-semi-space-size=2';
/** How far, in percent of its live size, the old generation grows before the next full collection. */
export const HEAP_GROWING_FLAG = '--heap-growing-percent=50';

export interface ProcessStart {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** Node's own flags (process.execArgv). */
  execArgv: readonly string[];
}

const setsSemiSpace = (flags: readonly string[]) => flags.some((flag) => /^--max[-_]semi[-_]space[-_]size\b/.test(flag));
const setsHeapGrowing = (flags: readonly string[]) => flags.some((flag) => /^--heap[-_]growing[-_]percent\b/.test(flag));

/** The environment and flags to start again with, or undefined when this process should go on as it is. */
export function tunedStart(start: ProcessStart): { env: NodeJS.ProcessEnv; execArgv: string[] } | undefined {
  // musl and other systems ignore the variable: only glibc's Linux reads it.
  const addsTunables = start.platform === 'linux' && start.env.GLIBC_TUNABLES === undefined;
  const nodeOptions = (start.env.NODE_OPTIONS ?? '').split(/\s+/);
  const addsSemiSpace = !setsSemiSpace(start.execArgv) && !setsSemiSpace(nodeOptions);
  // Node refuses this one in NODE_OPTIONS: only the command line can carry an operator's own.
  const addsHeapGrowing = !setsHeapGrowing(start.execArgv);
  if (!addsTunables && !addsSemiSpace && !addsHeapGrowing) return undefined;
  const added = [...(addsSemiSpace ? [SEMI_SPACE_FLAG] : []), ...(addsHeapGrowing ? [HEAP_GROWING_FLAG] : [])];
  return {
    env: addsTunables ? { ...start.env, GLIBC_TUNABLES: MALLOC_TUNABLES } : start.env,
    execArgv: [...added, ...start.execArgv],
  };
}

/** Starts this process again, tuned, when it is not yet; returns otherwise. */
export function applyProcessTuning(): void {
  const tuned = tunedStart({ env: process.env, platform: process.platform, execArgv: process.execArgv });
  // process.execve came with Node 23.11 (not on Windows); elsewhere the process starts untuned.
  if (!tuned || typeof process.execve !== 'function') return;
  process.execve(process.execPath, [process.execPath, ...tuned.execArgv, ...process.argv.slice(1)], tuned.env);
}
