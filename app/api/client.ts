/**
 * Typed client of the product API. The same code runs in the browser (fetch to /api/…) and
 * during SSR (the load context's in-process fetch). Error answers become ApiError, so callers
 * and the error pages see the catalogue types of spec §8.
 */
import { API_VERSION, type AccountInfo, type GeneralInfo, type SiteMetadata } from '#common/api-contract';
import { ApiError, type ErrorBody } from '#common/errors';
import type { LoyaltyCharacterList, LoyaltyInfo } from '#common/loyalty-contract';
import type { Locale } from '#common/locale';

type Fetch = (path: string, init?: RequestInit) => Promise<Response>;
export type Params = Record<string, string | number | boolean | readonly string[] | undefined>;

export interface ApiClientOptions {
  fetch: Fetch;
  locale: Locale;
  /** Set when the site runs inside a frame (spec §7: non-strict flag). */
  isEmbedded?: boolean;
}

function toSearch(params: Params): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((item) => search.append(`${key}[]`, item));
    else search.set(key, String(value));
  }
  return search;
}

export function createApiClient(options: ApiClientOptions) {
  async function call<T>(verb: 'GET' | 'POST', name: string, params: Params = {}): Promise<T> {
    const query = new URLSearchParams({ v: API_VERSION, locale: options.locale });
    if (options.isEmbedded) query.set('nonstrict', '1');
    let path = `/api/${name}`;
    const init: RequestInit = { method: verb, credentials: 'same-origin', headers: { accept: 'application/json' } };
    if (verb === 'GET') toSearch(params).forEach((value, key) => query.append(key, value));
    else init.body = toSearch(params); // form data (spec §7)
    path += `?${query}`;
    const response = await options.fetch(path, init);
    let body: { data?: T; error?: ErrorBody } | undefined;
    try {
      body = (await response.json()) as typeof body;
    } catch {
      throw new ApiError(
        response.status === 403 ? 'AccessDeniedException' : 'UnknownErrorException',
        `HTTP ${response.status}`,
        undefined,
        response.status,
      );
    }
    if (body?.error) throw ApiError.fromBody(body.error, response.status);
    if (!response.ok) throw new ApiError('UnknownErrorException', `HTTP ${response.status}`, undefined, response.status);
    return body?.data as T;
  }

  return {
    call,
    metadata: {
      getGeneralInfo: () => call<GeneralInfo>('GET', 'metadata.getgeneralinfo'),
      get: () => call<SiteMetadata>('GET', 'metadata.get'),
    },
    account: {
      getInfo: () => call<AccountInfo>('GET', 'account.getInfo'),
    },
    loyalty: {
      getInfo: () => call<LoyaltyInfo>('GET', 'loyalty.getinfo'),
      getCharacters: () => call<LoyaltyCharacterList>('GET', 'loyalty.getcharacters'),
      setCharacter: (id: number) => call<1>('POST', 'loyalty.setcharacter', { id }),
    },
    storage: {
      get: (keys: string[]) => call<Record<string, string | null>>('GET', 'storage.get', { keys: keys.join(',') }),
      getKeys: () => call<string[]>('GET', 'storage.getKeys'),
      set: (key: string, value: string) => call<1>('POST', 'storage.set', { key, value }),
    },
    events: {
      handle: (eventName: string, eventParams: Record<string, unknown> = {}) =>
        call<1>('GET', 'events.handle', { event_name: eventName, event_params: JSON.stringify(eventParams) }),
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The browser's client. */
export function browserApi(locale: Locale): ApiClient {
  return createApiClient({
    fetch: (path, init) => fetch(path, init),
    locale,
    isEmbedded: typeof window !== 'undefined' && window.self !== window.top,
  });
}
