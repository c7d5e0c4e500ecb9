/**
 * Text parameters with NUL or a lone surrogate (issue 11, reproducer 5: storage.set, auth.login and
 * seven more answered HTTP 500 and logged the SQL). Every registered method, every parameter its
 * schema names: the answer is InvalidParameterException naming the field, never 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_VERSION } from '#common/api-contract';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { signedInPlayer } from '../../test/player';
import { METHOD_REGISTRY } from './registry';
import type { ApiMethod } from './define';

/** NUL travels in a query or a body; a lone surrogate only as a JSON escape (UTF-8 cannot carry one). */
const NUL = 'a\u0000b';
const LONE_SURROGATES = ['\ud800x', 'x\udfff', '\udc00\ud800'];

interface Envelope {
  data?: unknown;
  error?: { type: string; message: string; error_data?: Record<string, unknown> };
}

/** The parameter names a method's schema declares (through pipes, transforms and wrappers). */
function paramNames(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  const def = (schema as unknown as { _zod: { def: { in?: z.ZodType; innerType?: z.ZodType; schema?: z.ZodType } } })._zod.def;
  const inner = def.in ?? def.innerType ?? def.schema;
  return inner ? paramNames(inner) : [];
}

const METHODS: ApiMethod[] = [...new Map([...METHOD_REGISTRY.values()].map((method) => [method.name, method])).values()];
const WITH_PARAMS = METHODS.map((method) => ({ method, names: paramNames(method.params as z.ZodType) })).filter(
  ({ names }) => names.length > 0,
);

describe.each(testDatabaseKinds())('hostile text in parameters on %s (issue 11: NUL and lone surrogates)', (kind) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    cookie = (await signedInPlayer(t)).browser.cookie;
  });
  afterAll(() => t?.close());

  /** Calls a method as the signed-in player: GET in the query, POST as a JSON body. */
  async function call(method: ApiMethod, params: Record<string, unknown>): Promise<{ status: number; body: Envelope }> {
    const query = new URLSearchParams({ v: API_VERSION, locale: 'en' });
    const isGet = !method.verbs.includes('POST');
    if (isGet) for (const [name, value] of Object.entries(params)) query.set(name, String(value));
    const response = await t.request(`/api/${method.name}?${query}`, {
      method: isGet ? 'GET' : 'POST',
      headers: { cookie, ...(isGet ? {} : { 'content-type': 'application/json' }) },
      body: isGet ? undefined : JSON.stringify(params),
    });
    return { status: response.status, body: (await response.json()) as Envelope };
  }

  function expectRefusalNaming(answer: { status: number; body: Envelope }, field: string, what: string) {
    expect(answer.status, what).toBe(400);
    expect(answer.body.error?.type, what).toBe('InvalidParameterException');
    expect(answer.body.error?.error_data?.field, what).toBe(field);
  }

  it('the registry has methods with parameters to try, among them storage.set and auth.login', () => {
    const names = WITH_PARAMS.map(({ method }) => method.name);
    expect(names).toEqual(expect.arrayContaining(['storage.set', 'auth.login', 'auth.register']));
    expect(WITH_PARAMS.length).toBeGreaterThan(30);
  });

  it('a NUL in any parameter of any method is InvalidParameterException naming that parameter', async () => {
    for (const { method, names } of WITH_PARAMS) {
      for (const name of names) expectRefusalNaming(await call(method, { [name]: NUL }), name, `${method.name} ${name}`);
    }
  });

  it('a lone surrogate in any parameter of any POST method is InvalidParameterException naming that parameter', async () => {
    for (const { method, names } of WITH_PARAMS.filter(({ method }) => method.verbs.includes('POST'))) {
      for (const name of names) {
        for (const value of LONE_SURROGATES) {
          expectRefusalNaming(await call(method, { [name]: value }), name, `${method.name} ${name} ${JSON.stringify(value)}`);
        }
      }
    }
  });

  it('names nested fields and hostile keys by their path, and lets a proper surrogate pair through', async () => {
    const set = METHOD_REGISTRY.get('storage.set') as ApiMethod;
    expectRefusalNaming(await call(set, { key: 'k', value: { deep: ['ok', 'x\u0000'] } }), 'value.deep.1', 'nested');
    expectRefusalNaming(await call(set, { key: 'k', value: { 'a\u0000': 'x' } }), 'value.a\uFFFD', 'key');
    const stored = await call(set, { key: 'emoji', value: 'dice 🎲' });
    expect(stored.status).toBe(200);
  });

  it('storage.set and auth.login, the reproducers, answer 400 and the player can go on', async () => {
    const set = METHOD_REGISTRY.get('storage.set') as ApiMethod;
    const login = METHOD_REGISTRY.get('auth.login') as ApiMethod;
    expectRefusalNaming(await call(set, { key: 'note', value: NUL }), 'value', 'storage.set');
    expectRefusalNaming(await call(login, { login: NUL, password: 'secret12' }), 'login', 'auth.login');
    expect((await call(set, { key: 'note', value: 'plain' })).status).toBe(200);
  });

  it('a JSON body nested deeper than the call stack is refused as a parameter, not a crash', async () => {
    const depth = 20_000;
    const response = await t.request(`/api/storage.set?${new URLSearchParams({ v: API_VERSION, locale: 'en' })}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: `{"key":"k","value":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}`,
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as Envelope;
    expect(error?.type).toBe('InvalidParameterException');
    expect(String(error?.error_data?.field)).toMatch(/^value\.0\.0\./);
  });
});
