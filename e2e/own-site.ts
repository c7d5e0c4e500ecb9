/**
 * A second site process for the few browser tests that need settings the shared e2e server
 * (global-setup.ts) does not have, such as a feed simulator playing matches much faster than real
 * time: the same production build, its own PGlite folder and a free port on 127.0.0.1, stopped by
 * the test file that started it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/free-port';
import { waitForHealth } from './global-setup';

export interface OwnSite {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startOwnSite(env: Record<string, string>): Promise<OwnSite> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-own-db-'));
  const child = spawn(process.execPath, ['build/server/main.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      TRUST_PROXY: '1',
      COUNTRY_HEADER: 'x-country-code',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child, 120_000);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return {
    baseUrl,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
