/**
 * The typed client: the verb comes from the contract, parameters travel as form values, the
 * envelope's data or error comes back. The `@ts-expect-error` lines are the type-level half:
 * `npx tsc --noEmit` fails if a wrong method name, parameter or result use ever compiles.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '#common/errors';
import type { ApiRequest, InProcessAnswer } from '#common/load-context';
import { createApiClient } from './client';

function recordingClient(answer: InProcessAnswer) {
  const sent: { path: string; request: ApiRequest }[] = [];
  const api = createApiClient({
    locale: 'en',
    transport: async (path, request) => {
      sent.push({ path, request });
      return answer;
    },
  });
  return { api, sent };
}

describe('the typed API client', () => {
  it('sends GET methods with their parameters in the query', async () => {
    const { api, sent } = recordingClient({ status: 200, body: { data: { items: [], total: 0 } } });
    const page = await api.call('cashier.gethistory', { type: 'deposit', offset: 0, count: 4 });
    expect(page.total).toBe(0);
    expect(sent[0]?.request).toEqual({ method: 'GET', body: undefined });
    expect(sent[0]?.path).toBe('/api/cashier.gethistory?v=2.34&locale=en&type=deposit&offset=0&count=4');
  });

  it('sends POST methods as form data, arrays as key[]', async () => {
    const { api, sent } = recordingClient({ status: 200, body: { data: 1 } });
    expect(await api.call('storage.set', { key: 'k', value: 'v' })).toBe(1);
    expect(await api.call('storage.get', { keys: ['a', 'b'] })).toBe(1);
    expect(sent[0]?.request.method).toBe('POST');
    expect(sent[0]?.request.body?.toString()).toBe('key=k&value=v');
    expect(sent[1]?.path).toContain('keys%5B%5D=a&keys%5B%5D=b');
  });

  it('sends the first verb of a method that takes both', async () => {
    const { api, sent } = recordingClient({ status: 200, body: { data: 1 } });
    await api.call('auth.logout');
    expect(sent[0]?.request.method).toBe('GET');
  });

  it('turns an error envelope into the catalogue error, and a non-JSON 403 into AccessDenied', async () => {
    const refused = recordingClient({ status: 401, body: { error: { type: 'AuthorizationException', message: 'Sign in' } } });
    await expect(refused.api.call('loyalty.getinfo')).rejects.toMatchObject({ type: 'AuthorizationException', status: 401 });
    const blocked = recordingClient({ status: 403, body: undefined });
    await expect(blocked.api.call('loyalty.getinfo')).rejects.toBeInstanceOf(ApiError);
    await expect(blocked.api.call('loyalty.getinfo')).rejects.toMatchObject({ type: 'AccessDeniedException' });
  });

  it('is typed by method name: wrong names, parameters and result uses do not compile', async () => {
    const { api } = recordingClient({ status: 200, body: { data: 1 } });
    const typeChecks = async () => {
      // @ts-expect-error: no such method
      await api.call('cashier.makedepositt', {});
      // @ts-expect-error: a required parameter is missing
      await api.call('cashier.getdepositinfo', {});
      // @ts-expect-error: a parameter the method does not take
      await api.call('games.addLike', { sysname: 'dice', colour: 'red' });
      // @ts-expect-error: a value outside the enum
      await api.call('cashier.getpaymentmethods', { type: 'refund' });
      // @ts-expect-error: parameters are required here
      await api.call('games.getRounds');
      const start = await api.call('cashier.makedeposit', { method: 'card', amount: '10.00' });
      // @ts-expect-error: the result is a DepositStart, which has no amount
      void start.amount;
      const settings: { min_spin_duration_ms: number } = await api.call('games.getSettings');
      return settings;
    };
    expect(typeof typeChecks).toBe('function');
  });
});

/** The browser bundle carries no zod: the app reads the contract's types only, and the verbs table at run time. */
describe('the contract in the app', () => {
  function sourceFiles(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return /\.tsx?$/.test(name) ? [path] : [];
    });
  }

  it('is imported with `import type`, except the zod-free verbs table', () => {
    const appDir = join(import.meta.dirname, '..');
    const runtimeImports = sourceFiles(appDir).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^import (?!type )[^;]*from '#common\/contract(\/[\w-]+)?';/gm)]
        .filter((match) => match[1] !== '/verbs')
        .map((match) => `${file}: ${match[0]}`),
    );
    expect(runtimeImports).toEqual([]);
    expect(readFileSync(join(appDir, '..', 'common', 'contract', 'verbs.ts'), 'utf8')).not.toMatch(/from 'zod'/);
  });
});
