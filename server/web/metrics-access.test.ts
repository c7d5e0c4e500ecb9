import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createHttpApp } from '../http';
import { NO_PROXY } from './client-address';
import { createServices } from '../services';
import { runMigrations } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../test/databases';
import { createMetrics, createPrivateMetricsApp, type Metrics } from './metrics';

describe('/metrics access (issue 11: the token on the site listener, or a private listener)', () => {
  let database: TestDatabase;
  const token = 'metrics-token-for-tests-only';
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await runMigrations(database.handle);
  });
  afterAll(() => database?.drop());

  function app(metricsToken?: string, metrics?: Metrics) {
    return createHttpApp({
      services: createServices(database.handle.db, { notify: database.handle.notify }),
      logger: pino({ level: 'silent' }),
      mode: 'test',
      maxBodyBytes: 1024,
      proxy: NO_PROXY,
      buildVersion: 't',
      metricsToken,
      metrics,
    });
  }

  it('with a token configured, refuses a scrape without it or with another and serves one with it', async () => {
    const withToken = app(token);
    expect((await withToken.request('http://127.0.0.1/metrics')).status).toBe(403);
    expect(
      (await withToken.request('http://127.0.0.1/metrics', { headers: { authorization: 'Bearer wrong-token-of-some-length' } }))
        .status,
    ).toBe(403);
    expect((await withToken.request('http://127.0.0.1/metrics', { headers: { authorization: token } })).status).toBe(403);
    const ok = await withToken.request('http://127.0.0.1/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('http_requests_total');
  });

  it('without a token, refuses even a loopback client (behind a proxy on this host every visitor is loopback)', async () => {
    const answer = await app().request('http://127.0.0.1/metrics');
    expect(answer.status).toBe(403);
    expect(await answer.text()).not.toContain('http_requests_total');
  });

  it('the private listener serves the site listener’s figures without a token, and nothing but /metrics', async () => {
    const metrics = createMetrics();
    const site = app(undefined, metrics);
    await site.request('http://127.0.0.1/healthz');
    const privateApp = createPrivateMetricsApp(metrics);
    const scrape = await privateApp.request('http://127.0.0.1/metrics');
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toMatch(/http_requests_total\{kind="page",status="200"\} 1/);
    expect((await privateApp.request('http://127.0.0.1/healthz')).status).toBe(404);
    expect((await privateApp.request('http://127.0.0.1/api/account.getInfo')).status).toBe(404);
  });
});
