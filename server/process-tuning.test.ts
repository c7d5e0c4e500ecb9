/**
 * Issue 12, idle memory: the production entry runs under glibc's malloc tunables (malloc-tunables.ts),
 * set before the process starts, in the same process, and never over an operator's own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MALLOC_TUNABLES, tunedEnvironment } from './malloc-tunables';

const MODULE = fileURLToPath(new URL('./malloc-tunables.ts', import.meta.url));

interface Report {
  pid: number;
  tunables: string | undefined;
  environ: string[];
}

/** Runs a script that applies the tunables and reports what it runs under; each line it prints is one start. */
function runApplying(env: NodeJS.ProcessEnv): Promise<{ pid: number | undefined; reports: Report[] }> {
  const script = join(folder, 'apply.ts');
  writeFileSync(
    script,
    `import { readFileSync } from 'node:fs';
import { applyMallocTunables } from ${JSON.stringify(MODULE)};
applyMallocTunables();
const environ = readFileSync('/proc/self/environ', 'utf8').split('\\0').filter((entry) => entry.startsWith('GLIBC_TUNABLES='));
console.log(JSON.stringify({ pid: process.pid, tunables: process.env.GLIBC_TUNABLES, environ }));
`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () =>
      resolve({
        pid: child.pid,
        reports: output
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Report),
      }),
    );
  });
}

const folder = mkdtempSync(join(tmpdir(), 'malloc-tunables-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('malloc tunables of the production process (issue 12, idle memory)', () => {
  it('adds the tunables on Linux only, and keeps an operator’s own GLIBC_TUNABLES', () => {
    expect(tunedEnvironment({ PATH: '/bin' }, 'linux')).toEqual({ PATH: '/bin', GLIBC_TUNABLES: MALLOC_TUNABLES });
    expect(tunedEnvironment({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, 'linux')).toBeUndefined();
    expect(tunedEnvironment({ PATH: '/bin' }, 'darwin')).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')(
    'replaces its own process, once, with the tunables in the environment glibc reads at start',
    async () => {
      const { GLIBC_TUNABLES: _own, ...env } = process.env;
      const { pid, reports } = await runApplying(env);
      expect(reports).toHaveLength(1);
      expect(reports[0]).toMatchObject({ pid, tunables: MALLOC_TUNABLES });
      // glibc rewrites the variable in the start-up environment it parsed: it is there from the start.
      expect(reports[0]!.environ).toHaveLength(1);
    },
  );

  it.runIf(process.platform === 'linux')('leaves a process started with GLIBC_TUNABLES as it was started', async () => {
    const { pid, reports } = await runApplying({ ...process.env, GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' });
    expect(reports).toEqual([
      { pid, tunables: 'glibc.malloc.arena_max=2', environ: ['GLIBC_TUNABLES=glibc.malloc.arena_max=2'] },
    ]);
  });
});
