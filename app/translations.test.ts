/**
 * Issue 12: the browser loads each translation table version once, however many parts of the app
 * ask at the same time, and a failed load is retried before the page gives up on it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTranslations, rememberTranslations, translationsFor } from './translations';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('translation tables by version (issue 12)', () => {
  it('answers a remembered version, and an empty table for one never loaded', () => {
    const table = { 'nav.casino': 'Casino' };
    rememberTranslations({ version: 'remembered', table });
    expect(translationsFor('remembered')).toBe(table);
    expect(translationsFor('never-loaded')).toEqual({});
    expect(translationsFor(undefined)).toEqual({});
  });

  it('fetches a version once for parallel askers, from its own address', async () => {
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      fetched.push(url);
      return new Response(JSON.stringify({ 'nav.casino': 'Casinò' }), { status: 200 });
    });
    const [first, second] = await Promise.all([loadTranslations('it', 'v-parallel'), loadTranslations('it', 'v-parallel')]);
    expect(first).toBe(second);
    expect(translationsFor('v-parallel')).toEqual({ 'nav.casino': 'Casinò' });
    await loadTranslations('it', 'v-parallel');
    expect(fetched).toEqual(['/platform/translations/it.json?v=v-parallel']);
  });

  it('retries a failed load, and rejects when every try fails', async () => {
    vi.useFakeTimers();
    let answers = [500, 200];
    vi.stubGlobal('fetch', async () => new Response('{"a":"b"}', { status: answers.shift() ?? 503 }));
    const retried = loadTranslations('en', 'v-retried');
    await vi.runAllTimersAsync();
    expect(await retried).toEqual({ a: 'b' });

    answers = [];
    const failed = loadTranslations('en', 'v-failed');
    const outcome = failed.then(
      () => 'loaded',
      () => 'failed',
    );
    await vi.runAllTimersAsync();
    expect(await outcome).toBe('failed');
    expect(translationsFor('v-failed')).toEqual({});
  });
});
