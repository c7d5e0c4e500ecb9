import { configDefaults, defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const alias = {
  '~': fileURLToPath(new URL('./app', import.meta.url)),
  '#common': fileURLToPath(new URL('./common', import.meta.url)),
};

/** Correctness checks too long for every `npm test`: the `slow` project, which .ci/run runs on its own. */
const SLOW_TESTS = ['server/modules/provider-wallet/simulator.test.ts'];

const databaseTests = {
  environment: 'node' as const,
  // One migrated and seeded database per run, copied into each file (test/databases.ts).
  globalSetup: ['test/global-setup.ts'],
  // Two files share the two cores, and some tests start processes (the CLI, the server build).
  testTimeout: 60_000,
  hookTimeout: 60_000,
};

/**
 * Files run one after another in the same worker, which keeps the modules it has imported: in a
 * fresh process each, a server test file spent about 3 s importing the server before its first
 * test, and the integration phase of the suite had both cores busy a quarter of its time (issue 12:
 * the suite's time). Every file makes its own databases, server and browser, and closes them.
 */
const SHARED_WORKERS = { isolate: false } as const;

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default leaves one core idle (CPUs − 1), which is a single worker on a two-core machine.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['common/**/*.test.ts', 'app/**/*.test.{ts,tsx}', 'eslint-rules/**/*.test.js'],
          environment: 'node',
          ...SHARED_WORKERS,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SLOW_TESTS],
          ...databaseTests,
          ...SHARED_WORKERS,
        },
      },
      {
        resolve: { alias },
        test: { name: 'slow', include: SLOW_TESTS, ...databaseTests },
      },
      {
        resolve: { alias },
        test: {
          // Issue 11: the fuzzer and the attack probes (npm run test:attack; .ci/run runs it too).
          // The browser probe needs the production build and its server, as the e2e project does.
          name: 'attack',
          include: ['test/attack/**/*.test.ts'],
          ...databaseTests,
          globalSetup: ['test/global-setup.ts', 'e2e/global-setup.ts'],
          testTimeout: 300_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          ...SHARED_WORKERS,
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A page's answer to a click (a navigation, a dialog, a fetch) can take seconds while two
          // browser files load the machine: expect.poll's own default of one second failed such
          // waits in CI. A test that names its own timeout keeps it.
          expect: { poll: { timeout: 10_000 } },
          // Two files at a time (maxWorkers): a browser test mostly waits on the page and the server,
          // so two share the two cores with the server; the live tables' waits allow for the load.
        },
      },
    ],
  },
});
