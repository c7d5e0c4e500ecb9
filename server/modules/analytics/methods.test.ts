import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { cookiePair, siteSeed } from '../../../test/fixtures';
import { analyticsEvents } from './tables';

describe.each(testDatabaseKinds())('events.handle on %s (spec §7: GET with event_name and event_params)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  async function newVisitor(host?: string): Promise<{ cookie: string; visitorId: string }> {
    const cookie = cookiePair(await t.request('/api/storage.getKeys', { host }), 'vid');
    if (!cookie) throw new Error('no vid cookie issued');
    return { cookie, visitorId: cookie.slice('vid='.length) };
  }
  const eventsOf = (visitorId: string) => t.db.select().from(analyticsEvents).where(eq(analyticsEvents.visitorId, visitorId));

  it('stores the event with its parsed params, the visitor and the site of the host', async () => {
    const host = siteSeed('lagoon').hosts[0] ?? '';
    const { cookie, visitorId } = await newVisitor(host);
    const params = { route: '/promotions', position: 3, nested: { ok: true } };
    const { status, body } = await t.api('events.handle', {
      host,
      params: { event_name: 'banner_click', event_params: JSON.stringify(params) },
      headers: { cookie },
    });
    expect(status).toBe(200);
    expect(body).toEqual({ data: 1 });
    const rows = await eventsOf(visitorId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ siteId: 'lagoon', visitorId, uid: 0, eventName: 'banner_click', eventParams: params });
  });

  it('stores an event without event_params with empty params', async () => {
    const { cookie, visitorId } = await newVisitor();
    await t.api('events.handle', { params: { event_name: 'app_start' }, headers: { cookie } });
    const rows = await eventsOf(visitorId);
    expect(rows.map((row) => [row.siteId, row.eventName, row.eventParams])).toEqual([[siteSeed('aurora').id, 'app_start', {}]]);
  });

  it('accepts a POST with a JSON body whose event_params is an object', async () => {
    const { cookie, visitorId } = await newVisitor();
    const params = { error_code: 'AuthorizationException' };
    const response = await t.request('/api/events.handle?v=2.34&locale=en', {
      method: 'POST',
      body: JSON.stringify({ event_name: 'login_failed', event_params: params }),
      headers: { cookie, 'content-type': 'application/json' },
    });
    expect(response.status).toBe(200);
    expect((await eventsOf(visitorId)).map((row) => row.eventParams)).toEqual([params]);
  });

  it.each([
    ['event_params that are not JSON', { event_name: 'click', event_params: 'not json' }, 'event_params'],
    ['event_params that are JSON but not an object', { event_name: 'click', event_params: '"text"' }, 'event_params'],
    ['an event_name with spaces', { event_name: 'two words', event_params: '{}' }, 'event_name'],
    ['an empty event_name', { event_name: '', event_params: '{}' }, 'event_name'],
  ])('refuses %s with InvalidParameterException and stores nothing', async (_label, params, field) => {
    const { cookie, visitorId } = await newVisitor();
    const { status, body } = await t.api('events.handle', { params, headers: { cookie } });
    expect(status).toBe(400);
    expect(body.error?.type).toBe('InvalidParameterException');
    expect(body.error?.error_data?.field).toBe(field);
    expect(await eventsOf(visitorId)).toEqual([]);
  });
});
