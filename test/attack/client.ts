/** A bare product-API caller for the attack probes: any cookie, any headers, the answer as it came. */
import { API_VERSION } from '#common/api-contract';
import type { TestApp } from '../api-harness';

export interface Answer<T = unknown> {
  status: number;
  data?: T;
  error?: { type: string; message: string; error_data?: Record<string, unknown> };
}

export interface CallOptions {
  cookie?: string;
  verb?: 'GET' | 'POST';
  headers?: Record<string, string>;
}

export async function callApi<T = unknown>(
  t: TestApp,
  name: string,
  params: Record<string, string> = {},
  options: CallOptions = {},
): Promise<Answer<T>> {
  const verb = options.verb ?? 'POST';
  const query = new URLSearchParams({ v: API_VERSION, locale: 'en', ...(verb === 'GET' ? params : {}) });
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  const response = await t.request(`/api/${name}?${query}`, {
    method: verb,
    body: verb === 'POST' ? new URLSearchParams(params) : undefined,
    headers,
  });
  const body = (await response.json()) as Omit<Answer<T>, 'status'>;
  return { status: response.status, ...body };
}

/** The answer's data; throws with the error when there is none (set-up steps that must work). */
export function dataOf<T>(answer: Answer<T>): T {
  if (answer.error || answer.data === undefined)
    throw new Error(`${answer.error?.type ?? 'no data'}: ${answer.error?.message ?? ''}`);
  return answer.data;
}
