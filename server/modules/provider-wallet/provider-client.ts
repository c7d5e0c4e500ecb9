/**
 * The provider's side of the seamless wallet, as an aggregator would call it: JSON bodies signed
 * with the provider's secret. Used by the tests, the provider simulator and bench/provider-wallet.ts.
 */
import { SIGNATURE_HEADER, signBody, type ProviderConfig } from './providers';
import type { ProviderAction } from './protocol';

/** What the client reads of an answer: a fetch Response, or a bench's lighter equivalent. */
export type SendAnswer = Pick<Response, 'status' | 'json'>;
export type Send = (path: string, init: RequestInit) => Promise<SendAnswer>;

export interface ProviderReply {
  httpStatus: number;
  body: {
    status: 'OK' | 'ERROR';
    code?: string;
    message?: string;
    field?: string;
    balance?: number | string;
    currency?: string;
    [key: string]: unknown;
  };
}

export interface CallOptions {
  /** Send this raw body instead of JSON.stringify(body). */
  rawBody?: string;
  /** Send this X-Signature (null: none) instead of the right one. */
  signature?: string | null;
}

export function providerClient(send: Send, provider: Pick<ProviderConfig, 'name' | 'secret'>) {
  return {
    async call(action: ProviderAction | string, body: unknown, options: CallOptions = {}): Promise<ProviderReply> {
      const rawBody = options.rawBody ?? JSON.stringify(body);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const signature = options.signature === undefined ? signBody(provider.secret, rawBody) : options.signature;
      if (signature !== null) headers[SIGNATURE_HEADER] = signature;
      const response = await send(`/provider-api/${provider.name}/${action}`, { method: 'POST', headers, body: rawBody });
      return { httpStatus: response.status, body: (await response.json()) as ProviderReply['body'] };
    },
  };
}

export type ProviderClient = ReturnType<typeof providerClient>;
