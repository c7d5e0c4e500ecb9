import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { createTestApp, TEST_MAX_BODY_BYTES, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { cookiePair } from '../../test/fixtures';
import { ERROR_TYPES } from '#common/errors';
import { API_VERSION } from '#common/api-contract';
import { METHOD_REGISTRY } from './registry';

/** Statuses of architecture §4, written out here so the test does not read them from the code. */
const STATUS_OF = {
  InvalidParameterException: 400,
  InvalidRequestException: 400,
  AccessDeniedException: 403,
  MethodNotFoundException: 404,
  StorageQuotaExceededException: 409,
  ApplicationDisabledException: 503,
  UnknownErrorException: 500,
} as const;

interface Envelope {
  data?: unknown;
  error?: { type: string; message: string; error_data?: Record<string, unknown> };
}

/** The error half of the envelope: exactly {error:{type, message[, error_data]}}, nothing else. */
function expectErrorEnvelope(body: Envelope, type: keyof typeof STATUS_OF) {
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error?.type).toBe(type);
  expect(typeof body.error?.message).toBe('string');
  expect(body.error?.message.length).toBeGreaterThan(0);
  for (const key of Object.keys(body.error ?? {})) expect(['type', 'message', 'error_data']).toContain(key);
}

function apiPath(call: string, query: Record<string, string> = {}) {
  return `/api/${call}?${new URLSearchParams({ v: API_VERSION, locale: 'en', ...query })}`;
}

