/**
 * What every product-API answer must be (architecture §4, spec §8): JSON, either {"data": …}
 * with 200 or {"error": {type, message, error_data?}} with a catalogue type and that type's
 * status. The attack suite's one judge of an answer.
 */
import { ERROR_STATUS, ERROR_TYPES, type ErrorType } from '#common/errors';

/** Why an answer breaks the envelope, or undefined when it keeps it. */
export function envelopeProblem(status: number, contentType: string | null, text: string): string | undefined {
  if (status >= 500) return `HTTP ${status}`;
  if (!/^application\/json\b/i.test(contentType ?? '')) return `content-type ${contentType ?? '(none)'}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'the body is not an object';
  const keys = Object.keys(body);
  if (keys.length !== 1 || (keys[0] !== 'data' && keys[0] !== 'error')) return `envelope keys ${keys.join(',')}`;
  if (keys[0] === 'data') return status === 200 ? undefined : `data with HTTP ${status}`;
  return errorProblem(status, (body as { error: unknown }).error);
}

function errorProblem(status: number, error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return 'error is not an object';
  const { type, message, error_data: errorData, ...rest } = error as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return `error keys ${Object.keys(rest).join(',')}`;
  if (typeof type !== 'string' || !(ERROR_TYPES as readonly string[]).includes(type)) return `error type ${String(type)}`;
  if (typeof message !== 'string') return 'error message is not text';
  if (errorData !== undefined && (errorData === null || typeof errorData !== 'object' || Array.isArray(errorData)))
    return 'error_data is not an object';
  const expected = ERROR_STATUS[type as ErrorType];
  // The one status the catalogue does not give: a body over the size limit (server/http.ts) is 413.
  const isTooLarge = type === 'InvalidRequestException' && status === 413;
  return status === expected || isTooLarge ? undefined : `${type} with HTTP ${status} (catalogue: ${expected})`;
}
