/**
 * Typed client of the product API: `api.call('cashier.makedeposit', params)` takes the method's
 * parameters and answers its result as the contract (common/contract) declares them; the verb
 * comes from the contract too. The same code runs in the browser (fetch to /api/…) and during
 * SSR (the load context's in-process call). Error answers become ApiError, so callers and the
 * error pages see the catalogue types of spec §8.
 */
import { API_VERSION } from '#common/api-contract';
import type { MethodName, ParamsInput, ResultOf } from '#common/contract';
import { METHOD_VERBS } from '#common/contract/verbs';
import { ApiError, type ErrorBody } from '#common/errors';
import type { ApiRequest, InProcessAnswer } from '#common/load-context';
import type { Locale } from '#common/locale';

/** Sends one request to `/api/…`; `body` is undefined when the answer was no JSON. */
export type ApiTransport = (path: string, request: ApiRequest) => Promise<InProcessAnswer>;

/** The parameters argument: optional when the method needs none. */
type ParamsArgument<Name extends MethodName> =
  Record<string, never> extends ParamsInput<Name> ? [params?: ParamsInput<Name>] : [params: ParamsInput<Name>];

export interface ApiClientOptions {
  transport: ApiTransport;
  locale: Locale;
  /** Set when the site runs inside a frame (spec §7: non-strict flag). */
  isEmbedded?: boolean;
}

/** Form values as the browser sends them: arrays as `key[]`, everything else as text. */
function toSearch(params: object): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((item) => search.append(`${key}[]`, String(item)));
    else search.set(key, String(value));
  }
  return search;
}

/** The browser's transport: the HTTP surface, with the visitor's cookies. */
export function httpTransport(fetcher: typeof fetch): ApiTransport {
  return async (path, request) => {
    const response = await fetcher(path, {
      method: request.method,
      body: request.body,
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  };
}

export function createApiClient(options: ApiClientOptions) {
  async function call<Name extends MethodName>(name: Name, ...[params]: ParamsArgument<Name>): Promise<ResultOf<Name>> {
    const verb = METHOD_VERBS[name][0];
    const query = new URLSearchParams({ v: API_VERSION, locale: options.locale });
    if (options.isEmbedded) query.set('nonstrict', '1');
    const form = toSearch(params ?? {});
    if (verb === 'GET') form.forEach((value, key) => query.append(key, value));
    // POST parameters travel as form data (spec §7).
    const { status, body } = await options.transport(`/api/${name}?${query}`, {
      method: verb,
      body: verb === 'GET' ? undefined : form,
    });
    if (body === undefined) {
      throw new ApiError(status === 403 ? 'AccessDeniedException' : 'UnknownErrorException', `HTTP ${status}`, undefined, status);
    }
    const envelope = body as { data?: ResultOf<Name>; error?: ErrorBody } | null;
    if (envelope?.error) throw ApiError.fromBody(envelope.error, status);
    if (status < 200 || status >= 300) throw new ApiError('UnknownErrorException', `HTTP ${status}`, undefined, status);
    return envelope?.data as ResultOf<Name>;
  }

  return {
    call,
    events: {
      handle: (eventName: string, eventParams: Record<string, unknown> = {}) =>
        call('events.handle', { event_name: eventName, event_params: JSON.stringify(eventParams) }),
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The browser's client. */
export function browserApi(locale: Locale): ApiClient {
  return createApiClient({
    transport: httpTransport((path, init) => fetch(path, init)),
    locale,
    isEmbedded: typeof window !== 'undefined' && window.self !== window.top,
  });
}
