import { describe, expect, it } from 'vitest';
import { liveGamesPhases, liveStreamLimits, loadBackofficeClientConfig, loadConfig } from './config';

describe('process configuration (README: a bad value stops the process naming the variable)', () => {
  it('refuses a live-table phase that is not a whole number of milliseconds', () => {
    expect(() => loadConfig({ LIVE_GAMES_BETTING_MS: 'soon' })).toThrow(/LIVE_GAMES_BETTING_MS/);
    expect(() => loadConfig({ LIVE_GAMES_SPIN_MS: '-5' })).toThrow(/LIVE_GAMES_SPIN_MS/);
  });

  it('passes only the phases the environment sets, so the others keep the module defaults', () => {
    const phases = liveGamesPhases(loadConfig({ LIVE_GAMES_BETTING_MS: '1500', LIVE_GAMES_RESULT_MS: '' }));
    expect(phases).toEqual({ bettingMs: 1500 });
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
