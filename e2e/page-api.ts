/**
 * What browser tests do through a page rather than its controls: call the product API with the
 * page's own cookies (as the site's scripts would), and close a context without waiting on
 * beforeunload handlers.
 */
import type { BrowserContext, Frame, Page } from 'playwright-core';

export async function apiCall<T>(page: Page | Frame, verb: 'GET' | 'POST', name: string, params: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<{ data?: T; error?: { type: string; error_data?: Record<string, unknown> } }> {
  return page.evaluate(
    async ({ verb, name, params, headers }) => {
      const query = new URLSearchParams({ v: '2.34', locale: 'en', ...(verb === 'GET' ? params : {}) });
      const init: RequestInit = { method: verb, headers, signal: AbortSignal.timeout(15_000) };
      if (verb === 'POST') init.body = new URLSearchParams(params);
      return (await fetch(`/api/${name}?${query}`, init)).json();
    },
    { verb, name, params, headers },
  );
}

export async function closeContext(context: BrowserContext): Promise<void> {
  await Promise.all(context.pages().map((page) => page.close({ runBeforeUnload: false }).catch(() => undefined)));
  await context.close();
}
