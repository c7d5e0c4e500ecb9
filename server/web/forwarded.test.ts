import { describe, expect, it } from 'vitest';
import { withForwardedOrigin } from './forwarded';

describe('public origin behind a trusted load balancer (README: TRUST_PROXY)', () => {
  const request = (headers: Record<string, string>) => new Request('http://10.0.0.5:3000/promotions?x=1', { headers });

  it('takes scheme and host from X-Forwarded-Proto / X-Forwarded-Host when the proxy is trusted', () => {
    const rewritten = withForwardedOrigin(request({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'casino.example' }), true);
    expect(rewritten.url).toBe('https://casino.example/promotions?x=1');
    expect(rewritten.headers.get('host')).toBe('casino.example');
  });
  it('ignores the headers when the proxy is not trusted, and ignores malformed values', () => {
    expect(withForwardedOrigin(request({ 'x-forwarded-proto': 'https' }), false).url).toBe('http://10.0.0.5:3000/promotions?x=1');
    expect(
      withForwardedOrigin(request({ 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.example/x' }), true).url,
    ).toBe('http://10.0.0.5:3000/promotions?x=1');
  });
  it('keeps the body of a POST', async () => {
    const post = new Request('http://10.0.0.5:3000/api/storage.set', {
      method: 'POST',
      body: 'key=a&value=b',
      headers: { 'x-forwarded-proto': 'https' },
    });
    const rewritten = withForwardedOrigin(post, true);
    expect(rewritten.url.startsWith('https://')).toBe(true);
    expect(await rewritten.text()).toBe('key=a&value=b');
  });
});
