import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { demoTrustProblems, type DemoTrustInput } from './demo-trust-check';
import type { Site } from './modules/sites';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = fileURLToPath(new URL('../build/server/main.js', import.meta.url));

function site(id: string, settings: Record<string, unknown>): Site {
  return {
    id,
    name: id,
    hosts: [`${id}.localhost`],
    defaultCurrency: 'EUR',
    currencies: ['EUR'],
    locales: ['en'],
    settings,
    isMaintenance: false,
  };
}

function input(sites: Site[], overrides: Partial<DemoTrustInput> = {}): DemoTrustInput {
  return { sites, socialProviderTypes: async () => new Map(), siteSecrets: {}, ...overrides };
}

const SANDBOXED = { verification: { provider: 'sandbox' }, payments: { sandbox: { settleDelayMs: 3000 } } };

describe('start-up check of demo trust (issue 11, point 1: production refuses demo trust and names the setting)', () => {
  it('a demo site may use every sandbox and the development provider', async () => {
    const problems = await demoTrustProblems(
      input([site('aurora', { is_demo: true, ...SANDBOXED, messenger: { is_enabled: true } })], {
        socialProviderTypes: async () => new Map([['dev', 'dev']]),
      }),
    );
    expect(problems).toEqual([]);
  });

  it('issue 14: the demo odds feed (the built-in simulator) prices demo sites only', async () => {
    expect(await demoTrustProblems(input([site('aurora', { is_demo: true })], { isDemoFeed: true }))).toEqual([]);
    expect(await demoTrustProblems(input([site('casino', { is_demo: false })], { isDemoFeed: false }))).toEqual([]);
    expect(await demoTrustProblems(input([site('aurora', { is_demo: true }), site('casino', {})], { isDemoFeed: true }))).toEqual(
      [expect.stringMatching(/^the odds feed is the demo simulator .* site "casino" is not a demo: set FEED_URL and FEED_TOKEN/)],
    );
  });

  it('a site not marked demo may not use the sandboxes or the development provider', async () => {
    const problems = await demoTrustProblems(
      input([site('casino', { is_demo: false, ...SANDBOXED })], { socialProviderTypes: async () => new Map([['dev', 'dev']]) }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^site "casino": settings\.verification\.provider is the KYC sandbox/),
      expect.stringMatching(/^site "casino": settings\.payments\.sandbox is the sandbox payment provider/),
      expect.stringMatching(/^site "casino": auth-config social\.providers\.dev is the development identity provider/),
    ]);
  });

  it('names a secret left in a real site’s content and the variable to set instead', async () => {
    const problems = await demoTrustProblems(
      input([
        site('casino', {
          messenger: { botToken: '123:abc' },
          verification: { provider: 'acme', secret: 'x' },
          oauth_client_secrets: { google: 'y' },
          payments: { acme: { secret: 'z' } },
        }),
      ]),
    );
    expect(problems.join('\n')).toContain('settings.payments.acme.secret is a secret in content; remove it (no payment secret');
    expect(problems.join('\n')).toContain(
      'settings.messenger.botToken is a secret in content; remove it (set SECRET_CASINO_MESSENGER_BOT_TOKEN in the environment',
    );
    expect(problems.join('\n')).toContain(
      'settings.verification.secret is a secret in content; remove it (set SECRET_CASINO_KYC in the environment',
    );
    expect(problems.join('\n')).toContain(
      'settings.oauth_client_secrets.google is a secret in content; remove it (set SECRET_CASINO_OAUTH_GOOGLE in the environment',
    );
  });

  it('refuses published demo values as secrets, and real secrets given to a demo site', async () => {
    const problems = await demoTrustProblems(
      input([site('aurora', { is_demo: true }), site('casino', {})], {
        siteSecrets: {
          SECRET_CASINO_MESSENGER_BOT_TOKEN: '000000000:DEV-ONLY-not-a-real-bot-token-aurora',
          SECRET_AURORA_OAUTH_GOOGLE: 'a-real-google-client-secret',
          SECRET_CASINO_KYC: 'a-real-kyc-secret-of-casino',
        },
        providerSecrets: 'demo-aggregator:provider-only-not-a-secret-demo-aggregator,acme:0123456789abcdefghijklmn',
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^SECRET_AURORA_OAUTH_GOOGLE is set for the demo site "aurora", which takes no real provider/),
      expect.stringMatching(/^SECRET_CASINO_MESSENGER_BOT_TOKEN is a published demo value/),
      expect.stringMatching(/^PROVIDER_SECRETS: the secret of "demo-aggregator" is a published demo value/),
    ]);
  });

  // The built server is what `npm start` runs; `npm test` builds before the integration project.
  it.skipIf(!existsSync(MAIN))('the production build stops before listening, exit 1, naming each setting on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-trust-'));
    try {
      const secretsFile = join(dir, 'secrets.json');
      writeFileSync(secretsFile, JSON.stringify({ SECRET_AURORA_KYC: 'a-real-kyc-secret-for-aurora' }));
      const child = spawn(process.execPath, [MAIN], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PORT: '0',
          DATABASE_URL: '',
          DATA_DIR: join(dir, 'db'),
          LOG_LEVEL: 'warn',
          SECRETS_FILE: secretsFile,
          PROVIDER_SECRETS: 'demo-aggregator:provider-only-not-a-secret-demo-aggregator',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('exit', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal })),
      );
      // CI once saw no exit code here (a signal): the message names it and what the process said.
      expect(code, `ended by ${signal ?? 'no signal'}; stderr: ${stderr}`).toBe(1);
      expect(stderr).toContain('Refusing to start in production: SECRET_AURORA_KYC is set for the demo site "aurora"');
      expect(stderr).toContain('Refusing to start in production: PROVIDER_SECRETS: the secret of "demo-aggregator"');
      expect(stdout).not.toContain('site is up');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
