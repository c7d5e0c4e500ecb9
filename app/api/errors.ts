/**
 * Maps API errors met in a loader to the fatal pages of spec §8: banned → user blocked (403),
 * disabled/unavailable → maintenance (503), any 403 → forbidden. Other errors are rethrown for
 * the caller to handle.
 */
import { data } from 'react-router';
import { isApiError } from '#common/errors';

export function fatalPageError(error: unknown): never {
  if (isApiError(error)) {
    if (error.type === 'UserBannedException') throw data({ type: error.type }, { status: 403 });
    if (error.type === 'ApplicationDisabledException' || error.type === 'ApplicationUnavailableException') {
      throw data({ type: error.type }, { status: 503 });
    }
    if (error.status === 403) throw data({ type: error.type }, { status: 403 });
  }
  throw error;
}

/** Runs an API call from a loader, turning fatal answers into their pages. */
export async function loadOrFail<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    return fatalPageError(error);
  }
}

/**
 * Spec §8 route guard failure: 404 'Page Not Found: {full path}' with the path as data; the error
 * boundary shows the not-found page. For addresses naming something that does not exist.
 */
export function pageNotFound(request: Request): never {
  const { pathname } = new URL(request.url);
  throw data({ message: `Page Not Found: ${pathname}`, path: pathname }, { status: 404 });
}
