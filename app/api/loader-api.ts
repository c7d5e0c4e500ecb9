/** The product API client for loaders: in process during SSR, in the page's locale. */
import type { PageLoadContext } from '#common/load-context';
import { DEFAULT_LOCALE, localeFromPath } from '#common/locale';
import { createApiClient } from './client';

export function loaderApi(request: Request, context: unknown) {
  const ctx = context as PageLoadContext;
  const locale = localeFromPath(new URL(request.url).pathname) ?? DEFAULT_LOCALE;
  return createApiClient({ transport: ctx.callApi, locale });
}
