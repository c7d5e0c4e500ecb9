/**
 * An in-process instance of the whole HTTP surface on a real database, for API tests:
 * migrations applied and demo content seeded, requests sent with app.request().
 */
import pino from 'pino';
import { createHttpApp, type HttpApp, type HttpAppOptions } from '../server/http';
import { NO_PROXY, type ProxyTrust } from '../server/web/client-address';
import { createServices, type ServiceOptions, type Services } from '../server/services';
import { listenForCacheChanges } from '../server/boot';
import { API_VERSION } from '../common/api-contract';
import { createSeededTestDatabase, type DatabaseKind, type TestDatabase } from './databases';
import type { Database } from '../server/db/client';

/** Largest request body the test app accepts (MAX_BODY_BYTES of a real process). */
export const TEST_MAX_BODY_BYTES = 64 * 1024;
/** The scrape token of the test app's /metrics (it serves metrics to no one without a token). */
export const TEST_METRICS_TOKEN = 'metrics-token-of-the-test-app';

export interface TestApp {
  app: HttpApp;
  /** What the app was made with: a test that serves it over Node as main.ts does needs them (web/api-lane.ts). */
  appOptions: HttpAppOptions;
  services: Services;
  database: TestDatabase;
  /** Raw SQL for a test's set-up and checks; the code under test reaches the database only through services. */
  db: Database;
  /** Sends a request as a browser on the given host would (default host 127.0.0.1). */
  request(path: string, init?: RequestInit & { host?: string }): Promise<Response>;
  /** Calls /api/{name} with v and locale and returns status and parsed body. */
  api(
    name: string,
    options?: {
      method?: 'GET' | 'POST';
      params?: Record<string, string>;
      locale?: string;
      headers?: Record<string, string>;
      host?: string;
    },
  ): Promise<{
    status: number;
    body: { data?: unknown; error?: { type: string; message: string; error_data?: Record<string, unknown> } };
  }>;
  close(): Promise<void>;
}

/** Options of a test app: the proxy trust of a process behind load balancers (default: none), and service options a process would pass (site secrets, providers). */
export interface TestAppOptions {
  proxy?: ProxyTrust;
  services?: ServiceOptions;
}

export async function createTestApp(kind: DatabaseKind, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createSeededTestDatabase(kind);
  // Listened for at once, as boot does.
  const services = createServices(database.handle.db, {
    hearsBalanceChanges: true,
    notify: database.handle.notify,
    ...options.services,
  });
  await listenForCacheChanges(database.handle, services);
  const appOptions: HttpAppOptions = {
    services,
    logger: pino({ level: 'silent' }),
    mode: 'test',
    maxBodyBytes: TEST_MAX_BODY_BYTES,
    proxy: options.proxy ?? NO_PROXY,
    buildVersion: 'test',
    metricsToken: TEST_METRICS_TOKEN,
  };
  const app = createHttpApp(appOptions);

  async function request(path: string, init: RequestInit & { host?: string } = {}) {
    const host = init.host ?? '127.0.0.1';
    const headers = new Headers(init.headers);
    if (!headers.has('host')) headers.set('host', host);
    return app.request(`http://${host}${path}`, { ...init, headers });
  }

  return {
    app,
    appOptions,
    services,
    database,
    db: database.handle.db,
    request,
    async api(name, options = {}) {
      const method = options.method ?? 'GET';
      const query = new URLSearchParams({ v: API_VERSION, locale: options.locale ?? 'en' });
      let body: URLSearchParams | undefined;
      if (method === 'GET') for (const [key, value] of Object.entries(options.params ?? {})) query.set(key, value);
      else body = new URLSearchParams(options.params ?? {});
      const response = await request(`/api/${name}?${query}`, { method, body, headers: options.headers, host: options.host });
      return { status: response.status, body: (await response.json()) as never };
    },
    close: async () => {
      await services.balanceChanges?.close();
      await database.drop();
    },
  };
}

/** The test app's services behind an HTTP app that knows these back-office operators (token → operator name). */
export function backofficeApp(testApp: Pick<TestApp, 'services'>, operators: Record<string, string>): HttpApp {
  return createHttpApp({
    services: testApp.services,
    logger: pino({ level: 'silent' }),
    mode: 'test',
    maxBodyBytes: TEST_MAX_BODY_BYTES,
    proxy: NO_PROXY,
    buildVersion: 'test',
    backofficeTokens: new Map(Object.entries(operators)),
  });
}
