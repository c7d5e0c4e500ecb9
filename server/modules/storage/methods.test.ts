import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { cookiePair, setCookieHeader } from '../../../test/fixtures';

/** Limits of storage.* (server/modules/storage/service.ts header), restated as the contract. */
const MAX_KEYS = 100;
const MAX_VALUE_BYTES = 4096;

describe.each(testDatabaseKinds())('storage per visitor on %s (spec §7 storage.get/getKeys/set)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  async function newVisitor(): Promise<string> {
    const response = await t.request('/api/storage.getKeys');
    const cookie = cookiePair(response, 'vid');
    if (!cookie) throw new Error('no vid cookie issued');
    return cookie;
  }
  const set = (cookie: string, key: string, value: string) =>
    t.api('storage.set', { method: 'POST', params: { key, value }, headers: { cookie } });
  const get = async (cookie: string, keys: string[]) =>
    (await t.api('storage.get', { params: { keys: keys.join(',') }, headers: { cookie } })).body.data;
  const keysOf = async (cookie: string) => (await t.api('storage.getKeys', { headers: { cookie } })).body.data as string[];

  it('issues the vid visitor cookie (HttpOnly, SameSite=Lax, path /) on the first answer only', async () => {
    const first = await t.request('/api/storage.getKeys');
    const header = setCookieHeader(first, 'vid') ?? '';
    expect(header).toMatch(/^vid=[A-Za-z0-9_-]{16,64};/);
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Lax/i);
    expect(header).toMatch(/Path=\//i);
    const again = await t.request('/api/storage.getKeys', { headers: { cookie: cookiePair(first, 'vid') ?? '' } });
    expect(setCookieHeader(again, 'vid')).toBeUndefined();
  });

  it('stores a value that storage.get and storage.getKeys give back to the same visitor', async () => {
    const cookie = await newVisitor();
    const entries = { promo_code: 'WELCOME', already_seen_cashback_id: '42', confirm_sent_7: 'ünïcødé ✓' };
    for (const [key, value] of Object.entries(entries)) expect((await set(cookie, key, value)).body).toEqual({ data: 1 });
    expect(await get(cookie, Object.keys(entries))).toEqual(entries);
    expect(await keysOf(cookie)).toEqual(Object.keys(entries).sort());
  });

  it('answers null for keys that were never set, and accepts keys[] as a list', async () => {
    const cookie = await newVisitor();
    await set(cookie, 'present', 'yes');
    const response = await t.request('/api/storage.get?keys[]=present&keys[]=absent', { headers: { cookie } });
    expect(await response.json()).toEqual({ data: { present: 'yes', absent: null } });
  });

  it('keeps one visitor apart from another: a second cookie sees nothing of the first', async () => {
    const first = await newVisitor();
    const second = await newVisitor();
    expect(second).not.toBe(first);
    await set(first, 'secret', 'mine');
    expect(await keysOf(second)).toEqual([]);
    expect(await get(second, ['secret'])).toEqual({ secret: null });
    await set(second, 'secret', 'theirs');
    expect(await get(first, ['secret'])).toEqual({ secret: 'mine' });
  });

  it('overwrites a key instead of adding a second one', async () => {
    const cookie = await newVisitor();
    await set(cookie, 'promo_code', 'FIRST');
    await set(cookie, 'promo_code', 'SECOND');
    expect(await get(cookie, ['promo_code'])).toEqual({ promo_code: 'SECOND' });
    expect(await keysOf(cookie)).toEqual(['promo_code']);
  });

  it(`refuses key ${MAX_KEYS + 1} with StorageQuotaExceededException and writes nothing, but still overwrites`, async () => {
    const cookie = await newVisitor();
    const keys = Array.from({ length: MAX_KEYS }, (_, i) => `k${String(i).padStart(3, '0')}`);
    for (const key of keys) expect((await set(cookie, key, key)).status).toBe(200);
    const over = await set(cookie, 'one_too_many', 'x');
    expect(over.status).toBe(409);
    expect(over.body.error?.type).toBe('StorageQuotaExceededException');
    expect(await keysOf(cookie)).toEqual(keys);
    // Overwriting a stored key adds no key, so it is allowed at the limit.
    expect((await set(cookie, keys[0] ?? '', 'changed')).status).toBe(200);
    expect(await get(cookie, [keys[0] ?? ''])).toEqual({ [keys[0] ?? '']: 'changed' });
  });

  it(`accepts a value of exactly ${MAX_VALUE_BYTES} bytes and refuses one byte more, counted in UTF-8 bytes`, async () => {
    const cookie = await newVisitor();
    const exact = 'a'.repeat(MAX_VALUE_BYTES);
    expect((await set(cookie, 'exact', exact)).status).toBe(200);
    const oneMore = await set(cookie, 'too_big', 'a'.repeat(MAX_VALUE_BYTES + 1));
    expect(oneMore.status).toBe(409);
    expect(oneMore.body.error?.type).toBe('StorageQuotaExceededException');
    // Half as many characters as bytes, plus one: within the limit in characters, over it in bytes.
    const wide = 'é'.repeat(MAX_VALUE_BYTES / 2 + 1);
    expect(wide.length).toBeLessThan(MAX_VALUE_BYTES);
    expect(Buffer.byteLength(wide)).toBeGreaterThan(MAX_VALUE_BYTES);
    expect((await set(cookie, 'too_wide', wide)).body.error?.type).toBe('StorageQuotaExceededException');
    // An oversized overwrite leaves the stored value as it was.
    expect((await set(cookie, 'exact', `${exact}b`)).status).toBe(409);
    expect(await get(cookie, ['exact', 'too_big', 'too_wide'])).toEqual({ exact, too_big: null, too_wide: null });
  });

  it(`never lets concurrent sets of distinct new keys go past ${MAX_KEYS} keys`, async () => {
    const cookie = await newVisitor();
    const prefilled = MAX_KEYS - 5;
    for (let i = 0; i < prefilled; i += 1) await set(cookie, `pre${i}`, 'x');
    const racing = 20;
    const answers = await Promise.all(Array.from({ length: racing }, (_, i) => set(cookie, `race${i}`, 'y')));
    const accepted = answers.filter((answer) => answer.status === 200).length;
    const refused = answers.filter((answer) => answer.body.error?.type === 'StorageQuotaExceededException').length;
    expect(accepted).toBe(MAX_KEYS - prefilled);
    expect(refused).toBe(racing - accepted);
    expect(await keysOf(cookie)).toHaveLength(MAX_KEYS);
  });
});
