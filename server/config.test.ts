import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { liveGamesPhases, liveStreamLimits, loadBackofficeClientConfig, loadConfig, proxyTrust } from './config';

describe('process configuration (README: a bad value stops the process naming the variable)', () => {
  it('refuses a live-table phase that is not a whole number of milliseconds', () => {
    expect(() => loadConfig({ LIVE_GAMES_BETTING_MS: 'soon' })).toThrow(/LIVE_GAMES_BETTING_MS/);
    expect(() => loadConfig({ LIVE_GAMES_SPIN_MS: '-5' })).toThrow(/LIVE_GAMES_SPIN_MS/);
  });

  it('passes only the phases the environment sets, so the others keep the module defaults', () => {
    const phases = liveGamesPhases(loadConfig({ LIVE_GAMES_BETTING_MS: '1500', LIVE_GAMES_RESULT_MS: '' }));
    // The idle setting is not a phase: it has the process's own default (issue 12, idle cost).
    expect(phases).toEqual({ bettingMs: 1500, idleAfterMs: 60_000 });
    expect(liveGamesPhases(loadConfig({ LIVE_GAMES_IDLE_AFTER_MS: '0' })).idleAfterMs).toBe(0);
  });
});

describe('back-office CLI settings (README: npm run backoffice)', () => {
  it('needs an operator token and names the variable when it is missing or too short', () => {
    expect(() => loadBackofficeClientConfig({})).toThrow(/BACKOFFICE_TOKEN/);
    expect(() => loadBackofficeClientConfig({ BACKOFFICE_TOKEN: 'short' })).toThrow(/BACKOFFICE_TOKEN/);
  });

  it('talks to the local server unless told otherwise, without a trailing slash', () => {
    const token = 'a'.repeat(24);
    expect(loadBackofficeClientConfig({ BACKOFFICE_TOKEN: token }).BACKOFFICE_URL).toBe('http://127.0.0.1:3000');
    expect(loadBackofficeClientConfig({ BACKOFFICE_TOKEN: token, BACKOFFICE_URL: 'https://ops.example/' }).BACKOFFICE_URL).toBe(
      'https://ops.example',
    );
    expect(() => loadBackofficeClientConfig({ BACKOFFICE_TOKEN: token, BACKOFFICE_URL: 'ops' })).toThrow(/BACKOFFICE_URL/);
  });
});

describe('proxies in front (README: TRUSTED_PROXIES, PROXY_HOPS, COUNTRY_HEADER; issue 11)', () => {
  it('trusts no proxy by default', () => {
    expect(proxyTrust(loadConfig({}))).toEqual({ mode: 'none' });
  });

  it('reads trusted ranges, IPv4 and IPv6, and refuses anything else naming the variable', () => {
    const trust = proxyTrust(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1,fd00::/8', COUNTRY_HEADER: 'CF-IPCountry' }));
    expect(trust).toEqual({
      mode: 'ranges',
      ranges: [
        { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
        { address: '127.0.0.1', prefix: 32, family: 'ipv4' },
        { address: 'fd00::', prefix: 8, family: 'ipv6' },
      ],
      countryHeader: 'cf-ipcountry',
    });
    for (const bad of ['10.0.0.0/33', 'proxy.internal', '10.0.0.0/8,,127.0.0.1']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: bad }), bad).toThrow(/TRUSTED_PROXIES/);
    }
  });

  it('reads a hop count; TRUST_PROXY=1 still means one proxy in front', () => {
    expect(proxyTrust(loadConfig({ PROXY_HOPS: '2' }))).toEqual({ mode: 'hops', hops: 2, countryHeader: undefined });
    expect(proxyTrust(loadConfig({ TRUST_PROXY: '1' }))).toEqual({ mode: 'hops', hops: 1, countryHeader: undefined });
    expect(() => loadConfig({ PROXY_HOPS: '0' })).toThrow(/PROXY_HOPS/);
    expect(() => loadConfig({ PROXY_HOPS: 'two' })).toThrow(/PROXY_HOPS/);
  });

  it('refuses both ways at once, and a country header with no proxy to set it', () => {
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8', PROXY_HOPS: '1' })).toThrow(/PROXY_HOPS/);
    expect(() => loadConfig({ COUNTRY_HEADER: 'cf-ipcountry' })).toThrow(/COUNTRY_HEADER/);
    expect(() => loadConfig({ TRUST_PROXY: '1', COUNTRY_HEADER: 'bad header' })).toThrow(/COUNTRY_HEADER/);
  });
});

