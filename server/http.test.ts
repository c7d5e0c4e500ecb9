import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_METRICS_TOKEN, type TestApp } from '../test/api-harness';
import { testDatabaseKinds } from '../test/databases';

/** The value of one sample of a Prometheus text exposition, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.indexOf('}'));
    const found = Object.fromEntries(inner.split(',').map((pair) => [pair.split('=')[0], pair.split('=')[1]?.replace(/"/g, '')]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe.each(testDatabaseKinds())('operations endpoints on %s (architecture §1: /healthz, /metrics)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  it('answers /healthz with status ok after reaching the database', async () => {
    const response = await t.request('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('exposes Prometheus text at /metrics whose http_requests_total counts the requests served', async () => {
    const read = async () => {
      const response = await t.request('/metrics', { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      return response.text();
    };
    const before = await read();
    expect(before).toContain('# TYPE http_requests_total counter');
    const apiOk = { kind: 'api', status: '200' };
    const apiNotFound = { kind: 'api', status: '404' };
    const calls = 3;
    for (let i = 0; i < calls; i += 1) await t.api('metadata.getgeneralinfo');
    await t.api('nosuch.method');
    const after = await read();
    expect(sample(after, 'http_requests_total', apiOk) - sample(before, 'http_requests_total', apiOk)).toBe(calls);
    expect(sample(after, 'http_requests_total', apiNotFound) - sample(before, 'http_requests_total', apiNotFound)).toBe(1);
    expect(after).toContain('http_request_duration_seconds_bucket');
  });

  it('sends security headers on every answer (frames from the same origin only)', async () => {
    for (const path of ['/healthz', '/api/metadata.getgeneralinfo', '/robots.txt']) {
      const response = await t.request(path);
      expect(response.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});
