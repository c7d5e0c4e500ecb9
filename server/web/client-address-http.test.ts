/**
 * Per-address limits and blocked countries hold behind trusted proxies (issue 11, reproducer 4):
 * over HTTP, a client that writes its own X-Forwarded-For or X-Country-Code changes nothing.
 * The test app's requests come from 127.0.0.1, listed here as the trusted load balancer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { uniqueEmail } from '../../test/player';
import { sessions } from '../db/schema';
import { parseAddressRange, type AddressRange } from './client-address';

/** The sign-up limit per address (auth service: 20 an hour). */
const SIGN_UPS_PER_ADDRESS = 20;
const LOAD_BALANCER_RANGE = parseAddressRange('127.0.0.1/32') as AddressRange;

describe.each(testDatabaseKinds())('client address and country behind a trusted proxy on %s (issue 11)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { proxy: { mode: 'ranges', ranges: [LOAD_BALANCER_RANGE], countryHeader: 'cf-ipcountry' } });
  });
  afterAll(() => t?.close());

  const signUp = (forwardedFor: string) =>
    t.api('auth.register', {
      method: 'POST',
      params: { login: uniqueEmail(), password: 'secret12', terms: '1' },
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('the sign-up limit per address holds when the client writes a new X-Forwarded-For each time', async () => {
    const client = '198.51.100.7';
    for (let attempt = 0; attempt < SIGN_UPS_PER_ADDRESS; attempt += 1) {
      const answer = await signUp(`203.0.113.${attempt}, 10.9.9.${attempt}, ${client}`);
      expect(answer.status, `sign-up ${attempt}`).toBe(200);
    }
    const refused = await signUp(`192.0.2.200, ${client}`);
    expect(refused.body.error?.type).toBe('TooManyRequestsException');
    // Another client behind the same load balancer is its own address, with its own allowance.
    expect((await signUp(`${client}, 198.51.100.8`)).status).toBe(200);
  });

  it('the session records the address the load balancer saw, not the one the client wrote', async () => {
    const answer = await signUp('1.1.1.1, 198.51.100.20');
    expect(answer.status).toBe(200);
    const uid = (answer.body.data as { uid: number }).uid;
    const [session] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, uid))
      .orderBy(desc(sessions.createdAt))
      .limit(1);
    expect(session?.ip).toBe('198.51.100.20');
  });

  it('a blocked country stays out whatever X-Country-Code the client sends; only the configured header counts', async () => {
    const host = 'lagoon.localhost';
    const call = (headers: Record<string, string>) => t.api('storage.getKeys', { host, headers });
    // The seed's Lucky Lagoon keeps US and FR out.
    expect((await call({ 'cf-ipcountry': 'US', 'x-country-code': 'IT' })).body.error?.type).toBe('AccessDeniedException');
    expect((await call({ 'cf-ipcountry': 'IT', 'x-country-code': 'US' })).status).toBe(200);
    expect((await call({ 'x-country-code': 'US' })).status).toBe(200);
  });
});
