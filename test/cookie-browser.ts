/**
 * A browser for API tests that keeps every cookie the server sets (visitor id and session) and
 * sends them back: for flows bound to the browser that started them (social sign-in, tickets).
 */
import type { TestApp } from './api-harness';

const ORIGIN = 'http://127.0.0.1';

export class CookieBrowser {
  readonly cookies = new Map<string, string>();
  constructor(private readonly app: TestApp) {}

  get header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', this.header);
    const response = await this.app.request(path.startsWith(ORIGIN) ? path.slice(ORIGIN.length) : path, { ...init, headers });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (/Max-Age=0/i.test(cookie) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async api<T>(
    name: string,
    params: Record<string, string> = {},
    method: 'GET' | 'POST' = 'POST',
  ): Promise<{ status: number; data?: T; error?: { type: string; error_data?: Record<string, unknown> } }> {
    const query = new URLSearchParams({ v: '2.34', locale: 'en', ...(method === 'GET' ? params : {}) });
    const response = await this.request(`/api/${name}?${query}`, {
      method,
      body: method === 'POST' ? new URLSearchParams(params) : undefined,
    });
    const json = (await response.json()) as { data?: T; error?: { type: string; error_data?: Record<string, unknown> } };
    return { status: response.status, ...json };
  }
}
