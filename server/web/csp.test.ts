/**
 * Issue 11: every answer carries a strict Content-Security-Policy with a nonce of its own, and the
 * pages the server writes itself (payment and KYC sandboxes, OAuth, offline page) put that nonce on
 * each inline style and script, with no inline event handler (a nonce does not cover those).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { contentSecurityPolicy, newCspNonce } from './csp';
import { socialResultPage } from './oauth-pages';

function nonceOf(policy: string | null): string | undefined {
  return /script-src 'nonce-([^']+)' 'strict-dynamic'/.exec(policy ?? '')?.[1];
}

/** Every inline script and style element of a page, with its nonce attribute (undefined when absent). */
function inlineElementNonces(html: string): (string | undefined)[] {
  return [...html.matchAll(/<(script|style)\b([^>]*)>/g)].map(
    ([, , attributes]) => /nonce="([^"]*)"/.exec(attributes ?? '')?.[1],
  );
}

describe('the policy (issue 11: a strict Content-Security-Policy)', () => {
  it('allows scripts only by nonce, never inline, no objects, no base moves, frames from the site only', () => {
    const policy = contentSecurityPolicy('abc', 'production');
    expect(policy).toContain("script-src 'nonce-abc' 'strict-dynamic'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'none'");
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toContain("style-src 'self' 'nonce-abc'");
  });

  it('frames show the site and, when one is connected, the game aggregator only (issue 15)', () => {
    expect(contentSecurityPolicy('abc', 'production')).toContain("frame-src 'self';");
    const policy = contentSecurityPolicy('abc', 'production', ['http://127.0.0.1:4100']);
    expect(policy).toContain("frame-src 'self' http://127.0.0.1:4100;");
  });

  it('makes a different nonce each time', () => {
    expect(new Set(Array.from({ length: 50 }, newCspNonce)).size).toBe(50);
  });

  it('the social pop-up page puts the nonce on its style and script and has no inline handler', () => {
    const html = socialResultPage({
      locale: 'en',
      translations: {},
      result: { status: 'error', reason: 'denied' },
      nonce: 'n0nce',
    });
    expect(inlineElementNonces(html)).toEqual(['n0nce', 'n0nce']);
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});

describe('the policy on answers (issue 11: a fresh nonce per response, on the server-made pages)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t?.close());

  it('puts a policy with a fresh nonce on every answer', async () => {
    const nonces = [];
    for (const path of ['/healthz', '/api/metadata.getgeneralinfo', '/robots.txt', '/healthz']) {
      const nonce = nonceOf((await t.request(path)).headers.get('content-security-policy'));
      expect(nonce, path).toBeTruthy();
      nonces.push(nonce);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it.each([
    ['the payment sandbox', '/psp/sandbox/pay/no-such-payment'],
    ['the KYC sandbox', '/kyc/sandbox?token=expired'],
    ['the OAuth provider', '/oauth/dev/authorize?client_id=nobody'],
    ['the offline page', '/offline.html'],
  ])('%s page carries the answer’s nonce on each inline style and script', async (_label, path) => {
    const answer = await t.request(path);
    const nonce = nonceOf(answer.headers.get('content-security-policy'));
    const html = await answer.text();
    const nonces = inlineElementNonces(html);
    expect(nonces.length, path).toBeGreaterThan(0);
    expect(new Set(nonces), path).toEqual(new Set([nonce]));
    expect(html).not.toMatch(/\son[a-z]+="/i);
  });
});
