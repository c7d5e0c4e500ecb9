import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createHttpApp } from '../http';
import { NO_PROXY } from './client-address';
import { createServices } from '../services';
import { runMigrations } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../test/databases';

describe('/metrics access (operators scrape from inside, or with METRICS_TOKEN)', () => {
  let database: TestDatabase;
  const token = 'metrics-token-for-tests-only';
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await runMigrations(database.handle);
  });
  afterAll(() => database?.drop());

  function app(metricsToken?: string) {
    return createHttpApp({
      services: createServices(database.handle.db),
      logger: pino({ level: 'silent' }),
      mode: 'test',
      maxBodyBytes: 1024,
      proxy: NO_PROXY,
      buildVersion: 't',
      metricsToken,
    });
  }

  it('with a token configured, refuses a scrape without it and serves one with it', async () => {
    const withToken = app(token);
    expect((await withToken.request('http://127.0.0.1/metrics')).status).toBe(403);
    expect(
      (await withToken.request('http://127.0.0.1/metrics', { headers: { authorization: 'Bearer wrong-token-of-some-length' } }))
        .status,
    ).toBe(403);
    const ok = await withToken.request('http://127.0.0.1/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('http_requests_total');
  });

  it('without a token, serves loopback clients (the in-process request comes from 127.0.0.1)', async () => {
    expect((await app().request('http://127.0.0.1/metrics')).status).toBe(200);
  });
});
