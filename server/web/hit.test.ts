import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { cookiePair, siteSeed } from '../../test/fixtures';
import { hits } from '../db/schema';

describe.each(testDatabaseKinds())('GET /hit on %s (spec §7: referrer, track_id split, seon_session)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  async function hit(query: Record<string, string>, options: { host?: string; headers?: Record<string, string> } = {}) {
    const response = await t.request(`/hit?${new URLSearchParams(query)}`, { host: options.host, headers: options.headers });
    const cookie = cookiePair(response, 'vid') ?? options.headers?.cookie ?? '';
    const visitorId = cookie.slice('vid='.length);
    const rows = await t.db.select().from(hits).where(eq(hits.visitorId, visitorId));
    return { response, rows, visitorId };
  }

  it('stores the referrer, the visitor, the site and the user agent of the visit', async () => {
    const referrer = 'https://search.example/?q=casino';
    const host = siteSeed('lagoon').hosts[0];
    const { response, rows, visitorId } = await hit({ referrer }, { host, headers: { 'user-agent': 'TestAgent/1.0' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: 1 });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      siteId: 'lagoon',
      visitorId,
      uid: 0,
      referrer,
      userAgent: 'TestAgent/1.0',
      trackId: null,
      seonSession: null,
    });
  });

  it('reads the referrer from a parameter named referer as well, the spelling of spec §7', async () => {
    const referrer = 'https://social.example/post/1';
    const { rows } = await hit({ referer: referrer });
    expect(rows.map((row) => row.referrer)).toEqual([referrer]);
  });

  it('falls back to the Referer header when no referrer parameter is sent', async () => {
    const referer = 'https://partner.example/landing';
    const { rows } = await hit({}, { headers: { referer } });
    expect(rows.map((row) => row.referrer)).toEqual([referer]);
  });

  it.each([
    ['td_campaign_spring', 'campaign', 'spring'],
    ['td_aff_id_with_underscores', 'aff', 'id_with_underscores'],
    ['td_source_', 'source', null],
    ['td_source', 'source', null],
  ])('splits track_id %s (td_{name}_{value}) into name %s and value %s', async (trackId, name, value) => {
    const { rows } = await hit({ track_id: trackId });
    expect(rows.map((row) => [row.trackId, row.trackName, row.trackValue])).toEqual([[trackId, name, value]]);
  });

  it('keeps a track_id that does not start with td_ without a name or value', async () => {
    const trackId = 'utm_campaign_spring';
    const { rows } = await hit({ track_id: trackId });
    expect(rows.map((row) => [row.trackId, row.trackName, row.trackValue])).toEqual([[trackId, null, null]]);
  });

  it('stores the fraud-check seon_session', async () => {
    const session = `seon-${'s'.repeat(40)}`;
    const { rows } = await hit({ seon_session: session }, { host: siteSeed('lagoon').hosts[0] });
    expect(rows.map((row) => row.seonSession)).toEqual([session]);
  });

  it('records each hit of the same visitor as its own row', async () => {
    const first = await hit({ referrer: 'https://a.example/' });
    const cookie = `vid=${first.visitorId}`;
    const second = await hit({ referrer: 'https://b.example/' }, { headers: { cookie } });
    expect(second.rows.map((row) => row.referrer).sort()).toEqual(['https://a.example/', 'https://b.example/']);
  });
});
