/**
 * A suite's test app on one database kind and its default site (the one 127.0.0.1 resolves to):
 * made before the suite's tests and dropped after them. Read its fields inside the tests.
 */
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './api-harness';
import type { DatabaseKind } from './databases';

export interface SiteApp {
  t: TestApp;
  siteId: string;
  currency: string;
}

export function useSiteApp(kind: DatabaseKind): SiteApp {
  const suite = {} as SiteApp;
  beforeAll(async () => {
    suite.t = await createTestApp(kind);
    const site = await suite.t.services.sites.resolveSite('127.0.0.1');
    suite.siteId = site.id;
    suite.currency = site.defaultCurrency;
  });
  afterAll(() => suite.t.close());
  return suite;
}