describe('site secrets (issue 11: secrets come from the environment or a secrets file, never from content)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  const withFile = (content: unknown) => {
    const path = join(dir, `secrets-${files++}.json`);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  it('collects SECRET_{SITE}_{NAME} variables and nothing else', () => {
    const config = loadConfig({ SECRET_LAGOON_KYC: 'k'.repeat(20), SECRET_LAGOON_OAUTH_GOOGLE: 'g'.repeat(24), HOME: '/home/x' });
    expect(config.siteSecrets).toEqual({ SECRET_LAGOON_KYC: 'k'.repeat(20), SECRET_LAGOON_OAUTH_GOOGLE: 'g'.repeat(24) });
    expect(loadConfig({}).siteSecrets).toEqual({});
  });

  it('refuses a short site secret or a badly named one, naming the variable', () => {
    expect(() => loadConfig({ SECRET_LAGOON_KYC: 'short' })).toThrow(/SECRET_LAGOON_KYC: must be at least 16 characters/);
    expect(() => loadConfig({ SECRET_lagoon_kyc: 'k'.repeat(20) })).toThrow(/SECRET_lagoon_kyc/);
  });

  it('reads SECRETS_FILE, the environment winning over it', () => {
    const path = withFile({ SECRET_LAGOON_KYC: 'from-the-file-0123456789', PROVIDER_SECRETS: `acme:${'s'.repeat(24)}` });
    const config = loadConfig({ SECRETS_FILE: path, SECRET_LAGOON_KYC: 'from-the-environment-0123' });
    expect(config.siteSecrets.SECRET_LAGOON_KYC).toBe('from-the-environment-0123');
    expect(config.PROVIDER_SECRETS).toBe(`acme:${'s'.repeat(24)}`);
    expect(loadConfig({ SECRETS_FILE: path }).siteSecrets.SECRET_LAGOON_KYC).toBe('from-the-file-0123456789');
  });

  it('refuses a secrets file that is not a JSON object of secrets, naming SECRETS_FILE and the entry', () => {
    expect(() => loadConfig({ SECRETS_FILE: withFile('not json') })).toThrow(/SECRETS_FILE: cannot read a JSON object/);
    expect(() => loadConfig({ SECRETS_FILE: withFile(['x']) })).toThrow(/SECRETS_FILE: must hold a JSON object/);
    expect(() => loadConfig({ SECRETS_FILE: withFile({ PORT: '80' }) })).toThrow(
      /SECRETS_FILE: PORT is not a secret this file may set/,
    );
    expect(() => loadConfig({ SECRETS_FILE: withFile({ SECRET_A_KYC: 42 }) })).toThrow(
      /SECRETS_FILE: SECRET_A_KYC must be a string/,
    );
    expect(() => loadConfig({ SECRETS_FILE: join(tmpdir(), 'no-such-secrets-file.json') })).toThrow(/SECRETS_FILE/);
    // A file's values are checked like the environment's.
    expect(() => loadConfig({ SECRETS_FILE: withFile({ SECRET_A_KYC: 'short' }) })).toThrow(/SECRET_A_KYC/);
  });
});

describe('hardening settings (issue 11)', () => {
  it('binds the token-free metrics listener to loopback by default and refuses a public address', () => {
    expect(loadConfig({}).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' })).toMatchObject({ METRICS_PORT: 9464, METRICS_HOST: '127.0.0.1' });
    expect(loadConfig({ METRICS_HOST: '10.0.0.5' }).METRICS_HOST).toBe('10.0.0.5');
    expect(() => loadConfig({ METRICS_HOST: '0.0.0.0' })).toThrow(/METRICS_HOST/);
    expect(() => loadConfig({ METRICS_HOST: '203.0.113.7' })).toThrow(/METRICS_HOST/);
    expect(() => loadConfig({ METRICS_PORT: 'metrics' })).toThrow(/METRICS_PORT/);
  });

  it('caps live-event streams only where the environment says, and refuses a cap that is not a positive number', () => {
    expect(liveStreamLimits(loadConfig({}))).toEqual({});
    expect(liveStreamLimits(loadConfig({ LIVE_STREAMS_PER_CLIENT: '4', LIVE_STREAM_BUFFER_BYTES: '8192' }))).toEqual({
      perClient: 4,
      maxBufferBytes: 8192,
    });
    expect(() => loadConfig({ LIVE_STREAMS_PER_CLIENT: '0' })).toThrow(/LIVE_STREAMS_PER_CLIENT/);
    expect(() => loadConfig({ LIVE_STREAMS_TOTAL: 'many' })).toThrow(/LIVE_STREAMS_TOTAL/);
    expect(() => loadConfig({ LIVE_STREAM_BUFFER_BYTES: '10' })).toThrow(/LIVE_STREAM_BUFFER_BYTES/);
  });
});
