import { describe, expect, it } from 'vitest';
import { liveGamesPhases, loadBackofficeClientConfig, loadConfig } from './config';

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
