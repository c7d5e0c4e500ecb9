/** Errors for parameters a service cannot use: domain code throws these, the dispatcher answers them (spec §8). */
import { ApiError } from './errors';
import type { ValidationResult } from './validators';

/** Turns a failed shared validator (spec §5) into InvalidParameterException naming the field and the rule. */
export function requireValid(field: string, result: ValidationResult): void {
  if (!result.isValid) {
    throw new ApiError('InvalidParameterException', `Invalid parameter: ${field}`, {
      field,
      errorType: result.errorType,
      ...result.params,
    });
  }
}

/** InvalidParameterException naming a field whose value the method cannot use (error_data field, errorType wrongField). */
export function invalidParameter(field: string, message = `Invalid parameter: ${field}`): ApiError {
  return new ApiError('InvalidParameterException', message, { field, errorType: 'wrongField' });
}
