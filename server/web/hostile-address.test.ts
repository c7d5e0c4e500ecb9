/**
 * NUL in the address of any HTTP surface (issue 11, reproducer 5): the catalogue's
 * InvalidParameterException naming the part, never HTTP 500 with the SQL in the logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';

interface Envelope {
  error?: { type: string; error_data?: Record<string, unknown> };
}

describe.each(testDatabaseKinds())('hostile text in addresses on %s (issue 11: NUL outside the product API)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  async function refused(path: string): Promise<string | undefined> {
    const response = await t.request(path);
    expect(response.status, path).toBe(400);
    const body = (await response.json()) as Envelope;
    expect(body.error?.type, path).toBe('InvalidParameterException');
    return body.error?.error_data?.field as string | undefined;
  }

  it('names the query parameter holding NUL, on every surface that reads one', async () => {
    expect(await refused('/hit?referrer=a%00b')).toBe('referrer');
    expect(await refused('/hit?track_id=x&seon_session=%00')).toBe('seon_session');
    expect(await refused('/oauth/init?service=dev&redirect_url=/&type_auth=login%00')).toBe('type_auth');
    expect(await refused('/oauth/callback/dev?state=%00')).toBe('state');
    expect(await refused('/backoffice/withdrawals?status=%00')).toBe('status');
    expect(await refused('/api/storage.getKeys?v=2.34&locale=en%00')).toBe('locale');
  });

  it('names the path when a segment decodes to NUL', async () => {
    expect(await refused('/cms/pro%00motions')).toBe('path');
    expect(await refused('/oauth/callback/de%00v?state=x')).toBe('path');
    expect(await refused('/nfx/config/e%00n')).toBe('path');
  });

  it('refuses NUL written raw, not escaped: the address as the request carries it is escaped (issue 12 skips unescaped ones)', async () => {
    expect(await refused('/cms/pro\u0000motions')).toBe('path');
    expect(await refused('/hit?referrer=a\u0000b')).toBe('referrer');
  });

  it('leaves ordinary addresses alone: the visit is recorded', async () => {
    const response = await t.request('/hit?referrer=https%3A%2F%2Fexample.com%2F&track_id=t1');
    expect(response.status).toBe(200);
  });
});
