/** The API envelope of architecture §4: {"data": …} or {"error": {type, message, error_data}}. */
import { ZodError } from 'zod';
import { ApiError } from '#common/errors';

export function dataBody(data: unknown) {
  return { data };
}

/** Turns any thrown value into a catalogue error; internals never reach the message. */
export function toApiError(error: unknown): { apiError: ApiError; isUnexpected: boolean } {
  if (error instanceof ApiError) return { apiError: error, isUnexpected: false };
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    const field = issue?.path.map(String).join('.') || undefined;
    const message = field ? `Invalid parameter: ${field}` : 'Invalid parameters';
    return {
      apiError: new ApiError('InvalidParameterException', message, {
        field,
        fields: [...new Set(error.issues.map((i) => i.path.map(String).join('.')))],
      }),
      isUnexpected: false,
    };
  }
  return { apiError: new ApiError('UnknownErrorException', 'Unknown error'), isUnexpected: true };
}
