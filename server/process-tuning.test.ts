/**
 * Issue 12, idle memory and the soak: the production entry runs under glibc's malloc tunables, a
 * capped V8 young generation and a bounded growth of its old generation (process-tuning.ts), set
 * before the process starts, in the same process, and never over an operator's own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HEAP_GROWING_FLAG, MALLOC_TUNABLES, SEMI_SPACE_FLAG, tunedStart } from './process-tuning';

const MODULE = fileURLToPath(new URL('./process-tuning.ts', import.meta.url));

interface Report {
  pid: number;
  tunables: string | undefined;
  environ: string[];
  execArgv: string[];
}

/** Runs a script that applies the tunables and reports what it runs under; each line it prints is one start. */
function runApplying(env: NodeJS.ProcessEnv, flags: string[] = []): Promise<{ pid: number | undefined; reports: Report[] }> {
  const script = join(folder, 'apply.ts');
  writeFileSync(
    script,
    `import { readFileSync } from 'node:fs';
import { applyProcessTuning } from ${JSON.stringify(MODULE)};
applyProcessTuning();
const environ = readFileSync('/proc/self/environ', 'utf8').split('\\0').filter((entry) => entry.startsWith('GLIBC_TUNABLES='));
console.log(JSON.stringify({ pid: process.pid, tunables: process.env.GLIBC_TUNABLES, environ, execArgv: process.execArgv }));
`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, '--import', 'tsx', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
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

const folder = mkdtempSync(join(tmpdir(), 'process-tuning-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('tuning of the production process (issue 12, idle memory and the soak)', () => {
  const start = { env: { PATH: '/bin' }, platform: 'linux' as const, execArgv: ['--enable-source-maps'] };

  it('adds the malloc tunables on Linux only, and the young generation cap and old generation growth on every system, before Node’s own flags', () => {
    expect(tunedStart(start)).toEqual({
      env: { PATH: '/bin', GLIBC_TUNABLES: MALLOC_TUNABLES },
      execArgv: [SEMI_SPACE_FLAG, HEAP_GROWING_FLAG, '--enable-source-maps'],
    });
    expect(tunedStart({ ...start, platform: 'darwin' })).toEqual({
      env: { PATH: '/bin' },
      execArgv: [SEMI_SPACE_FLAG, HEAP_GROWING_FLAG, '--enable-source-maps'],
    });
  });

  it('keeps an operator’s own GLIBC_TUNABLES, semi-space size (command line or NODE_OPTIONS) and heap growth (command line)', () => {
    const own = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' };
    const ownGrowth = '--heap-growing-percent=100';
    expect(tunedStart({ ...start, env: own })).toEqual({
      env: own,
      execArgv: [SEMI_SPACE_FLAG, HEAP_GROWING_FLAG, '--enable-source-maps'],
    });
    expect(tunedStart({ ...start, env: own, execArgv: ['--max-semi-space-size=64', ownGrowth] })).toBeUndefined();
    expect(
      tunedStart({ ...start, env: { ...own, NODE_OPTIONS: '--max_semi_space_size=2 --trace-gc' }, execArgv: [ownGrowth] }),
    ).toBeUndefined();
    expect(tunedStart({ ...start, env: own, execArgv: ['--max-semi-space-size=64'] })?.execArgv).toEqual([
      HEAP_GROWING_FLAG,
      '--max-semi-space-size=64',
    ]);
    expect(tunedStart({ ...start, execArgv: ['--max-semi-space-size', '16'] })?.execArgv).toEqual([
      HEAP_GROWING_FLAG,
      '--max-semi-space-size',
      '16',
    ]);
    expect(tunedStart({ ...start, execArgv: ['--heap_growing_percent=20'] })?.execArgv).toEqual([
      SEMI_SPACE_FLAG,
      '--heap_growing_percent=20',
    ]);
  });

  it.runIf(process.platform === 'linux')(
    'replaces its own process, once, with the tunables in the environment glibc reads at start and the cap in V8’s flags',
    async () => {
      const { GLIBC_TUNABLES: _own, NODE_OPTIONS: _options, ...env } = process.env;
      const { pid, reports } = await runApplying(env);
      expect(reports).toHaveLength(1);
      expect(reports[0]).toMatchObject({
        pid,
        tunables: MALLOC_TUNABLES,
        execArgv: [SEMI_SPACE_FLAG, HEAP_GROWING_FLAG, '--import', 'tsx'],
      });
      // glibc rewrites the variable in the start-up environment it parsed: it is there from the start.
      expect(reports[0]!.environ).toHaveLength(1);
    },
  );

  it.runIf(process.platform === 'linux')('leaves a process started with both its own as it was started', async () => {
    const { NODE_OPTIONS: _options, ...env } = process.env;
    const { pid, reports } = await runApplying({ ...env, GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, [
      '--max-semi-space-size=4',
      '--heap-growing-percent=100',
    ]);
    expect(reports).toEqual([
      {
        pid,
        tunables: 'glibc.malloc.arena_max=2',
        environ: ['GLIBC_TUNABLES=glibc.malloc.arena_max=2'],
        execArgv: ['--max-semi-space-size=4', '--heap-growing-percent=100', '--import', 'tsx'],
      },
    ]);
  });
});
