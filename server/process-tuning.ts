/**
 * The production process runs with glibc's malloc tuned to give back what it frees (issue 12: an
 * idle server under 200 MB). glibc raises its mmap threshold to the size of each large block freed
 * (up to 32 MB) and its trim threshold to twice that, so after the boot (WASM compilation, the
 * embedded database's initdb, migrations) freed memory stayed in the heap and the compiler threads'
 * arenas: an idle PGlite server held 450–500 MB, 250 MB of it freed memory. With both thresholds
 * fixed, blocks of 64 KB and more are mapped on their own and returned when freed, and a heap's
 * free top is returned past 64 KB: 285 MB (bench:idle, docs/performance.md).
 *
 * glibc reads its tunables only when a process starts, so the entry replaces its own process with
 * the same command under the tuned environment (same pid, same arguments and flags) before it loads
 * anything else. An operator's own GLIBC_TUNABLES is left as it is; elsewhere than Linux nothing
 * happens (musl ignores the variable).
 */
export const MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold=65536';

/** The environment to start again with, or undefined when this process should go on as it is. */
export function tunedEnvironment(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): NodeJS.ProcessEnv | undefined {
  if (platform !== 'linux' || env.GLIBC_TUNABLES !== undefined) return undefined;
  return { ...env, GLIBC_TUNABLES: MALLOC_TUNABLES };
}

/** Starts this process again under the tuned environment when it is not yet; returns otherwise. */
export function applyMallocTunables(): void {
  const env = tunedEnvironment(process.env, process.platform);
  // process.execve came with Node 23.11; the project runs on 24, an older Node starts untuned.
  if (!env || typeof process.execve !== 'function') return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], env);
}
