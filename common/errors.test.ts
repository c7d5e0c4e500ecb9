import { describe, expect, it } from 'vitest';
import { ApiError, ERROR_STATUS, ERROR_TYPES, isErrorType } from './errors';

describe('error catalogue (spec §8, architecture §4)', () => {
  it('holds exactly the 29 types of the spec, each with a status', () => {
    expect(ERROR_TYPES.length).toBe(29);
    expect(new Set(ERROR_TYPES).size).toBe(29);
    for (const type of ERROR_TYPES) expect(ERROR_STATUS[type]).toBeGreaterThanOrEqual(400);
  });
  it('uses the architecture statuses for the named cases', () => {
    expect(ERROR_STATUS.InvalidParameterException).toBe(400);
    expect(ERROR_STATUS.AuthorizationException).toBe(401);
    expect(ERROR_STATUS.AccessDeniedException).toBe(403);
    expect(ERROR_STATUS.UserBannedException).toBe(403);
    expect(ERROR_STATUS.MethodNotFoundException).toBe(404);
    expect(ERROR_STATUS.TooManyRequestsException).toBe(429);
    expect(ERROR_STATUS.ApplicationDisabledException).toBe(503);
    expect(ERROR_STATUS.ApplicationUnavailableException).toBe(503);
    expect(ERROR_STATUS.UnknownErrorException).toBe(500);
  });
  it('round-trips through the envelope body, and an unknown type becomes UnknownErrorException', () => {
    const error = new ApiError('InvalidParameterException', 'Invalid parameter: key', { field: 'key' });
    const again = ApiError.fromBody(error.toBody(), error.status);
    expect(again).toMatchObject({ type: error.type, message: error.message, status: 400, errorData: { field: 'key' } });
    expect(ApiError.fromBody({ type: 'NoSuchException' as never, message: 'x' }).type).toBe('UnknownErrorException');
    expect(isErrorType('UserBannedException')).toBe(true);
    expect(isErrorType('Error')).toBe(false);
  });
});
