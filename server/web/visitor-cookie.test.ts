import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';

describe.each(testDatabaseKinds())(
  'the visitor cookie on %s (storage and analytics key on it, so it must stay one browser’s)',
  (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(() => t?.close());

    it.each(['/nfx/cms-config/en', '/brand/logo.svg', '/brand/icon.svg'])(
      'is not issued on %s, which shared caches may keep (Cache-Control: public) and hand to every visitor',
      async (path) => {
        const response = await t.request(path);
        expect(response.status).toBe(200);
        expect(response.headers.get('cache-control')).toMatch(/\bpublic\b/);
        expect(response.headers.getSetCookie()).toEqual([]);
      },
    );

    it.each(['/api/storage.getKeys', '/hit', '/offline.html'])('is issued on the private answer of %s', async (path) => {
      const response = await t.request(path);
      expect(response.headers.get('cache-control') ?? '').not.toMatch(/\bpublic\b/);
      expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('vid='))).toBe(true);
    });
  },
);
