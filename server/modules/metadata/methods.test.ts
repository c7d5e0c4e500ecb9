import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { defaultSiteSeed, readSiteSeeds, siteSeed, type SiteSeedFile } from '../../../test/fixtures';

/** The general site info fields of spec §3, in the spec's words. */
const GENERAL_INFO_FIELDS = [
  'analytic',
  'available_currencies',
  'available_locales',
  'default_currency',
  'is_seon_enabled',
  'domain_state',
  'domain_type',
  'time_to_force_logout',
  'is_bonus_isolation_enabled',
  'is_game_history_export_enabled',
  'user_inactivity_cashier_time',
  'user_inactivity_pp_time',
];

/** Settings of sites.json that are general info fields as they are. */
const SETTING_FIELDS = [
  'analytic',
  'is_seon_enabled',
  'domain_state',
  'domain_type',
  'time_to_force_logout',
  'is_bonus_isolation_enabled',
  'is_game_history_export_enabled',
  'user_inactivity_cashier_time',
  'user_inactivity_pp_time',
];

type GeneralInfo = Record<string, unknown> & {
  available_locales: { code: string; name: string; language: string; dir: string }[];
};

describe.each(testDatabaseKinds())('metadata on %s (spec §3 general site info, spec §1 configured per host)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  async function generalInfo(host: string): Promise<GeneralInfo> {
    const { status, body } = await t.api('metadata.getgeneralinfo', { host });
    expect(status).toBe(200);
    return body.data as GeneralInfo;
  }

  function expectInfoOf(info: GeneralInfo, seed: SiteSeedFile) {
    expect(Object.keys(info).sort()).toEqual([...GENERAL_INFO_FIELDS].sort());
    expect(info.default_currency).toBe(seed.defaultCurrency);
    expect(info.available_currencies).toEqual(seed.currencies);
    expect(info.available_locales.map((locale) => locale.code)).toEqual(seed.locales);
    for (const locale of info.available_locales) {
      expect(Object.keys(locale).sort()).toEqual(['code', 'dir', 'language', 'name']);
    }
    for (const field of SETTING_FIELDS) {
      if (seed.settings && field in seed.settings) expect(info[field], field).toEqual(seed.settings[field]);
    }
  }

  it.each(['127.0.0.1', 'aurora.localhost', 'localhost'])(
    'gives host %s the Aurora site with all general info fields',
    async (host) => {
      const seed = siteSeed('aurora');
      expect(seed.hosts).toContain(host);
      const info = await generalInfo(host);
      expectInfoOf(info, seed);
      expect(info.default_currency).toBe('EUR');
    },
  );

  it('gives lagoon.localhost the Lucky Lagoon site: USD with the fraud check enabled', async () => {
    const seed = siteSeed('lagoon');
    expect(seed.name).toBe('Lucky Lagoon');
    const info = await generalInfo('lagoon.localhost');
    expectInfoOf(info, seed);
    expect(info.default_currency).toBe('USD');
    expect(info.is_seon_enabled).toBe(true);
  });

  it('gives a host no site names the default site', async () => {
    const unknown = 'nobody-configured-this.example';
    expect(readSiteSeeds().flatMap((site) => site.hosts)).not.toContain(unknown);
    expectInfoOf(await generalInfo(unknown), defaultSiteSeed());
  });

  it('answers metadata.get with the site id and name of the host and its meta-data-tool section', async () => {
    for (const seed of readSiteSeeds().filter((site) => !site.isMaintenance)) {
      const { status, body } = await t.api('metadata.get', { host: seed.hosts[0] });
      expect(status).toBe(200);
      const data = body.data as { site: { id: string; name: string }; meta: unknown };
      expect(data.site).toEqual({ id: seed.id, name: seed.name });
      const config = (await (await t.request('/nfx/cms-config/en', { host: seed.hosts[0] })).json()) as Record<string, unknown>;
      expect(data.meta).toEqual(config['meta-data-tool']);
    }
  });
});
