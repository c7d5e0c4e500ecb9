import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { readSiteSeeds } from '../../test/fixtures';
import { METHOD_REGISTRY } from './registry';

/** Valid parameters per method, so an answer other than 503 means the method really ran. */
const VALID_PARAMS: Record<string, Record<string, string>> = {
  'storage.get': { keys: 'a' },
  'storage.set': { key: 'a', value: 'b' },
  'events.handle': { event_name: 'page_view', event_params: '{"path":"/"}' },
};

/**
 * Spec §8: the site must still render its maintenance page, so it needs its metadata and
 * analytics; and a player can always sign out.
 */
function isAllowedInMaintenance(service: string, method: string): boolean {
  return service === 'metadata' || ['events.handle', 'auth.logout'].includes(`${service}.${method}`.toLowerCase());
}

const maintenanceSite = readSiteSeeds().find((site) => site.isMaintenance === true);

describe.each(testDatabaseKinds())('a site in maintenance on %s (spec §8: ApplicationDisabledException → 503)', (kind) => {
  let t: TestApp;
  const host = maintenanceSite?.hosts[0] ?? '';
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  it('is configured in content/sites.json with the host maintenance.localhost', () => {
    expect(maintenanceSite?.hosts).toContain('maintenance.localhost');
  });

  const methods = [...METHOD_REGISTRY.values()].map((m) => [`${m.service}.${m.method}`, m] as const);

  it.each(methods.filter(([, m]) => !isAllowedInMaintenance(m.service, m.method)))(
    'answers %s with 503 ApplicationDisabledException',
    async (name, method) => {
      const verb = method.verbs[0] ?? 'GET';
      const { status, body } = await t.api(name, { method: verb, params: VALID_PARAMS[name] ?? {}, host });
      expect(status).toBe(503);
      expect(body.error?.type).toBe('ApplicationDisabledException');
      // The same call on an active site is not refused as disabled, so the 503 comes from maintenance alone.
      const active = await t.api(name, { method: verb, params: VALID_PARAMS[name] ?? {} });
      expect(active.status).not.toBe(503);
      expect(active.body.error?.type).not.toBe('ApplicationDisabledException');
    },
  );

  it.each(methods.filter(([, m]) => isAllowedInMaintenance(m.service, m.method)))('still answers %s', async (name, method) => {
    const { status, body } = await t.api(name, { method: method.verbs[0] ?? 'GET', params: VALID_PARAMS[name] ?? {}, host });
    expect(status).toBe(200);
    expect(body.data).toBeDefined();
  });

  it('reports domain_state maintenance in the general info of that host', async () => {
    const { body } = await t.api('metadata.getgeneralinfo', { host });
    expect((body.data as { domain_state: string }).domain_state).toBe('maintenance');
  });
});