describe.each(testDatabaseKinds())('product API envelope on %s (architecture §4)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  it('answers a successful call with {data} only and status 200', async () => {
    const { status, body } = await t.api('metadata.getgeneralinfo');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data).toBeTypeOf('object');
  });

  it('matches service and method names case-insensitively, as the spec spells both getInfo and getinfo', async () => {
    const lower = await t.api('account.getinfo');
    const camel = await t.api('account.getInfo');
    expect(lower.status).toBe(200);
    expect(lower.body).toEqual(camel.body);
  });

  it('ignores unknown parameters instead of refusing the call (architecture §4)', async () => {
    const plain = await t.api('metadata.getgeneralinfo');
    const extra = await t.api('metadata.getgeneralinfo', { params: { unexpected: 'x', other: '1' } });
    expect(extra.status).toBe(200);
    expect(extra.body).toEqual(plain.body);
  });

  it.each([
    ['an unknown service', 'nosuchservice.get'],
    ['an unknown method of a known service', 'storage.nosuchmethod'],
    ['a call without a dot', 'storage'],
    ['a call with an empty method', 'storage.'],
    ['a call with an empty service', '.get'],
    ['a call with a method name followed by another segment', 'storage.getKeys.extra'],
  ])('answers %s with 404 MethodNotFoundException', async (_label, call) => {
    const { status, body } = await t.api(call);
    expect(status).toBe(STATUS_OF.MethodNotFoundException);
    expectErrorEnvelope(body, 'MethodNotFoundException');
  });

  it('answers a path below a method (/api/a.b/c) with a 404 error envelope, not a page', async () => {
    const response = await t.request(apiPath('storage.get/extra'));
    expect(response.status).toBe(404);
    expectErrorEnvelope((await response.json()) as Envelope, 'MethodNotFoundException');
  });

  it.each([
    ['GET', 'storage.set'],
    ['POST', 'metadata.getgeneralinfo'],
    ['POST', 'storage.getKeys'],
    ['PUT', 'storage.set'],
    ['DELETE', 'storage.set'],
  ])('answers %s on %s, which does not declare that verb, with 400 InvalidRequestException', async (verb, call) => {
    const method = METHOD_REGISTRY.get(call.toLowerCase());
    expect(method?.verbs).not.toContain(verb);
    const response = await t.request(apiPath(call, { key: 'k', value: 'v' }), { method: verb });
    expect(response.status).toBe(STATUS_OF.InvalidRequestException);
    expectErrorEnvelope((await response.json()) as Envelope, 'InvalidRequestException');
  });

  it.each([
    ['storage.set without key', 'storage.set', 'POST', { value: 'v' }, 'key'],
    ['storage.set without value', 'storage.set', 'POST', { key: 'k' }, 'value'],
    ['storage.set with a key of forbidden characters', 'storage.set', 'POST', { key: 'no spaces', value: 'v' }, 'key'],
    ['storage.get without keys', 'storage.get', 'GET', {}, 'keys'],
    ['storage.get whose second key is invalid', 'storage.get', 'GET', { keys: 'fine,not valid!' }, 'keys.1'],
    [
      'events.handle with event_params that are not JSON',
      'events.handle',
      'GET',
      { event_name: 'click', event_params: '{oops' },
      'event_params',
    ],
    [
      'events.handle with event_params that are a JSON array',
      'events.handle',
      'GET',
      { event_name: 'click', event_params: '[1,2]' },
      'event_params',
    ],
    ['events.handle without event_name', 'events.handle', 'GET', { event_params: '{}' }, 'event_name'],
  ] as const)(
    'answers %s with 400 InvalidParameterException naming the field in error_data.field',
    async (_label, call, method, params, field) => {
      const { status, body } = await t.api(call, { method, params: { ...params } });
      expect(status).toBe(STATUS_OF.InvalidParameterException);
      expectErrorEnvelope(body, 'InvalidParameterException');
      expect(body.error?.error_data?.field).toBe(field);
    },
  );

  it('answers an unknown locale query value with InvalidParameterException naming locale', async () => {
    const { status, body } = await t.api('metadata.getgeneralinfo', { locale: 'xx' });
    expect(status).toBe(STATUS_OF.InvalidParameterException);
    expectErrorEnvelope(body, 'InvalidParameterException');
    expect(body.error?.error_data?.field).toBe('locale');
  });

  describe('request bodies (architecture §4: form data, urlencoded or multipart; JSON accepted too)', () => {
    async function visitor(): Promise<string> {
      const response = await t.request(apiPath('storage.getKeys'));
      const cookie = cookiePair(response, 'vid');
      if (!cookie) throw new Error('no vid cookie issued');
      return cookie;
    }
    async function storedKeys(cookie: string): Promise<unknown> {
      const { body } = await t.api('storage.getKeys', { headers: { cookie } });
      return body.data;
    }

    it('accepts urlencoded, multipart and JSON bodies alike', async () => {
      const cookie = await visitor();
      const multipart = new FormData();
      multipart.set('key', 'multi');
      multipart.set('value', 'part');
      const bodies: [string, BodyInit, Record<string, string>][] = [
        ['form', new URLSearchParams({ key: 'form', value: 'urlencoded' }), {}],
        ['multi', multipart, {}],
        ['json', JSON.stringify({ key: 'json', value: 'object' }), { 'content-type': 'application/json' }],
      ];
      for (const [, body, headers] of bodies) {
        const response = await t.request(apiPath('storage.set'), { method: 'POST', body, headers: { cookie, ...headers } });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ data: 1 });
      }
      const { body } = await t.api('storage.get', { params: { keys: 'form,multi,json' }, headers: { cookie } });
      expect(body.data).toEqual({ form: 'urlencoded', multi: 'part', json: 'object' });
    });

    it.each([
      ['a truncated JSON body', '{"key":"a","value":', 'application/json'],
      ['a JSON array body', '["key","value"]', 'application/json'],
      ['a JSON string body', '"key"', 'application/json'],
      ['a plain-text body', 'key=a&value=b', 'text/plain'],
      ['a body with no content type', 'key=a&value=b', ''],
      ['an XML body', '<set><key>a</key></set>', 'application/xml'],
    ])('answers %s with 400 InvalidRequestException and writes nothing', async (_label, payload, contentType) => {
      const cookie = await visitor();
      const headers: Record<string, string> = { cookie };
      const body = new TextEncoder().encode(payload);
      if (contentType) headers['content-type'] = contentType;
      const response = await t.request(apiPath('storage.set'), { method: 'POST', body, headers });
      expect(response.status).toBe(STATUS_OF.InvalidRequestException);
      expectErrorEnvelope((await response.json()) as Envelope, 'InvalidRequestException');
      expect(await storedKeys(cookie)).toEqual([]);
    });

    it('answers a body one byte over the limit, declared by Content-Length, with 413 and an error envelope', async () => {
      const cookie = await visitor();
      const value = 'x'.repeat(TEST_MAX_BODY_BYTES);
      const body = new URLSearchParams({ key: 'big', value }).toString();
      expect(body.length).toBeGreaterThan(TEST_MAX_BODY_BYTES);
      const response = await t.request(apiPath('storage.set'), {
        method: 'POST',
        body,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) },
      });
      expect(response.status).toBe(413);
      const envelope = (await response.json()) as Envelope;
      expect(Object.keys(envelope)).toEqual(['error']);
      expect(envelope.error?.type).toBe('InvalidRequestException');
      expect(await storedKeys(cookie)).toEqual([]);
    });

    it('answers an oversized body streamed without Content-Length with 413 as well', async () => {
      const cookie = await visitor();
      const chunk = new TextEncoder().encode(`key=big&value=${'y'.repeat(1024)}`);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > TEST_MAX_BODY_BYTES) return controller.close();
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const response = await t.request(apiPath('storage.set'), {
        method: 'POST',
        body: stream,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(((await response.json()) as Envelope).error?.type).toBe('InvalidRequestException');
      expect(await storedKeys(cookie)).toEqual([]);
    });

    it('reads a body of exactly the limit (the limit is inclusive)', async () => {
      const cookie = await visitor();
      const prefix = 'key=edge&value=';
      const body = prefix + 'z'.repeat(TEST_MAX_BODY_BYTES - prefix.length);
      expect(body.length).toBe(TEST_MAX_BODY_BYTES);
      const response = await t.request(apiPath('storage.set'), {
        method: 'POST',
        body,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) },
      });
      // Read and judged by the storage rules (value over 4096 bytes), not refused for size.
      expect(response.status).toBe(STATUS_OF.StorageQuotaExceededException);
      expect(((await response.json()) as Envelope).error?.type).toBe('StorageQuotaExceededException');
    });
  });

  it('never answers with a 500 or a type outside the catalogue of spec §8, whatever the request', async () => {
    const calls = [...METHOD_REGISTRY.values()].map((method) => `${method.service}.${method.method}`);
    const callName = fc.oneof(
      fc.constantFrom(...calls),
      fc.string({ maxLength: 20 }).map((text) => encodeURIComponent(text) || 'x'),
    );
    const params = fc.dictionary(
      fc.constantFrom('key', 'value', 'keys', 'event_name', 'event_params', 'locale', 'v', 'x[]', 'keys[]'),
      fc.string({ maxLength: 30 }),
    );
    const contentType = fc.constantFrom(
      'application/x-www-form-urlencoded',
      'application/json',
      'multipart/form-data',
      'text/plain',
      '',
    );
    await fc.assert(
      fc.asyncProperty(
        callName,
        fc.constantFrom('GET', 'POST', 'PUT', 'HEAD'),
        params,
        contentType,
        fc.string({ maxLength: 60 }),
        async (call, verb, query, type, rawBody) => {
          const headers: Record<string, string> = type ? { 'content-type': type } : {};
          const hasBody = verb === 'POST' || verb === 'PUT';
          const response = await t.request(`/api/${call}?${new URLSearchParams(query)}`, {
            method: verb,
            headers,
            body: hasBody ? rawBody : undefined,
          });
          expect(response.status).toBeLessThan(500);
          if (verb === 'HEAD') return;
          const body = (await response.json()) as Envelope;
          if (response.status === 200) expect(Object.keys(body)).toEqual(['data']);
          else expect(ERROR_TYPES).toContain(body.error?.type);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe.each(testDatabaseKinds())('an unexpected failure on %s (architecture §4: 500 unknown, never with internals)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    // Break the storage table under the running app, as a failed migration or lost database would.
    await t.db.execute(sql`ALTER TABLE storage_entries RENAME TO storage_entries_gone`);
  });
  afterAll(() => t?.close());

  it('answers 500 UnknownErrorException whose message carries nothing of the database error', async () => {
    const internal = await t.services.storage.getKeys('v:probe').then(
      () => '',
      (error: unknown) =>
        error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? '')}` : String(error),
    );
    expect(internal).toContain('storage_entries');
    const { status, body } = await t.api('storage.getKeys');
    expect(status).toBe(STATUS_OF.UnknownErrorException);
    expectErrorEnvelope(body, 'UnknownErrorException');
    const answer = JSON.stringify(body);
    expect(answer).not.toContain('storage_entries');
    expect(answer).not.toMatch(/select|relation|\bat \w+ \(|\.ts:\d+/i);
  });
});
