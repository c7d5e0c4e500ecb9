import { describe, expect, it } from 'vitest';
import { isRouteErrorResponse } from 'react-router';
import { ApiError } from '#common/errors';
import { errorPageType } from '#common/system-pages';
import { fatalPageError } from './errors';

function pageFor(error: ApiError): string {
  try {
    fatalPageError(error);
  } catch (thrown) {
    // data() throws a DataWithResponseInit; its init carries the status.
    const init = (thrown as { init?: { status?: number }; data?: { type?: string } }).init;
    if (init?.status) return errorPageType({ status: init.status, type: (thrown as { data?: { type?: string } }).data?.type });
    if (isRouteErrorResponse(thrown)) return errorPageType({ status: thrown.status });
    return 'rethrown';
  }
  return 'none';
}

describe('client error handling (spec §8: fatal API errors become their pages)', () => {
  it('UserBannedException → user blocked page', () => {
    expect(pageFor(new ApiError('UserBannedException', 'banned'))).toBe('userBlocked');
  });
  it('ApplicationDisabled/Unavailable → maintenance page', () => {
    expect(pageFor(new ApiError('ApplicationDisabledException', 'x'))).toBe('maintenance');
    expect(pageFor(new ApiError('ApplicationUnavailableException', 'x'))).toBe('maintenance');
  });
  it('any 403 → forbidden page', () => {
    expect(pageFor(new ApiError('AccessDeniedException', 'x'))).toBe('forbidden');
    expect(pageFor(new ApiError('UnknownErrorException', 'x', undefined, 403))).toBe('forbidden');
  });
  it('other errors are rethrown for the caller', () => {
    expect(pageFor(new ApiError('InvalidParameterException', 'x'))).toBe('rethrown');
  });
});
